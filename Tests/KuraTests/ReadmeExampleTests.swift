import Foundation
import Testing

/// The README's Swift samples are compiled: each ```swift block of README.md is in
/// Examples/ReadmeExample, which runs and prints what the samples say it prints.
@Suite struct ReadmeExampleTests {
    static let exampleFolder = Fixtures.packageRoot.appendingPathComponent("Examples/ReadmeExample")

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

    @Test func everySwiftBlockOfTheReadmeIsInTheExample() throws {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: readme)
        #expect(blocks.count >= 2)  // the library's sample and the migration's
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.exampleFolder.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(sources.contains("main.swift"))
        let files = try sources.map {
            Self.normalized(try String(contentsOf: Self.exampleFolder.appendingPathComponent($0), encoding: .utf8))
        }
        for block in blocks {
            let lines = Self.normalized(block)
            #expect(files.contains { Self.contains($0, lines) }, "README.md's Swift block is not in Examples/ReadmeExample:\n\(block)")
        }
        // The comparison sees a changed line.
        let edited = Self.normalized(blocks[0].replacingOccurrences(of: "oldVersion < 3", with: "oldVersion < 2"))
        #expect(!files.contains { Self.contains($0, edited) })
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
