import Foundation
import Kura

/// The realms a server serves, by name: opened afresh for each write, so that writes share no
/// connection, and kept open in a pool for reads, which run beside writes (WAL). All work on them
/// runs through `work`, which bounds it.
public struct ServedRealms: Sendable {
    /// Realm names and their files.
    public let paths: [String: String]
    /// Where every request's realm work runs.
    let work: BlockingWork
    private let pool = RealmPool()

    /// Serves `paths` (name to file), running at most `workers` jobs at once, each request waiting
    /// at most `workerWait` seconds for one.
    public init(paths: [String: String], workers: Int = 64, workerWait: Double = 5) {
        self.paths = paths
        work = BlockingWork(limit: workers, wait: .milliseconds(Int64(workerWait * 1000)))
    }

    /// The names, sorted.
    public var names: [String] { paths.keys.sorted() }

    /// Opens realm `name`; 404 `unknown-realm` when it is not served. A write on it waits for
    /// another writer while that one makes progress, and gives up after `writeWait` seconds without
    /// any (then the route answers 503).
    func open(_ name: String, writeWait: Double? = nil) throws -> Realm {
        let path = try path(of: name)
        guard let writeWait else { return try Realm(path: path) }
        return try Realm(configuration: Realm.Configuration(path: path, busyTimeout: writeWait))
    }

    /// The file of realm `name`; 404 `unknown-realm` when it is not served, 503 `realm-unavailable`
    /// when its file went away while the server runs.
    func path(of name: String) throws(Problem) -> String {
        guard let path = paths[name] else { throw Problem.notFound("unknown-realm", "no realm named '\(MessageText.shown(name))' is served") }
        guard !Realm.Configuration(path: path).isFile || FileManager.default.fileExists(atPath: path) else {
            throw Problem(status: 503, code: "realm-unavailable", detail: "realm '\(name)' is unavailable: its file is missing")
        }
        return path
    }

    /// Runs `body` with realm `name` for reading (404 `unknown-realm` when it is not served), lent
    /// by the pool: `body` must not keep it, nor write with it.
    func reading<Result>(_ name: String, _ body: (Realm) throws -> Result) throws -> Result {
        let path = paths[name] ?? ""
        return try pool.reading(name, path: path, open: { try open(name) }, body)
    }

    /// Checks that every realm file exists and opens, before the server starts (and for `/readyz`).
    public func checkAll() throws(ServerSetupError) {
        for name in names {
            let path = paths[name] ?? ""
            guard !Realm.Configuration(path: path).isFile || FileManager.default.fileExists(atPath: path) else {
                throw ServerSetupError(.realmMissing, "realm '\(name)': no realm file at '\(path)'")
            }
            do {
                _ = try Realm(path: path)
            } catch {
                throw ServerSetupError(.realmUnopenable, "realm '\(name)' at '\(path)' does not open: \(error)")
            }
        }
    }

    /// The schema type `name` of `realm`; 404 `unknown-type` when the realm has none.
    static func type(_ name: String, in realm: Realm, realmName: String) throws(Problem) -> ObjectSchema {
        guard let type = realm.schema[type: name] else {
            throw Problem.notFound("unknown-type", "realm '\(realmName)' has no type '\(MessageText.shown(name))'")
        }
        return type
    }
}
