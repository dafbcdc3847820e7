import Foundation

/// A folder with a sample realm (`zoo.realm`: the three people of Samples/people.json) for the service tests.
package struct ServiceFixture: Sendable {
    package let folder: URL
    package let kura = Fixtures.executable("kura")

    /// A new folder, holding `zoo.realm` unless `makingSampleRealm` is false.
    package init(makingSampleRealm: Bool = true) throws {
        folder = try Fixtures.temporaryDirectory()
        if makingSampleRealm { try makeRealm("zoo.realm") }
    }

    package func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A realm of the sample schema holding Samples/people.json.
    package func makeRealm(_ name: String) throws {
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        let people = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        let created = try Fixtures.run(kura, ["init", path(name), "--schema", schema])
        guard created.status == 0 else { throw ServerStartFailure(log: created.stderr) }
        let imported = try Fixtures.run(kura, ["import", path(name), people, "--type", "Person"])
        guard imported.status == 0 else { throw ServerStartFailure(log: imported.stderr) }
    }

    /// `kura serve` with `arguments` in this folder.
    package func serve(_ arguments: [String] = ["zoo.realm"]) throws -> ServerProcess {
        try ServerProcess(in: folder, arguments)
    }

    /// Writes `text` as config.yaml in this folder.
    package func writeConfig(_ text: String) throws {
        try text.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
    }
}
