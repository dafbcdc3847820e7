import Foundation
import Kura
import Testing

/// How the mapper expands YAML aliases: by YAML's rules, within a budget.
@Suite struct AliasExpansionTests {
    func map(_ yaml: String, options: MappingOptions = MappingOptions()) throws -> Result<Value, MappingErrors> {
        let node = try #require(try YAMLReader(text: yaml, file: "a.yaml").next())
        let mapper = DocumentMapper(schema: try Fixtures.samplesSchema(), options: options, file: "a.yaml")
        return Result { () throws(MappingErrors) in try mapper.map(node, as: "Dog").value }
    }

    func field(_ name: String, of result: Result<Value, MappingErrors>) -> Value? {
        guard case .success(.map(let fields)) = result else { return nil }
        return fields[name]
    }

    @Test func anAliasInsideARedefinedAnchorNamesTheEarlierNode() throws {
        // `*x` inside the second `&x` is the first: registering an anchor before its node was
        // complete made it name its own list, a cycle the depth limit stopped only after 2^256 steps.
        let result = try map("name: a\nage: 1\ncompanion: {a: &x 1, b: &x [*x, *x]}\n")
        #expect(field("companion", of: result) == .map(["a": .int(1), "b": .list([.int(1), .int(1)])]))
        // An alias after the redefinition still sees the inner aliases by name (a known limit of
        // DocumentValue.alias): the cycle now ends in depth errors, after work the budget bounds.
        let cycle = try map("name: a\nage: 1\ncompanion: {a: &x 1, b: &x [*x, *x], c: *x}\n")
        guard case .failure(let errors) = cycle else { Issue.record("mapped a cycle"); return }
        #expect(errors.errors.first?.code == .nestingTooDeep)
    }

    @Test func anchorsNestedUnderAnIgnoredKeyCanBeAliased() throws {
        let result = try map("name: a\nage: 1\njunk: {deeper: [&s hello]}\ncolor: *s\n")
        #expect(field("color", of: result) == .string("hello"))
    }

    @Test func expansionBeyondTheBudgetIsOneError() throws {
        let yaml = "name: a\nage: 1\ncompanion:\n  a: &a [x, x, x]\n  b: &b [*a, *a, *a]\n  c: &c [*b, *b, *b]\n"
        #expect(field("companion", of: try map(yaml, options: MappingOptions(maxAliasExpansion: 60))) != nil)
        let result = try map(yaml, options: MappingOptions(maxAliasExpansion: 59))
        let expected = MappingError(
            .aliasExpansion, file: "a.yaml", position: TextPosition(line: 4, column: 6, offset: 31), path: "$.companion.c[2][2]",
            "YAML aliases expand to more than 59 values")
        #expect(throws: MappingErrors(errors: [expected])) { try result.get() }
    }

    @Test func aKeyAliasingACollectionIsRefusedBeforeYamsHashesIt() throws {
        let refused = "a: &a [1, 2]\nb: {? *a : 1}\n"
        #expect(throws: DocumentError(.syntax, "YAML mapping keys must be scalars", file: "k.yaml", position: TextPosition(line: 2, column: 7, offset: 19))) {
            try YAMLReader(text: refused, file: "k.yaml").next()
        }
        let scalarKey = try YAMLReader(text: "a: &a k\n*a : 1\n", file: "k.yaml").next()
        guard case .object(let members)? = scalarKey?.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "k"])
    }

    @Test func positionsCountOnlyLineFeedsWhateverLibyamlCounts() throws {
        // libyaml starts lines at CR and U+2028 too; the error is still at the file's line 2.
        #expect(throws: DocumentError(.syntax, "invalid YAML: did not find expected ',' or ']' while parsing a flow sequence", file: "c.yaml",
            position: TextPosition(line: 2, column: 2, offset: 18))) {
            try YAMLReader(text: "a: \"x\u{2028}y\"\rb: [1\nc: [1 2", file: "c.yaml").next()
        }
    }
}
