import Foundation

/// The imports running now, for `GET /v1/realms/{realm}/imports`: each import route registers its
/// import and updates the bytes it received and the documents read as it goes.
final class ImportRegistry: @unchecked Sendable {
    /// One running import.
    final class Entry: @unchecked Sendable {
        let id: Int
        let realm: String
        let type: String?
        let started = Date()
        private let lock = NSLock()
        private var bytes = 0
        private var documents = 0

        init(id: Int, realm: String, type: String?) {
            self.id = id
            self.realm = realm
            self.type = type
        }

        /// Adds `count` bytes received.
        func received(_ count: Int) {
            lock.lock()
            bytes += count
            lock.unlock()
        }

        /// Sets the documents read so far.
        func read(documents count: Int) {
            lock.lock()
            documents = count
            lock.unlock()
        }

        /// `{"id", "type", "bytes", "documents", "seconds", "documentsPerSecond"}` as of `now`.
        func json(now: Date) -> String {
            lock.lock()
            let (bytes, documents) = (self.bytes, self.documents)
            lock.unlock()
            let seconds = max(now.timeIntervalSince(started), 0)
            let rate = seconds > 0 ? Double(documents) / seconds : 0
            return JSONText.object([
                ("id", String(id)), ("type", type.map(JSONText.string) ?? "null"), ("bytes", String(bytes)),
                ("documents", String(documents)), ("seconds", String(format: "%.3f", seconds)),
                ("documentsPerSecond", String(format: "%.1f", rate)),
            ])
        }
    }

    private let lock = NSLock()
    private var entries: [Int: Entry] = [:]
    private var lastId = 0

    /// Registers an import into `realm`; `finish(_:)` removes it.
    func start(realm: String, type: String?) -> Entry {
        lock.lock()
        defer { lock.unlock() }
        lastId += 1
        let entry = Entry(id: lastId, realm: realm, type: type)
        entries[lastId] = entry
        return entry
    }

    /// Removes a finished import.
    func finish(_ entry: Entry) {
        lock.lock()
        entries[entry.id] = nil
        lock.unlock()
    }

    /// `{"imports": [...]}` for the imports into `realm` running now, oldest first.
    func json(realm: String) -> String {
        lock.lock()
        let running = entries.values.filter { $0.realm == realm }.sorted { $0.id < $1.id }
        lock.unlock()
        let now = Date()
        return JSONText.object([("imports", JSONText.array(running.map { $0.json(now: now) }))])
    }
}
