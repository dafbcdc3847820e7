#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Kura

/// Realms kept open for reads, by name, each lent to one request at a time.
///
/// Opening a realm reads and parses its stored schema, which costs several times a keyed read; a
/// realm lent again first reloads its schema if another connection changed it, and is dropped when
/// its file was replaced (another inode at the path). A realm on a database server is kept for as
/// long as its URL is served.
final class RealmPool: @unchecked Sendable {
    /// Idle realms kept per name; more are closed when given back.
    static let maxIdle = 16

    private struct Entry {
        let realm: Realm
        let file: StorageIdentity
    }

    /// What a realm lives in: the device and inode of a file, which tell a replaced file from the
    /// one opened, or the URL of a realm on a database server.
    enum StorageIdentity: Equatable {
        case file(device: UInt64, inode: UInt64)
        case server(String)

        init?(path: String) {
            let configuration = Realm.Configuration(path: path)
            guard !configuration.isInMemory else { return nil }
            guard configuration.isFile else {
                self = .server(path)
                return
            }
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            self = .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    private let lock = NSLock()
    private var idle: [String: [Entry]] = [:]

    /// Runs `body` with a realm of `path` (served as `name`), opened by `open` when none is idle.
    func reading<Result>(_ name: String, path: String, open: () throws -> Realm, _ body: (Realm) throws -> Result) throws -> Result {
        let file = StorageIdentity(path: path)
        var entry = lock.withLock { idle[name]?.popLast() }
        if let lent = entry, lent.file != file { entry = nil }
        let realm: Realm
        if let entry {
            realm = entry.realm
            try realm.refresh()
        } else {
            realm = try open()
        }
        let result = try body(realm)
        if let file {
            lock.withLock {
                if idle[name, default: []].count < Self.maxIdle { idle[name, default: []].append(Entry(realm: realm, file: file)) }
            }
        }
        return result
    }
}
