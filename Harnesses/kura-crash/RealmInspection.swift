import Foundation
import Kura

/// What a realm file holds, read the way the harness judges it: first `RealmChecker` on the files
/// exactly as they were left (read-only, so a WAL left by a kill is not recovered before it is
/// checked), then the realm opened normally and exported whole.
struct RealmInspection {
    /// What `RealmChecker` found wrong; empty for a healthy realm.
    var problems: [String]
    /// The realm's schema (its version included), as stored.
    var schema: Schema
    /// A whole-realm JSON export: every object, link, collection and counter, in a fixed order.
    var export: [UInt8]
    /// Primary key values held by more than one object, as `Type.key: value`.
    var duplicateKeys: [String]
    /// The size of the `-wal` file as found, before anything opened the realm.
    var walBytes: Int

    /// Inspects the realm at `path`; `snapshot`, when given, is a folder that receives a copy of the
    /// realm's files (`-wal` and `-shm` too) as they were before anything read them.
    init(path: String, snapshot: String? = nil) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: path) else { throw HarnessError("the realm file is missing: \(path)") }
        walBytes = (try? files.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if let snapshot {
            try files.createDirectory(atPath: snapshot, withIntermediateDirectories: true)
            let name = URL(fileURLWithPath: path).lastPathComponent
            for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                try files.copyItem(atPath: path + suffix, toPath: snapshot + "/" + name + suffix)
            }
        }
        do {
            problems = try RealmChecker(path: path).check().messages
        } catch {
            throw HarnessError("kura check cannot read the realm: \(error)")
        }
        let realm: Realm
        do {
            realm = try Realm(path: path)
        } catch {
            throw HarnessError("the realm does not open: \(error)")
        }
        schema = realm.schema
        let output = DocumentOutput()
        _ = try RealmExporter(realm: realm).run(to: DocumentWriter(schema: realm.schema, format: .json, output: output))
        export = output.bytes
        duplicateKeys = try Self.duplicateKeys(in: realm)
    }

    /// Reads every primary key of every type and lists the values met twice.
    private static func duplicateKeys(in realm: Realm) throws -> [String] {
        var duplicates: [String] = []
        for type in realm.schema.types where !type.isEmbedded && !type.isAsymmetric {
            guard let key = type.primaryKey else { continue }
            var seen = Set<Value>()
            for object in try realm.objects(type.name) {
                let value = try object.value(forKey: key)
                if !seen.insert(value).inserted { duplicates.append("\(type.name).\(key): \(value)") }
            }
        }
        return duplicates
    }

    /// Objects per type in the export, for a failure report: `Person 120, Dog 88`.
    var summary: String {
        let text = String(decoding: export, as: UTF8.self)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: #""$type":""#) else { continue }
            let name = line[range.upperBound...].prefix { $0 != "\"" }
            counts[String(name), default: 0] += 1
        }
        let listed = counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ")
        return "\(export.count) bytes exported (top-level documents: \(listed.isEmpty ? "none" : listed))"
    }
}
