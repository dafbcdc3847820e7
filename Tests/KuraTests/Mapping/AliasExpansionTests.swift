import Foundation
import Kura
import KuraTestSupport
import Testing

/// How the mapper expands YAML aliases: by YAML's rules, within a budget.
@Suite struct AliasExpansionTests {
    func map(_ yaml: String, options: MappingOptions = MappingOptions()) throws -> Result<Value, KuraError> {
        let node = try #require(try YAMLReader(text: yaml, file: "a.yaml").next())
        let mapper = DocumentMapper(schema: try Fixtures.samplesSchema(), options: options, file: "a.yaml")
        return Result { () throws(KuraError) in try mapper.map(node, as: "Dog").value }
    }

    func field(_ name: String, of result: Result<Value, KuraError>) -> Value? {
        guard case .success(.map(let fields)) = result else { return nil }
        return fields[name]
    }

    @Test func anAliasNamesTheLatestAnchorOfItsNameWhichMayHoldIt() throws {
        // As YAML defines it, an anchor is defined where its node starts: `*x` inside the second
        // `&x` names that list, which would hold itself. A mixed value cannot: refused at once,
        // each alias where it stands (expanding it ran into the depth limit after 2^256 steps).
        let cycle = try map("name: a\nage: 1\ncompanion: {a: &x 1, b: &x [*x, *x]}\n")
        let refusal = "YAML alias '*x' is inside the node it names: only a link to an object can make such a cycle"
        #expect(throws: KuraError.documentErrors([
            KuraError.mapping(.invalidValue, file: "a.yaml", position: TextPosition(line: 3, column: 29, offset: 43), path: "$.companion.b[0]", refusal),
            KuraError.mapping(.invalidValue, file: "a.yaml", position: TextPosition(line: 3, column: 33, offset: 47), path: "$.companion.b[1]", refusal),
        ])) { try cycle.get() }
        // A later definition inside the node is the one named after it; after the node, the node.
        let inner = try map("name: a\nage: 1\ncompanion: {a: &x [&x 1, *x], b: *x}\n")
        #expect(field("companion", of: inner) == .map(["a": .list([.int(1), .int(1)]), "b": .int(1)]))
        let later = try map("name: a\nage: 1\ncompanion: {a: &x 1, b: &x [2, 3], c: *x}\n")
        #expect(field("companion", of: later) == .map(["a": .int(1), "b": .list([.int(2), .int(3)]), "c": .list([.int(2), .int(3)])]))
    }

    @Test func anchorsNestedUnderAnIgnoredKeyCanBeAliased() throws {
        let result = try map("name: a\nage: 1\njunk: {deeper: [&s hello]}\ncolor: *s\n")
        #expect(field("color", of: result) == .string("hello"))
    }

    @Test func expansionBeyondTheBudgetIsOneError() throws {
        let yaml = "name: a\nage: 1\ncompanion:\n  a: &a [x, x, x]\n  b: &b [*a, *a, *a]\n  c: &c [*b, *b, *b]\n"
        #expect(field("companion", of: try map(yaml, options: MappingOptions(maxAliasExpansion: 60))) != nil)
        let result = try map(yaml, options: MappingOptions(maxAliasExpansion: 59))
        // At the alias the document holds there (the third `*b` of `c`), naming the one inside it
        // whose value went over the budget (the third `*a` of `b`).
        let expected = KuraError.mapping(
            .aliasExpansion, file: "a.yaml", position: TextPosition(line: 6, column: 18, offset: 82), path: "$.companion.c[2][2]",
            "YAML aliases expand to more than 59 values (through alias *b, from 5:18)")
        #expect(throws: KuraError.documentErrors([expected])) { try result.get() }
    }

    @Test func aKeyAliasingACollectionIsRefusedBeforeYamsHashesIt() throws {
        let refused = "a: &a [1, 2]\nb: {? *a : 1}\n"
        #expect(throws: KuraError.document(.syntax, "YAML mapping keys must be scalars", file: "k.yaml", position: TextPosition(line: 2, column: 7, offset: 19))) {
            try YAMLReader(text: refused, file: "k.yaml").next()
        }
        let scalarKey = try YAMLReader(text: "a: &a k\n*a : 1\n", file: "k.yaml").next()
        guard case .object(let members)? = scalarKey?.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "k"])
    }

    @Test func positionsCountOnlyLineFeedsWhateverLibyamlCounts() throws {
        // libyaml starts lines at CR and U+2028 too; the error is still at the file's line 2.
        #expect(throws: KuraError.document(.syntax, "invalid YAML: did not find expected ',' or ']' while parsing a flow sequence", file: "c.yaml",
            position: TextPosition(line: 2, column: 2, offset: 18))) {
            try YAMLReader(text: "a: \"x\u{2028}y\"\rb: [1\nc: [1 2", file: "c.yaml").next()
        }
    }
}
