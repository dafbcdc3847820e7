import Foundation
// @testable for the internal parse tree, lexer and sort keys.
@testable import Kura
import Testing

/// The predicate grammar on its own: tokens, literals, precedence and the trees it builds.
@Suite struct PredicateParserTests {
    func parse(_ text: String) throws -> ParsedPredicate { try PredicateParser.parse(text) }

    /// The comparison `text` parses to, or a recorded issue.
    func comparison(_ text: String) throws -> PredicateComparison {
        guard case .comparison(let comparison) = try parse(text) else {
            Issue.record("\(text) is not a single comparison")
            throw KuraError.query(.syntax, "not a comparison")
        }
        return comparison
    }

    func literal(_ text: String) throws -> PredicateLiteral.Value {
        guard case .literal(let literal) = try comparison("x == \(text)").right else { throw KuraError.query(.syntax, "no literal") }
        return literal.value
    }

    /// A compact rendering of a tree: `&(a, |(b, c))`, `!x`, comparisons by key path.
    func shape(_ predicate: ParsedPredicate) -> String {
        switch predicate {
        case .constant(let value): "\(value)"
        case .and(let terms): "&(" + terms.map(shape).joined(separator: ", ") + ")"
        case .or(let terms): "|(" + terms.map(shape).joined(separator: ", ") + ")"
        case .not(let inner): "!" + shape(inner)
        case .comparison(let comparison): comparison.left.keyPath?.text ?? "?"
        }
    }

    @Test func precedenceIsNotThenAndThenOrAndChainsStayFlat() throws {
        #expect(shape(try parse("a == 1 OR b == 1 AND c == 1")) == "|(a, &(b, c))")
        #expect(shape(try parse("(a == 1 OR b == 1) AND c == 1")) == "&(|(a, b), c)")
        #expect(shape(try parse("NOT a == 1 AND b == 1")) == "&(!a, b)")
        #expect(shape(try parse("!(a == 1 || b == 1) && c == 1 && d == 1 && e == 1")) == "&(!|(a, b), c, d, e)")
        #expect(shape(try parse("((((a == 1))))")) == "a")
        #expect(shape(try parse("TRUEPREDICATE or falsepredicate")) == "|(true, false)")
    }

    @Test func operatorsModifiersAndQuantifiers() throws {
        let spelled: KeyValuePairs<String, ComparisonOperator> = [
            "==": .equal, "=": .equal, "!=": .notEqual, "<>": .notEqual, "<": .less, "<=": .lessOrEqual, "=<": .lessOrEqual,
            ">": .greater, ">=": .greaterOrEqual, "=>": .greaterOrEqual, "beginsWith": .beginsWith, "CONTAINS": .contains,
            "endswith": .endsWith, "Like": .like,
        ]
        for (text, op) in spelled {
            #expect(try comparison("x \(text) 1").op == op, "\(text)")
        }
        let folded = try comparison("name BEGINSWITH[c] 'a'")
        #expect(folded.caseInsensitive && folded.op == .beginsWith && folded.column == 6)
        #expect(try comparison("name ==[d] 'e'").options == StringOptions(diacriticInsensitive: true))
        #expect(try comparison("name CONTAINS[cd] 'e'").options == StringOptions(caseInsensitive: true, diacriticInsensitive: true))
        #expect(try comparison("name BEGINSWITH 'a'").caseInsensitive == false)
        let all = try comparison("all dogs.age > 1")
        #expect(all.quantifier == PredicateQuantifier(kind: .all, word: "ALL", column: 1))
        #expect(all.left.keyPath?.text == "dogs.age")
        // A property may be named like a quantifier when no key path follows it.
        #expect(try comparison("any == 1").quantifier == nil)
        let swapped = try comparison("3 < age")
        #expect(swapped.op == .greater && swapped.left.keyPath?.text == "age")
        let contained = try comparison("'Oslo' IN citiesVisited")
        #expect(contained.op == .equal && contained.quantifier?.kind == .any && contained.quantifier?.word == "IN")
        let counted = try comparison("dogs.@count >= 2")
        #expect(counted.left.keyPath?.components.map(\.isAggregate) == [false, true])
        guard case .list(let items, _) = try comparison("age IN {1, -2, 3.5e2}").right else {
            Issue.record("IN without a list")
            return
        }
        #expect(items.map(\.value) == [.number("1"), .number("-2"), .number("3.5e2")])
    }

