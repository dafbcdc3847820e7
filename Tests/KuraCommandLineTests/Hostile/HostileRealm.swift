import Foundation
import KuraTestSupport
import Testing

/// A realm in a fresh folder, driven through the real `kura` binary with paths relative to the
/// folder (so messages name files as `bomb.yaml:5:7`), for hostile-input tests.
struct HostileRealm {
    let folder: URL
    let kura = Fixtures.executable("kura")
    let name: String

    /// A realm named `name` with `schema` (text) holding the documents of `seed` (file name, bytes) if any.
    init(_ name: String = "r.realm", schema: String? = nil, seed: (file: String, type: String)? = ("people.json", "Person")) throws {
        folder = try Fixtures.temporaryDirectory()
        self.name = name
        var schemaPath = Fixtures.samplesSchemaPath
        if let schema {
            schemaPath = folder.appendingPathComponent("schema.yaml").path
            try schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        }
        try #require(try run(["init", name, "--schema", schemaPath]).status == 0)
        if let seed {
            let file = Fixtures.packageRoot.appendingPathComponent("Samples/\(seed.file)").path
            try #require(try run(["import", name, file, "--type", seed.type]).status == 0)
        }
    }

    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try Fixtures.run(kura, arguments, currentDirectory: folder)
    }

    /// Writes `bytes` to `file` in the folder.
    func write(_ file: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(file))
    }

    /// The whole realm as JSON.
    func export() throws -> String {
        let result = try run(["export", name])
        try #require(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// What `kura check` finds wrong: nothing for a healthy realm.
    func problems() throws -> [String] {
        let result = try run(["check", name])
        return result.status == 0 ? [] : [result.stdout + result.stderr]
    }

    /// Imports `bytes` as `file` and expects it refused as bad data (65) with exactly `message` on
    /// standard error, leaving the realm as it was and healthy.
    func expectRefused(
        _ file: String, _ bytes: [UInt8], type: String = "Dog", _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try export()
        try write(file, bytes)
        let result = try run(["import", name, file, "--type", type])
        #expect(result.status == 65, sourceLocation: sourceLocation)
        #expect(result.stderr == "kura: \(message)\n", sourceLocation: sourceLocation)
        #expect(try export() == before, sourceLocation: sourceLocation)
        #expect(try problems() == [], sourceLocation: sourceLocation)
    }

    /// Imports `file`, exports the whole realm, imports that into a fresh realm of the same schema
    /// and exports it again: both exports must be equal. Returns the first export.
    func expectRoundTrip(_ file: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let imported = try run(["import", name, file] + arguments)
        #expect(imported.status == 0, "\(imported.stderr)", sourceLocation: sourceLocation)
        let exported = try export()
        try exported.write(to: folder.appendingPathComponent("export.json"), atomically: true, encoding: .utf8)
        let schema = try run(["schema", name]).stdout
        let copy = try HostileRealm("copy.realm", schema: schema, seed: nil)
        let reimported = try copy.run(["import", "copy.realm", folder.appendingPathComponent("export.json").path])
        #expect(reimported.status == 0, "\(reimported.stderr)", sourceLocation: sourceLocation)
        #expect(try copy.export() == exported, sourceLocation: sourceLocation)
        #expect(try problems() == [] && copy.problems() == [], sourceLocation: sourceLocation)
        return exported
    }
}
