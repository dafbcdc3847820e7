import Foundation
import Kura

/// The realms a server serves, by name: opened afresh for each write, so that writes share no
/// connection, and kept open in a pool for reads, which run beside writes (WAL).
public struct ServedRealms: Sendable {
    /// Realm names and their files.
    public let paths: [String: String]
    private let pool = RealmPool()

    /// Serves `paths` (name to file).
    public init(paths: [String: String]) { self.paths = paths }

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

    /// The file of realm `name`; 404 `unknown-realm` when it is not served.
    func path(of name: String) throws -> String {
        guard let path = paths[name] else { throw Problem.notFound("unknown-realm", "no realm named '\(name)' is served") }
        guard FileManager.default.fileExists(atPath: path) else {
            throw ServerSetupError(.realmMissing, "realm '\(name)': no realm file at '\(path)'")
        }
        return path
    }

    /// Runs `body` with realm `name` for reading (404 `unknown-realm` when it is not served), lent
    /// by the pool: `body` must not keep it, nor write with it.
    func reading<Result>(_ name: String, _ body: (Realm) throws -> Result) throws -> Result {
        let path = paths[name] ?? ""
        return try pool.reading(name, path: path, open: { try open(name) }, body)
    }

    /// Checks that every realm file exists and opens, before the server starts.
    public func checkAll() throws(ServerSetupError) {
        for name in names {
            do {
                _ = try open(name)
            } catch let error as ServerSetupError {
                throw error
            } catch {
                throw ServerSetupError(.realmUnopenable, "realm '\(name)' at '\(paths[name] ?? "")' does not open: \(error)")
            }
        }
    }

    /// The schema type `name` of `realm`; 404 `unknown-type` when the realm has none.
    static func type(_ name: String, in realm: Realm, realmName: String) throws(Problem) -> ObjectSchema {
        guard let type = realm.schema[type: name] else {
            throw Problem.notFound("unknown-type", "realm '\(realmName)' has no type '\(name)'")
        }
        return type
    }
}
