import Foundation
import Kura
import KuraServer
import Yams

/// The defaults of `config.yaml`: flags override every one of them.
struct ConfigFile: Decodable {
    /// The realm file the commands work on.
    var realm: String?
    /// The schema file for `init`.
    var schema: String?
    /// How `import` accepts dates given as plain strings or numbers: strict, iso8601,
    /// secondsSince1970 or millisecondsSince1970.
    var dateStrategy: String?
    /// How `import` accepts data given as a plain string: strict or base64.
    var dataStrategy: String?
    /// Documents per transaction when bad documents are skipped.
    var batchSize: Int?
    /// The import mode: insert, update, modified or replace.
    var mode: String?
    /// What an import does with a bad document: stop or skip.
    var onError: String?
    /// The `server:` section, for `kura serve`.
    var server: ServerConfiguration?

    /// Reads `explicitPath`, or `./config.yaml` when it exists; no file gives empty defaults.
    /// Relative paths in the file are taken from the file's own folder.
    static func load(explicitPath: String?) throws -> ConfigFile {
        let path = explicitPath ?? "config.yaml"
        guard FileManager.default.fileExists(atPath: path) else {
            if explicitPath != nil { throw CommandFailure(.inputMissing, "no configuration file at '\(path)'") }
            return ConfigFile()
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure(.io, "cannot read configuration file '\(path)': \(error.localizedDescription)")
        }
        var config: ConfigFile
        do {
            config = try YAMLDecoder().decode(ConfigFile.self, from: text)
        } catch {
            throw CommandFailure(.badData, "\(path): invalid configuration: \(error)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        config.realm = config.realm.map { resolve($0, in: folder) }
        config.schema = config.schema.map { resolve($0, in: folder, isRealm: false) }
        if var server = config.server {
            server.realms = server.realms.mapValues { resolve($0, in: folder) }
            config.server = server
        }
        return config
    }

    init() {}

    /// The flag's value, else the configuration's, else a usage error naming both.
    func require(_ flag: String?, _ key: KeyPath<ConfigFile, String?>, what: String, flag name: String) throws -> String {
        if let flag { return flag }
        if let configured = self[keyPath: key] { return configured }
        throw CommandFailure(.usage, "\(what) is needed: give \(name) or set it in config.yaml")
    }

    private static func resolve(_ path: String, in folder: URL, isRealm: Bool = true) -> String {
        // Only a file's path is relative to the configuration; a server realm's URL is not a path.
        if path.hasPrefix("/") || path == ":memory:" || isRealm && !RealmPaths.isFile(path) { return path }
        let resolved = folder.appendingPathComponent(path).path
        return resolved.hasPrefix(FileManager.default.currentDirectoryPath + "/")
            ? String(resolved.dropFirst(FileManager.default.currentDirectoryPath.count + 1)) : resolved
    }
}