    @Test func literalsOfEveryKind() throws {
        #expect(try literal("'it\\'s'") == .string("it's"))
        #expect(try literal("\"tab\\there \\u00e9\"") == .string("tab\there é"))
        #expect(try literal("TRUE") == .bool(true))
        #expect(try literal("false") == .bool(false))
        #expect(try literal("nil") == .null)
        #expect(try literal("NULL") == .null)
        #expect(try literal("-12") == .number("-12"))
        #expect(try literal("oid(507f1f77bcf86cd799439011)") == .objectId(try #require(ObjectId(hex: "507f1f77bcf86cd799439011"))))
        let uuid = try #require(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        #expect(try literal("uuid(6f9619ff-8b86-d011-b42d-00c04fc964ff)") == .uuid(uuid))
        // Timestamps: Realm's two forms and unquoted ISO-8601.
        let newYear: Int64 = 1_704_067_200_000
        #expect(try literal("T1704067200:0") == .date(newYear))
        #expect(try literal("T1704067200:500000000") == .date(newYear + 500))
        #expect(try literal("2024-01-01@00:00:00") == .date(newYear))
        #expect(try literal("2024-1-1@0:0:0:250000000") == .date(newYear + 250))
        #expect(try literal("2024-01-01T00:00:00:250000000") == .date(newYear + 250))
        #expect(try literal("2024-01-01T00:00:00") == .date(newYear))
        #expect(try literal("2024-01-01T00:00:00Z") == .date(newYear))
        #expect(try literal("T2024-01-01T00:00:00Z") == .date(newYear))
        // A name starting with T is still a name.
        #expect(try comparison("T2 == 1").left.keyPath?.text == "T2")
    }

    @Test func syntaxErrorsNameTheirColumn() throws {
        let cases: KeyValuePairs<String, String> = [
            "x == 'a\\q'": "where: column 8: error: unknown escape '\\q' in a string",
            "x == '\\u12'": "where: column 7: error: '\\u' needs four hexadecimal digits of a Unicode scalar",
            "x == 2024-13-01@00:00:00": "where: column 6: error: '2024-13-01@00:00:00' is not a date: write YYYY-MM-DD@HH:MM:SS or an ISO-8601 date-time",
            "x == uuid(nope)": "where: column 6: error: uuid(nope) is not a UUID",
            "x BEGINSWITH[q] 'a'": "where: column 13: error: unknown modifier [q]: write [c], [d] or [cd]",
            "x == 1 AND OR y == 2": "where: column 12: error: expected a key path, found 'OR'",
            "'a' BEGINSWITH x": "where: column 5: error: a value cannot come before BEGINSWITH: write the key path first",
            "x IN 3": "where: column 6: error: IN needs a list of values in braces, such as {1, 2}, or a list, set or map on its right",
            "x BETWEEN 3": "where: column 11: error: BETWEEN needs two values in braces, such as {1, 5}",
            "1 == 2": "where: column 3: error: both sides of == are values: compare a key path with a value, or two key paths",
            "age > 1 SORT(name) LIMIT(x)": "where: column 26: error: expected a count of zero or more in LIMIT( ), found 'x'",
            "SUBQUERY(dogs, d, $d.age > 1).@count > 0": "where: column 16: error: expected a variable such as $x, found 'd'",
            "SUBQUERY(dogs, $d, $d.age > 1) > 0": "where: column 32: error: a SUBQUERY is counted: write SUBQUERY(…).@count",
            "x IN {1 2}": "where: column 9: error: expected ',' or '}', found number 2",
            "x. == 1": "where: column 4: error: expected a property name after '.', found '=='",
            "@count > 1": "where: column 1: error: expected a key path, found '@count'",
            "x == 1 &": "where: column 8: error: unexpected character '&'",
        ]
        for (text, message) in cases {
            do {
                _ = try PredicateParser.parseQuery(text)
                Issue.record("\(text) parsed")
            } catch {
                #expect(error.description == message, "\(text)")
            }
        }
    }

    @Test func sortKeysParseWithDirections() throws {
        let keys = try SortKey.parse("name, owner.age DESC ,  id ascending")
        #expect(keys.map(\.keyPath.text) == ["name", "owner.age", "id"])
        #expect(keys.map(\.ascending) == [true, false, true])
        #expect(throws: KuraError.query(.syntax, "the sort order is empty", in: .sort, column: 1)) { try SortKey.parse("  ") }
        #expect(throws: KuraError.query(.syntax, "expected a key path, found the end of the sort order", in: .sort, column: 7)) {
            try SortKey.parse("name, ")
        }
    }
}
