import Foundation
import KuraTestSupport
import Testing

/// The README's main job ("On a fresh machine"), taken from the README itself and run twice on a
/// copy of the samples: the second run works and changes nothing, not a byte of any file.
@Suite struct MainJobTests {
    let kura = Fixtures.executable("kura")

    /// The `kura` command lines of the README's main job, in order, without `swift run kura`.
    private func mainJob() throws -> [[String]] {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## On a fresh machine").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        let job = block.components(separatedBy: "\n\n")[0]
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
            .replacingOccurrences(of: "\\\n", with: " ")
        return job.components(separatedBy: "&&").map { command in
            command.split(separator: " ").map(String.init).drop { $0 != "kura" }.dropFirst().map { $0 }
        }
    }

    @Test func theMainJobRunsTwiceAndTheSecondRunChangesNothing() throws {
        let folder = try Fixtures.temporaryDirectory()
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Samples"), to: folder.appendingPathComponent("Samples"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("Samples/samples.realm"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("Samples/copy.realm"))
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("config.yaml"), to: folder.appendingPathComponent("config.yaml"))
        let commands = try mainJob()
        #expect(commands.map(\.first) == ["init", "import", "export", "copy"])
        var runs: [[String]] = []
        var digests: [[String: String]] = []
        for _ in 0..<2 {
            digests.append(try Fixtures.fileDigests(in: folder))
            var outputs: [String] = []
            for command in commands {
                let result = try Fixtures.run(kura, command, currentDirectory: folder)
                #expect(result.status == 0, "\(command): \(result.stderr)")
                outputs.append(result.stdout)
            }
            runs.append(outputs)
        }
        // Not a byte of any file changed, the realms' included, and nothing was left beside them.
        #expect(try Fixtures.fileDigests(in: folder) == digests[1])
        #expect(digests[1]["Samples/samples.realm"] != nil && digests[1]["Samples/copy.realm"] != nil)
        #expect(runs[1][0] == "Samples/samples.realm: already a realm with this schema (version 1, 5 types)\n")
        #expect(runs[1][1] == "Person: 0 inserted, 0 updated, 3 unchanged\n3 documents, 741 bytes\n")
        #expect(runs[1][3] == "Person: 0 inserted, 0 updated, 3 unchanged\n")
        // The copy holds what the realm holds, once.
        let source = try Fixtures.run(kura, ["export", "Samples/samples.realm", "--format", "jsonl"], currentDirectory: folder)
        let copy = try Fixtures.run(kura, ["export", "Samples/copy.realm", "--format", "jsonl"], currentDirectory: folder)
        #expect(source.stdout == copy.stdout)
        #expect(source.stdout.split(separator: "\n").count == 3)
        let check = try Fixtures.run(kura, ["check", "Samples/copy.realm"], currentDirectory: folder)
        #expect(check.stdout == "Samples/copy.realm: ok (8 objects in 5 types, schema version 1)\n")
    }
}
