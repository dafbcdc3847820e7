import Foundation
import KuraTestSupport
import Testing

/// The Swift samples of the README and the docs are compiled: each ```swift block of the pages is
/// in Examples/ReadmeExample, which runs and prints what the samples say it prints.
@Suite struct ReadmeExampleTests {
    static let exampleFolder = Fixtures.packageRoot.appendingPathComponent("Examples/ReadmeExample")

    /// The pages whose Swift samples the example holds. The migration page comes first, so the
    /// first block is the migration sample the check of a changed line below edits.
    static let pages = ["docs/migrations.md", "README.md", "docs/swift.md", "docs/remote.md"]

    /// The pages' text, one after another.
    static func pagesText() throws -> String {
        try pages.map { try String(contentsOf: Fixtures.packageRoot.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    /// The lines of `text` without their indentation or trailing spaces.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The contents of every ```swift block of `markdown`, in order.
    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil {
                if trimmed == "```swift" { current = [] }
            } else if trimmed.hasPrefix("```") {
                blocks.append((current ?? []).joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether `block`'s lines appear one after another in `lines`.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, block.count <= lines.count else { return block.isEmpty }
        return (0...(lines.count - block.count)).contains { Array(lines[$0..<($0 + block.count)]) == block }
    }

    /// Whether a Swift block is a package manifest, which the example cannot hold.
    static func isManifest(_ block: String) -> Bool { block.hasPrefix("// swift-tools-version:") }

    @Test func everySwiftBlockOfTheReadmeIsInTheExample() throws {
        let blocks = Self.swiftBlocks(in: try Self.pagesText()).filter { !Self.isManifest($0) }
        #expect(blocks.count >= 2)  // the library's sample and the migration's
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.exampleFolder.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(sources.contains("main.swift"))
        let files = try sources.map {
            Self.normalized(try String(contentsOf: Self.exampleFolder.appendingPathComponent($0), encoding: .utf8))
        }
        for block in blocks {
            let lines = Self.normalized(block)
            #expect(files.contains { Self.contains($0, lines) }, "a Swift block of the docs is not in Examples/ReadmeExample:\n\(block)")
        }
        // The comparison sees a changed line.
        let edited = Self.normalized(blocks[0].replacingOccurrences(of: "oldVersion < 3", with: "oldVersion < 2"))
        #expect(!files.contains { Self.contains($0, edited) })
    }

    /// No page of the docs holds a Swift sample the test above leaves out.
    @Test func everyPageWithSwiftSamplesIsChecked() throws {
        let docs = Fixtures.packageRoot.appendingPathComponent("docs")
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            let markdown = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            if !Self.swiftBlocks(in: markdown).isEmpty {
                #expect(Self.pages.contains("docs/\(name)"), "docs/\(name) has Swift samples no test checks")
            }
        }
    }

    /// The README's `Package.swift` is a manifest SwiftPM reads, depending on the library this
    /// package declares.
    @Test func theReadmeManifestDependsOnTheKuraLibrary() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let manifests = Self.swiftBlocks(in: readme).filter(Self.isManifest)
        #expect(manifests.count == 1)
        let manifest = try #require(manifests.first)
        let folder = try Fixtures.temporaryDirectory()
        try manifest.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let sources = folder.appendingPathComponent("Sources/MyApp")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "import Kura\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        // dump-package evaluates the manifest without fetching its dependencies.
        let dumped = try Fixtures.run("/usr/bin/env", ["swift", "package", "--package-path", folder.path, "dump-package"])
        #expect(dumped.status == 0, "\(dumped.stderr)")
        let package = try #require(try JSONSerialization.jsonObject(with: Data(dumped.stdout.utf8)) as? [String: Any])
        let dependencies = package["dependencies"] as? [[String: Any]] ?? []
        let remote = (dependencies.first?["sourceControl"] as? [[String: Any]])?.first
        #expect((remote?["identity"] as? String) == "kura")
        let targets = package["targets"] as? [[String: Any]] ?? []
        let uses = (targets.first?["dependencies"] as? [[String: Any]])?.first?["product"] as? [Any]
        #expect(uses?.first as? String == "Kura")
        #expect(uses?.dropFirst().first as? String == "kura")
        // The product it names is the library this package declares.
        let ours = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(ours.contains(#".library(name: "Kura", targets: ["Kura"])"#))
    }

    @Test func theReadmeExampleRunsAndPrintsThePeopleTheirCycleAndTheSchema() throws {
        let folder = try Fixtures.temporaryDirectory()
        let run = try Fixtures.run(Fixtures.executable("ReadmeExample"), [folder.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == """
            Alice likes Bob and walks ["Rex"]
            Bob likes Alice and walks ["Rex"]
            true
            Rex is walked by ["Alice", "Bob"]
            Fido is walked by []
            1 Fido
            schemaVersion: 0
            types:
              Person:
                primaryKey: id
                properties:
                  id: { type: "int", autoIncrement: true }
                  name: string
                  dogs: list<Dog>
                  address: Address?
                  bestFriend: Person?
              Dog:
                properties:
                  name: string
                  age: int
                  owners: { linkingObjects: Person.dogs }
              Address:
                embedded: true
                properties:
                  city: string?
            ["Rex"] ["Alice"]
            ["Rex", "Fido"]
            dogs: ["Fido", "Rex"]
            dogs: ["Bella", "Fido", "Rex"] deleted: [] inserted: [0] modified: []
            dogs: ["Fido", "Rex"] deleted: [0] inserted: [] modified: []
            migrated: "Alice"
            migrated: "Bob"
            migrated: "Rex" "3 years"
            migrated: "Fido" "2 years"

            """)
        let schema = try Fixtures.run(Fixtures.executable("kura"), ["schema", folder.appendingPathComponent("app.realm").path])
        #expect(schema.stdout.hasPrefix("schemaVersion: 3\ntypes:\n  Person:\n    primaryKey: id\n"))
        #expect(schema.stdout.contains("      fullName: string\n"))
        #expect(schema.stdout.contains("      age: string\n      owners: { linkingObjects: Person.dogs }\n"))
    }
}
