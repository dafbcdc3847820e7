import Foundation
import KuraTestSupport
import Testing

/// The example `kura serve --help` shows works as written (on an ephemeral port instead of 8080).
@Suite struct ServiceHelpExampleTests {
    @Test func theHelpExampleRuns() throws {
        let fixture = try ServiceFixture()
        let help = try Fixtures.run(fixture.kura, ["serve", "--help"])
        #expect(help.status == 0)
        let lines = help.stdout.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "Example:"))
        var commands: [String] = []
        var pending = ""
        for line in lines[(start + 1)...] {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { break }
            pending += line.trimmingCharacters(in: .whitespaces)
            if pending.hasSuffix("\\") {
                pending.removeLast()
            } else {
                commands.append(pending)
                pending = ""
            }
        }
        #expect(commands.count == 5)
        #expect(commands.first == "kura serve Samples/samples.realm --port 8080 &")

        try FileManager.default.createDirectory(at: fixture.folder.appendingPathComponent("Samples"), withIntermediateDirectories: true)
        let schema = Fixtures.packageRoot.appendingPathComponent("Samples/schema.yaml").path
        let people = Fixtures.packageRoot.appendingPathComponent("Samples/people.json").path
        let realm = fixture.path("Samples/samples.realm")
        #expect(try Fixtures.run(fixture.kura, ["init", realm, "--schema", schema]).status == 0)
        #expect(try Fixtures.run(fixture.kura, ["import", realm, people, "--type", "Person"]).status == 0)
        let server = try fixture.serve(["Samples/samples.realm"])
        for command in commands.dropFirst() {
            let line = command.replacingOccurrences(of: ":8080", with: ":\(server.port)")
            let result = try Fixtures.run("/bin/sh", ["-c", line], currentDirectory: fixture.folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(command)")
        }
        #expect(try server.request("/v1/realms/samples/objects/Person/1").text.contains(#""name":"Ann""#))
        #expect(try server.request("/v1/realms/samples/objects/Person/4").text.contains(#""name":"Dana""#))
    }
}
