import Foundation
import KuraTestSupport
import Testing

/// The DocC catalog's Swift samples are compiled: each ```swift block of Sources/Kura/Kura.docc is in
/// Examples/DocsExample (or, for the actor, Examples/ActorExample), which runs every article's
/// samples and prints what the articles say they print.
@Suite struct DocsExampleTests {
    static let catalog = Fixtures.packageRoot.appendingPathComponent("Sources/Kura/Kura.docc")
    static let exampleFolders = ["Examples/DocsExample", "Examples/ActorExample"]

    /// Every article of the catalog, by name, with its text.
    static func articles() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted().map {
            (String($0.dropLast(3)), try String(contentsOf: catalog.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// The lines of every Swift file of the example targets, normalized.
    static func exampleFiles() throws -> [[String]] {
        try exampleFolders.flatMap { folder in
            let url = Fixtures.packageRoot.appendingPathComponent(folder)
            return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }.sorted().map {
                ReadmeExampleTests.normalized(try String(contentsOf: url.appendingPathComponent($0), encoding: .utf8))
            }
        }
    }

    /// The contents of the fenced blocks of `markdown` in `language`, in order.
    static func blocks(_ language: String, in markdown: String) -> [String] {
        ReadmeExampleTests.swiftBlocks(in: markdown.replacingOccurrences(of: "```swift", with: "```swift-sample")
            .replacingOccurrences(of: "```\(language)", with: "```swift"))
    }

    @Test func everySwiftBlockOfTheCatalogIsInAnExample() throws {
        let articles = try Self.articles()
        #expect(articles.map(\.name) == [
            "Concurrency", "DocumentsAndTheStrictRules", "GettingStarted", "ImportExportAndCopy", "Kura", "Migrations",
            "ModelsAndSchema", "ObservingChanges", "Queries", "ServedRealms",
        ])
        let files = try Self.exampleFiles()
        var count = 0
        for article in articles {
            for block in ReadmeExampleTests.swiftBlocks(in: article.text) {
                count += 1
                let lines = ReadmeExampleTests.normalized(block)
                #expect(files.contains { ReadmeExampleTests.contains($0, lines) }, "\(article.name).md's Swift block is not in an example:\n\(block)")
            }
        }
        #expect(count >= 20)
        // The comparison sees a changed line.
        let edited = ReadmeExampleTests.normalized("let older = try dogs.filter(\"age >= %@\", 4).sorted(byKeyPath: \"name\")")
        #expect(!files.contains { ReadmeExampleTests.contains($0, edited) })
    }

    /// The example's output, split by the `# Article` line it prints before each article's samples.
    static func sections(_ output: String) -> [String: String] {
        var sections: [String: String] = [:]
        var current = ""
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# ") { current = String(line.dropFirst(2)); continue }
            sections[current, default: ""] += line + "\n"
        }
        return sections
    }

    @Test func theSamplesRunAndPrintWhatTheArticlesShow() throws {
        let folder = try Fixtures.temporaryDirectory()
        let run = try Fixtures.run(Fixtures.executable("DocsExample"), [folder.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == Self.expectedOutput)
        // The output an article shows in a text or YAML block is what its samples printed.
        let sections = Self.sections(run.stdout)
        var shown = 0
        for article in try Self.articles() {
            for block in Self.blocks("text", in: article.text) + Self.blocks("yaml", in: article.text) {
                shown += 1
                #expect(sections[article.name]?.contains(block + "\n") == true, "\(article.name).md shows output its samples do not print:\n\(block)")
            }
        }
        #expect(shown == 3)
    }

    static let expectedOutput = """
        # Kura
        0
        # GettingStarted
        2
        Fido 1 ["Ana"]
        Rex 3 ["Ana"]
        1
        ["Rex"]
        # ModelsAndSchema
        ["Person", "Dog", "Address"]
        schemaVersion: 1
        types:
          Toy:
            primaryKey: id
            properties:
              id: { type: "int", autoIncrement: true }
              name: string
              price: { type: "double", default: 0.0 }
              tags: set<string>
        # DocumentsAndTheStrictRules
        Rex Lisbon
        bo.json:1:48: error: $[0].dogs[0].age: expected int, found string "three"
        [
        {"name":"Ana","dogs":[{"name":"Rex","age":3}],"address":{"city":"Lisbon"}}
        ]

        # ImportExportAndCopy
        2 3
        {"name":"Max","age":5}
        {"name":"Rex","age":3}
        2 3
        1 3
        # Queries
        2 ["Max", "Rex"]
        ["Rex", "Fido"]
        Max Rex Fido
        ["Bo"]
        ["Ana"]
        ["Bo"]
        ["Ana", "Bo"]
        ["Rex"]
        age >= $0 AND owners.@count > $1
        ["Max", "Rex", "Fido"]
        "Fido" 1
        # Migrations
        schema version 0 -> 1
        Person (1 object)
          + fullName: added, no default for 1 existing object: needs one
          - name: removed, its values are dropped
        Dog (1 object)
          ~ age: int -> string, 1 stored value not converted (a Swift migration block converts them)
        "Ana" "3 years"
        # Concurrency
        4
        Dog 4
        4
        # ObservingChanges
        initial: ["Fido", "Rex"]
        update: ["Bella", "Fido", "Rex"] deleted: [] inserted: [0] modified: []
        update: ["Fido", "Rex"] deleted: [0] inserted: [] modified: []
        deleted: [] inserted: [] modified: [1] Rex
        Ana Maria name: "Ana" -> "Ana Maria"
        deleted
        object Dog#2 has been deleted or was never stored
        1 Dog inserted: [4] deleted: []
        2 Dog inserted: [] deleted: [4]

        """
}
