import Foundation
import KuraTestSupport
import Testing

// @testable for the internal `chunkSize:` initializers that split tokens across chunks.
@testable import Kura

// MARK: - Helpers

/// Reads every document of `bytes`.
private func readAll(
    _ bytes: [UInt8], layout: JSONLayout = .document, chunkSize: Int = 1 << 20, maxDepth: Int = 512
) throws(KuraError) -> [DocumentNode] {
    let reader = JSONReader(bytes: bytes, file: "<input>", layout: layout, maxDepth: maxDepth, chunkSize: chunkSize)
    var nodes: [DocumentNode] = []
    while let node = try reader.next() { nodes.append(node) }
    return nodes
}

private func readAll(
    _ text: String, layout: JSONLayout = .document, chunkSize: Int = 1 << 20, maxDepth: Int = 512
) throws(KuraError) -> [DocumentNode] {
    try readAll(Array(text.utf8), layout: layout, chunkSize: chunkSize, maxDepth: maxDepth)
}

/// The error reading `bytes` throws, or nil if it reads fine.
private func readError(
    _ bytes: [UInt8], layout: JSONLayout = .document, chunkSize: Int = 1 << 20, maxDepth: Int = 512
) -> KuraError? {
    do {
        _ = try readAll(bytes, layout: layout, chunkSize: chunkSize, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

/// A value without positions, to state expected trees briefly.
private indirect enum J: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case num(String)
    case str(String)
    case arr([J])
    case obj([Pair])

    struct Pair: Equatable, Sendable {
        var key: String
        var value: J
    }

    init(_ node: DocumentNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let n): self = .num(n.text)
        case .string(let s): self = .str(s)
        case .array(let items): self = .arr(items.map(J.init))
        case .object(let members): self = .obj(members.map { Pair(key: $0.key, value: J($0.value)) })
        case .timestamp, .binary, .anchored, .alias: self = .str("YAML-only \(node.value.kindName)")  // JSON never yields these
        }
    }

    static func o(_ pairs: (String, J)...) -> J { .obj(pairs.map { Pair(key: $0.0, value: $0.1) }) }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .num(let t): t
        case .str(let s): s.debugDescription
        case .arr(let items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case .obj(let pairs): "{" + pairs.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

private func pos(_ line: Int, _ column: Int, _ offset: Int) -> TextPosition {
    TextPosition(line: line, column: column, offset: offset)
}

// MARK: - Valid input

private let validCorpus: [(String, J)] = [
    ("null", .null),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("0", .num("0")),
    ("-0", .num("-0")),
    ("\"\"", .str("")),
    ("\"x\"", .str("x")),
    ("[]", .arr([])),
    ("{}", .obj([])),
    ("[ ]", .arr([])),
    ("{ \n }", .obj([])),
    (" \t\r\n[1 , 2]\r\n\t ", .arr([.num("1"), .num("2")])),
    ("[1,[2,[3,[]]],{}]", .arr([.num("1"), .arr([.num("2"), .arr([.num("3"), .arr([])])]), .obj([])])),
    ("{\"a\":{\"b\":[1,{\"c\":null}]},\"d\":true}", .o(("a", .o(("b", .arr([.num("1"), .o(("c", .null))])))), ("d", .bool(true)))),
    ("{\"a\":1,\"a\":2,\"\":3}", .o(("a", .num("1")), ("a", .num("2")), ("", .num("3")))),
    ("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", .str("\"\\/\u{8}\u{C}\n\r\t")),
    ("\"\\u0041\\u00e9\\u20AC\\u0000\"", .str("Aé€\u{0}")),
    ("\"\\ud83d\\ude00 \\uD834\\uDD1E\"", .str("😀 𝄞")),
    ("\"\\uDBFF\\uDFFF\"", .str("\u{10FFFF}")),
    ("\"é日本😀\u{7F}\"", .str("é日本😀\u{7F}")),
    ("\"a\\\\u0041b\"", .str("a\\u0041b")),
    ("[\"\\\"\", \"\\\\\", \"x\\ny\"]", .arr([.str("\""), .str("\\"), .str("x\ny")])),
    ("{\"k\\u00e9y\": \"v\"}", .o(("kéy", .str("v")))),
    ("[-1.5e-3, 1E+5, 1e5, 0.25, 10]", .arr([.num("-1.5e-3"), .num("1E+5"), .num("1e5"), .num("0.25"), .num("10")])),
]

@Test func parsesValidCorpus() throws {
    for (text, expected) in validCorpus {
        let nodes = try readAll(text)
        #expect(nodes.map(J.init) == [expected], "\(text.debugDescription)")
    }
}

@Test func topLevelScalarsAreExactNodes() throws {
    #expect(try readAll("null") == [DocumentNode(value: .null, position: pos(1, 1, 0))])
    #expect(try readAll("  true") == [DocumentNode(value: .bool(true), position: pos(1, 3, 2))])
    #expect(try readAll("\n\"é\"") == [DocumentNode(value: .string("é"), position: pos(2, 1, 1))])
    let one = NumberLiteral(text: "1", isInteger: true, int64Value: 1, doubleValue: 1)
    #expect(try readAll("[1]") == [DocumentNode(value: .array([DocumentNode(value: .number(one), position: pos(1, 2, 1))]), position: pos(1, 1, 0))])
}

@Test func nodesAndKeysKnowTheirPositions() throws {
    // Columns count scalars: "é" is two bytes but one column.
    let text = "{\"a\": [1, \"é\"],\n \"b\": null}"
    let one = NumberLiteral(text: "1", isInteger: true, int64Value: 1, doubleValue: 1)
    let expected = DocumentNode(
        value: .object([
            DocumentMember(
                key: "a", keyPosition: pos(1, 2, 1),
                value: DocumentNode(
                    value: .array([
                        DocumentNode(value: .number(one), position: pos(1, 8, 7)),
                        DocumentNode(value: .string("é"), position: pos(1, 11, 10)),
                    ]), position: pos(1, 7, 6))),
            DocumentMember(key: "b", keyPosition: pos(2, 2, 18), value: DocumentNode(value: .null, position: pos(2, 7, 23))),
        ]), position: pos(1, 1, 0))
    #expect(try readAll(text) == [expected])
    // After a string with a 4-byte character, later tokens on the line are still in scalar columns.
    let nodes = try readAll("[\"😀\", 2]")
    guard case .array(let items)? = nodes.first?.value else {
        Issue.record("not an array")
        return
    }
    #expect(items.map(\.position) == [pos(1, 2, 1), pos(1, 7, 9)])
}

@Test func byteOrderMarkIsSkippedAtTheStartOnly() throws {
    let nodes = try readAll([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
    #expect(nodes.map(J.init) == [.arr([.num("1")])])
    #expect(nodes.first?.position == pos(1, 1, 3))
    #expect(try readAll([0xEF, 0xBB, 0xBF], layout: .lines).isEmpty)
    let inside = readError(Array("[\u{FEFF}1]".utf8))
    #expect(inside?.message == "unexpected character U+FEFF in array, expected a value")
    #expect(inside?.position == pos(1, 2, 1))
}

private struct NumberCase: Sendable, CustomStringConvertible {
    var text: String
    var isInteger: Bool
    var int64: Int64?
    var double: Double
    var description: String { text }
}

private let numberCases: [NumberCase] = [
    NumberCase(text: "0", isInteger: true, int64: 0, double: 0),
    NumberCase(text: "-0", isInteger: true, int64: 0, double: -0.0),
    NumberCase(text: "-0.0", isInteger: false, int64: nil, double: -0.0),
    NumberCase(text: "1e5", isInteger: false, int64: nil, double: 100_000),
    NumberCase(text: "1E+5", isInteger: false, int64: nil, double: 100_000),
    NumberCase(text: "-1.5e-3", isInteger: false, int64: nil, double: -0.0015),
    NumberCase(text: "0.1", isInteger: false, int64: nil, double: 0.1),
    NumberCase(text: "2.5", isInteger: false, int64: nil, double: 2.5),
    NumberCase(text: "100e-2", isInteger: false, int64: nil, double: 1),
    NumberCase(text: "123.456e-2", isInteger: false, int64: nil, double: 1.23456),
    NumberCase(text: "1e400", isInteger: false, int64: nil, double: .infinity),
    NumberCase(text: "-1e-400", isInteger: false, int64: nil, double: -0.0),
    NumberCase(text: "42", isInteger: true, int64: 42, double: 42),
    NumberCase(text: "9223372036854775807", isInteger: true, int64: .max, double: 0x1p63),
    NumberCase(text: "-9223372036854775808", isInteger: true, int64: .min, double: -9_223_372_036_854_775_808),
    NumberCase(text: "9223372036854775808", isInteger: true, int64: nil, double: 9_223_372_036_854_775_808),
    NumberCase(text: "-9223372036854775809", isInteger: true, int64: nil, double: -0x1p63),
    NumberCase(text: "18446744073709551616", isInteger: true, int64: nil, double: 18_446_744_073_709_551_616),
    // Beyond 2^53 the Int64 must be exact, not rounded through Double.
    NumberCase(text: "9007199254740993", isInteger: true, int64: 9_007_199_254_740_993, double: 9_007_199_254_740_992),
    NumberCase(text: "-9007199254740993", isInteger: true, int64: -9_007_199_254_740_993, double: -9_007_199_254_740_992),
    NumberCase(text: "12345678901234567890.5e-10", isInteger: false, int64: nil, double: 1_234_567_890.123_456_789_05),
    NumberCase(text: "2.2250738585072011e-308", isInteger: false, int64: nil, double: Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),  // the largest subnormal
]

@Test(arguments: numberCases)
private func numberLiterals(_ c: NumberCase) throws {
    let nodes = try readAll(c.text)
    guard case .number(let n)? = nodes.first?.value else {
        Issue.record("not a number")
        return
    }
    #expect(n.text == c.text)
    #expect(n.isInteger == c.isInteger)
    #expect(n.int64Value == c.int64)
    #expect(n.doubleValue.bitPattern == c.double.bitPattern, "\(n.doubleValue) != \(c.double)")
}

// MARK: - Invalid input

private struct InvalidCase: Sendable, CustomStringConvertible {
    var bytes: [UInt8]
    var code: KuraError.DocumentCode
    var message: String
    var line: Int
    var column: Int
    var layout: JSONLayout = .document
    var description: String { String(decoding: bytes, as: UTF8.self).debugDescription }

    init(_ text: String, _ code: KuraError.DocumentCode, _ message: String, _ line: Int, _ column: Int, layout: JSONLayout = .document) {
        self.init(Array(text.utf8), code, message, line, column, layout: layout)
    }

    init(_ bytes: [UInt8], _ code: KuraError.DocumentCode, _ message: String, _ line: Int, _ column: Int, layout: JSONLayout = .document) {
        self.bytes = bytes
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.layout = layout
    }
}

private let q: UInt8 = 0x22

private let invalidCorpus: [InvalidCase] = [
    // Structure
    InvalidCase("[1,]", .syntax, "trailing comma in array", 1, 3),
    InvalidCase("{\"a\":1,}", .syntax, "trailing comma in object", 1, 7),
    InvalidCase("[1 2]", .syntax, "unexpected character '2' in array, expected ',' or ']'", 1, 4),
    InvalidCase("{\"a\" 1}", .syntax, "unexpected character '1' in object, expected ':'", 1, 6),
    InvalidCase("{\"a\":1 \"b\":2}", .syntax, "unexpected character '\"' in object, expected ',' or '}'", 1, 8),
    InvalidCase("{a:1}", .syntax, "unexpected character 'a' in object, expected a string key or '}'", 1, 2),
    InvalidCase("{'a':1}", .syntax, "unexpected character ''' in object, expected a string key or '}'", 1, 2),
    InvalidCase("['a']", .syntax, "unexpected character ''' in array, expected a value", 1, 2),
    InvalidCase("{\"a\":}", .syntax, "unexpected character '}' in object, expected a value", 1, 6),
    InvalidCase("[1,\n  2,\n  ]", .syntax, "trailing comma in array", 2, 4),
    InvalidCase("[[1,],2]", .syntax, "trailing comma in array", 1, 4),
    InvalidCase("[1, [], ]", .syntax, "trailing comma in array", 1, 7),
    InvalidCase("[1, [2], ]", .syntax, "trailing comma in array", 1, 8),
    InvalidCase("{\"a\": [1,\n\n]}", .syntax, "trailing comma in array", 1, 9),
    InvalidCase("{\"a\":{\"b\":1,}}", .syntax, "trailing comma in object", 1, 12),
    InvalidCase("{\"é\":1 ,\n }", .syntax, "trailing comma in object", 1, 8),
    InvalidCase("{\"a\":[],\t}", .syntax, "trailing comma in object", 1, 8),
    InvalidCase("{,}", .syntax, "unexpected character ',' in object, expected a string key or '}'", 1, 2),
    InvalidCase("[,]", .syntax, "unexpected character ',' in array, expected a value", 1, 2),
    InvalidCase("[1] ,", .syntax, "trailing comma at the end of the input", 1, 5),
    InvalidCase("{} , {}", .syntax, "comma between documents: put the documents in an array", 1, 4),
    InvalidCase("// comment\n1", .syntax, "unexpected character '/', expected a value", 1, 1),
    InvalidCase("[1 /* c */]", .syntax, "unexpected character '/' in array, expected ',' or ']'", 1, 4),
    InvalidCase("[\u{0}]", .syntax, "unexpected character U+0000 in array, expected a value", 1, 2),
    InvalidCase("[é]", .syntax, "unexpected character U+00E9 in array, expected a value", 1, 2),
    InvalidCase("{\"é\": x}", .syntax, "unexpected character 'x' in object, expected a value", 1, 7),
    InvalidCase("[1] x", .syntax, "trailing characters after the document", 1, 5),
    InvalidCase("1 2", .syntax, "trailing characters after the document", 1, 3),
    InvalidCase("{\"a\":1}}", .syntax, "trailing characters after the document", 1, 8),
    InvalidCase("\"😀\" x", .syntax, "trailing characters after the document", 1, 5),
    // Literals
    InvalidCase("NaN", .syntax, "unexpected character 'N', expected a value", 1, 1),
    InvalidCase("[Infinity]", .syntax, "unexpected character 'I' in array, expected a value", 1, 2),
    InvalidCase("tru e", .syntax, "invalid literal, expected 'true'", 1, 4),
    InvalidCase("[nulL]", .syntax, "invalid literal, expected 'null'", 1, 5),
    InvalidCase("True", .syntax, "unexpected character 'T', expected a value", 1, 1),
    // Numbers
    InvalidCase("01", .invalidNumber, "leading zeros are not allowed in numbers", 1, 1),
    InvalidCase("[-01]", .invalidNumber, "leading zeros are not allowed in numbers", 1, 3),
    InvalidCase("-", .unexpectedEnd, "unexpected end of input in number", 1, 2),
    InvalidCase("[-]", .invalidNumber, "unexpected character ']' in number, expected a digit", 1, 3),
    InvalidCase("1.", .unexpectedEnd, "unexpected end of input in number", 1, 3),
    InvalidCase("[1.]", .invalidNumber, "unexpected character ']' in number, expected a digit", 1, 4),
    InvalidCase("[1.e5]", .invalidNumber, "unexpected character 'e' in number, expected a digit", 1, 4),
    InvalidCase("[1e]", .invalidNumber, "unexpected character ']' in number, expected a digit", 1, 4),
    InvalidCase("1e+", .unexpectedEnd, "unexpected end of input in number", 1, 4),
    InvalidCase(".5", .syntax, "unexpected character '.', expected a value", 1, 1),
    InvalidCase("+1", .syntax, "unexpected character '+', expected a value", 1, 1),
    InvalidCase("-Infinity", .invalidNumber, "unexpected character 'I' in number, expected a digit", 1, 2),
    InvalidCase("[1.5.3]", .syntax, "unexpected character '.' in array, expected ',' or ']'", 1, 5),
    // Strings
    InvalidCase("\"a\nb\"", .invalidString, "unescaped control character U+000A in string", 1, 3),
    InvalidCase("[\"é\t\"]", .invalidString, "unescaped control character U+0009 in string", 1, 4),
    InvalidCase("\"a\\x\"", .invalidString, "invalid escape '\\x' in string", 1, 3),
    InvalidCase("\"\\'\"", .invalidString, "invalid escape '\\'' in string", 1, 2),
    InvalidCase("\"\\u12G4\"", .invalidString, "invalid \\u escape in string, expected 4 hex digits", 1, 2),
    InvalidCase("\"\\u12\"", .invalidString, "invalid \\u escape in string, expected 4 hex digits", 1, 2),
    InvalidCase("\"\\ud800\"", .invalidString, "lone surrogate \\ud800 in string", 1, 2),
    InvalidCase("\"\\udc00\"", .invalidString, "lone surrogate \\udc00 in string", 1, 2),
    InvalidCase("\"x\\ud800\\u0041\"", .invalidString, "lone surrogate \\ud800 in string", 1, 3),
    InvalidCase("\"\\uD800x\"", .invalidString, "lone surrogate \\ud800 in string", 1, 2),
    InvalidCase("\"\\ud800\\ud800\"", .invalidString, "lone surrogate \\ud800 in string", 1, 2),
    InvalidCase("\"\\ud800\\uzzzz\"", .invalidString, "invalid \\u escape in string, expected 4 hex digits", 1, 8),
    // UTF-8
    InvalidCase([q, 0xFF, q], .invalidUTF8, "invalid UTF-8 byte 0xff in string", 1, 2),
    InvalidCase([q, 0x80, q], .invalidUTF8, "invalid UTF-8 byte 0x80 in string", 1, 2),
    InvalidCase([q, 0xC0, 0xAF, q], .invalidUTF8, "invalid UTF-8 byte 0xc0 in string", 1, 2),  // overlong '/'
    InvalidCase([q, 0xE0, 0x80, 0xAF, q], .invalidUTF8, "invalid UTF-8 byte 0xe0 in string", 1, 2),  // overlong
    InvalidCase([q, 0xED, 0xA0, 0x80, q], .invalidUTF8, "invalid UTF-8 byte 0xed in string", 1, 2),  // U+D800
    InvalidCase([q, 0xF4, 0x90, 0x80, 0x80, q], .invalidUTF8, "invalid UTF-8 byte 0xf4 in string", 1, 2),  // > U+10FFFF
    InvalidCase([q, 0xF5, 0x80, 0x80, 0x80, q], .invalidUTF8, "invalid UTF-8 byte 0xf5 in string", 1, 2),
    InvalidCase([q, 0xC3, 0x41, q], .invalidUTF8, "invalid UTF-8 byte 0xc3 in string", 1, 2),  // cut short
    InvalidCase([q, 0xC3, 0xA9, 0xFF, q], .invalidUTF8, "invalid UTF-8 byte 0xff in string", 1, 3),
    InvalidCase([q, 0x5C, 0x6E, 0xFE, q], .invalidUTF8, "invalid UTF-8 byte 0xfe in string", 1, 4),  // after an escape
    InvalidCase([0x5B, 0xFF, 0x5D], .invalidUTF8, "invalid UTF-8 byte 0xff", 1, 2),
    InvalidCase([0x5B, 0x31, 0x5D, 0x20, 0xC3], .syntax, "trailing characters after the document", 1, 5),
    // Unexpected end
    InvalidCase("", .unexpectedEnd, "unexpected end of input, expected a value", 1, 1),
    InvalidCase(" \n ", .unexpectedEnd, "unexpected end of input, expected a value", 2, 2),
    InvalidCase("[", .unexpectedEnd, "unexpected end of input in array", 1, 2),
    InvalidCase("[1,", .unexpectedEnd, "unexpected end of input in array", 1, 4),
    InvalidCase("{", .unexpectedEnd, "unexpected end of input in object", 1, 2),
    InvalidCase("{\"a\"", .unexpectedEnd, "unexpected end of input in object", 1, 5),
    InvalidCase("{\"a\":", .unexpectedEnd, "unexpected end of input in object", 1, 6),
    InvalidCase("{\"a\":1", .unexpectedEnd, "unexpected end of input in object", 1, 7),
    InvalidCase("\"abc", .unexpectedEnd, "unexpected end of input in string", 1, 5),
    InvalidCase("\"é\\", .unexpectedEnd, "unexpected end of input in string", 1, 4),
    InvalidCase("tr", .unexpectedEnd, "unexpected end of input in literal", 1, 3),
    // Layouts
    InvalidCase("{}", .syntax, "unexpected character '{', expected '['", 1, 1, layout: .array),
    InvalidCase("", .unexpectedEnd, "unexpected end of input, expected '['", 1, 1, layout: .array),
    InvalidCase("[1,]", .syntax, "trailing comma in array", 1, 3, layout: .array),
    InvalidCase("[\n{\"a\":1},\n]\n", .syntax, "trailing comma in array", 2, 8, layout: .array),
    InvalidCase("[{\"a\":[1,]}]", .syntax, "trailing comma in array", 1, 9, layout: .array),
    InvalidCase("[{\"a\":1,}]", .syntax, "trailing comma in object", 1, 8, layout: .array),
    InvalidCase("[1],\n", .syntax, "trailing comma at the end of the input", 1, 4, layout: .array),
    InvalidCase("[1 2]", .syntax, "unexpected character '2' in array, expected ',' or ']'", 1, 4, layout: .array),
    InvalidCase("[1]]", .syntax, "trailing characters after the document", 1, 4, layout: .array),
    InvalidCase("[1,\n", .unexpectedEnd, "unexpected end of input in array", 2, 1, layout: .array),
    InvalidCase("[1][2]", .syntax, "trailing characters after the document", 1, 4, layout: .auto),
    InvalidCase("1 ]", .syntax, "unexpected character ']', expected a value", 1, 3, layout: .auto),
    InvalidCase("", .syntax, "empty input, expected a JSON value ([] holds no documents)", 1, 1, layout: .auto),
    InvalidCase([0xEF, 0xBB, 0xBF], .syntax, "empty input, expected a JSON value ([] holds no documents)", 1, 1, layout: .auto),
    InvalidCase(" \n\t\r\n", .syntax, "only white space, expected a JSON value ([] holds no documents)", 1, 1, layout: .auto),
    InvalidCase("[1,2,]", .syntax, "trailing comma in array", 1, 5, layout: .auto),
    InvalidCase("[1],", .syntax, "trailing comma at the end of the input", 1, 4, layout: .auto),
    InvalidCase("{\"a\":1},\n", .syntax, "trailing comma at the end of the input", 1, 8, layout: .auto),
    InvalidCase("{\"a\":1},\n{\"b\":2}", .syntax, "comma between documents: put the documents in an array", 1, 8, layout: .auto),
    InvalidCase(" ,1", .syntax, "unexpected character ',', expected a value", 1, 2, layout: .auto),
    InvalidCase("{\"a\":1} {\"b\":2}\n", .syntax, "unexpected character '{' after the value, expected a new line", 1, 9, layout: .lines),
    InvalidCase("1\n{\"a\":\n1}", .syntax, "line break inside a JSON Lines value", 2, 6, layout: .lines),
    InvalidCase("{\"a\":1},\n", .syntax, "trailing comma at the end of the line", 1, 8, layout: .lines),
    InvalidCase("{\"a\":1}\n[2] , \r\n{\"b\":2}", .syntax, "trailing comma at the end of the line", 2, 5, layout: .lines),
    InvalidCase("{\"a\":1},", .syntax, "trailing comma at the end of the line", 1, 8, layout: .lines),
    InvalidCase(
        "{\"a\":1}, {\"b\":2}\n", .syntax, "comma between documents: JSON Lines has one document per line, without commas", 1, 8,
        layout: .lines),
    InvalidCase("{\"a\":[1,]}\n", .syntax, "trailing comma in array", 1, 8, layout: .lines),
    InvalidCase("{\"a\":{\"b\":1,}}\n", .syntax, "trailing comma in object", 1, 12, layout: .lines),
]

@Test(arguments: invalidCorpus)
private func refusesInvalidInput(_ c: InvalidCase) {
    let error = readError(c.bytes, layout: c.layout)
    #expect(error?.code == .document(c.code))
    #expect(error?.message == c.message)
    #expect(error?.position.map { [$0.line, $0.column] } == [c.line, c.column])
}

@Test func invalidInputFailsTheSameWayAtEveryChunkSize() {
    for c in invalidCorpus {
        let whole = readError(c.bytes, layout: c.layout)
        for chunkSize in [1, 2, 3, 7] {
            #expect(readError(c.bytes, layout: c.layout, chunkSize: chunkSize) == whole, "\(c) chunk \(chunkSize)")
        }
    }
}

@Test func errorDescriptionHasFileLineAndColumn() {
    let error = readError(Array("[1,\n  2,\n  3 ?]".utf8))
    #expect(error?.description == "<input>:3:5: error: unexpected character '?' in array, expected ',' or ']'")
    #expect(error?.position?.offset == 13)
    let trailing = readError(Array("[1,\n  2,\n  ]".utf8))
    #expect(trailing?.description == "<input>:2:4: error: trailing comma in array")
    #expect(trailing?.position?.offset == 7)
    let positionless = KuraError.document(.io, "cannot open file: No such file or directory", file: "a.json")
    #expect(positionless.description == "a.json: error: cannot open file: No such file or directory")
}

@Test func errorsAreSticky() throws {
    let reader = JSONReader(bytes: Array("1 ]".utf8), layout: .auto)
    #expect(try reader.next().map(J.init) == .num("1"))
    var first: KuraError?
    do { _ = try reader.next() } catch { first = error }
    var second: KuraError?
    do { _ = try reader.next() } catch { second = error }
    #expect(first != nil)
    #expect(first == second)
}

// MARK: - Truncation and depth

/// A document with every kind of token, including multi-byte characters and escapes.
private let complexDocument = """
    {"name": "Zoë \\"Z\\" 😀", "esc": "\\u00e9\\ud83d\\ude00\\n\\/",
     "n": [0, -12.5e+3, 9223372036854775807, 1E-2, true, false, null],
     "nested": {"a": [[], {}, [{"deep": ["日本"]}]], "b": "\t"}}
    """.replacingOccurrences(of: "\t", with: "\\t")

@Test func everyTruncationIsRefusedAtTheEnd() throws {
    let bytes = Array(complexDocument.utf8)
    #expect(try readAll(bytes).count == 1)
    for chunkSize in [1 << 20, 3] {
        for length in 0..<bytes.count {
            let error = readError(Array(bytes[..<length]), chunkSize: chunkSize)
            #expect(error?.code == .document(.unexpectedEnd), "prefix \(length): \(String(describing: error))")
            #expect(error?.position?.offset == length, "prefix \(length)")
        }
    }
}

@Test func truncatedNumbersAreAcceptedOnlyWhenComplete() {
    let text = Array("-12.5e+3".utf8)
    let complete: Set<Int> = [2, 3, 5, 8]
    for length in 0...text.count {
        let error = readError(Array(text[..<length]))
        #expect((error == nil) == complete.contains(length), "prefix \(length)")
        if let error { #expect(error.code == .document(.unexpectedEnd)) }
    }
}

@Test func deepNestingIsAnErrorNotACrash() throws {
    let deep = [UInt8](repeating: 0x5B, count: 100_000)
    for layout in [JSONLayout.document, .auto, .array] {
        let error = readError(deep, layout: layout)
        #expect(error?.code == .document(.depthLimit))
        #expect(error?.message == "nesting deeper than 512 levels")
        #expect(error?.position == pos(1, 513, 512))
    }
    let objects = Array(String(repeating: "{\"a\":", count: 100_000).utf8)
    #expect(readError(objects)?.position == pos(1, 5 * 512 + 1, 5 * 512))
    // Exactly at the limit is fine.
    let limit = [UInt8](repeating: 0x5B, count: 512) + [UInt8](repeating: 0x5D, count: 512)
    #expect(try readAll(limit).count == 1)
    #expect(readError(limit, maxDepth: 511)?.code == .document(.depthLimit))
    #expect(readError(Array("[[1]]".utf8), maxDepth: 1)?.message == "nesting deeper than 1 level")
    #expect(readError(Array("[[1]]".utf8), maxDepth: 1)?.position == pos(1, 2, 1))
}

// MARK: - Layouts

@Test func arrayLayoutStreamsElementsWithPositions() throws {
    let text = "[\n  {\"id\": 1},\n  {\"id\": 2, \"x\": [true]},\n  3\n]\n"
    let reader = JSONReader(bytes: Array(text.utf8), layout: .array)
    let first = try reader.next()
    #expect(first.map(J.init) == .o(("id", .num("1"))))
    #expect(first?.position == pos(2, 3, 4))
    if case .object(let members)? = first?.value {
        #expect(members.first?.keyPosition == pos(2, 4, 5))
    } else {
        Issue.record("not an object")
    }
    // Progress: consumed up to the end of the first element.
    #expect(reader.bytesRead == 13)
    let second = try reader.next()
    #expect(second.map(J.init) == .o(("id", .num("2")), ("x", .arr([.bool(true)]))))
    #expect(second?.position == pos(3, 3, 17))
    let third = try reader.next()
    #expect(third.map(J.init) == .num("3"))
    #expect(third?.position == pos(4, 3, 43))
    #expect(try reader.next() == nil)
    #expect(try reader.next() == nil)
    #expect(reader.bytesRead == text.utf8.count)
    // .auto picks the array layout from the '['; .document keeps the array whole.
    #expect(try readAll(text, layout: .auto).map(J.init) == [.o(("id", .num("1"))), .o(("id", .num("2")), ("x", .arr([.bool(true)]))), .num("3")])
    #expect(try readAll(text, layout: .document).count == 1)
    #expect(try readAll(" [ ] ", layout: .array).isEmpty)
}

@Test func linesLayoutSkipsBlankLines() throws {
    let text = "{\"a\":1}\n\n  \n[2]\r\n \"s\"\n3"
    let nodes = try readAll(text, layout: .lines)
    #expect(nodes.map(J.init) == [.o(("a", .num("1"))), .arr([.num("2")]), .str("s"), .num("3")])
    #expect(nodes.map(\.position) == [pos(1, 1, 0), pos(4, 1, 12), pos(5, 2, 18), pos(6, 1, 22)])
    #expect(try readAll("", layout: .lines).isEmpty)
    #expect(try readAll("\n\n", layout: .lines).isEmpty)
}

@Test func autoLayoutReadsValueSequences() throws {
    #expect(try readAll("1 2\n{\"a\":3}", layout: .auto).map(J.init) == [.num("1"), .num("2"), .o(("a", .num("3")))])
    #expect(try readAll("{\"a\":1}{\"b\":2}", layout: .auto).map(J.init) == [.o(("a", .num("1"))), .o(("b", .num("2")))])
    #expect(try readAll("\"x\"", layout: .auto).map(J.init) == [.str("x")])
    // An empty input is no JSON value: an empty array holds no documents (refusals are in `invalidCorpus`).
    #expect(try readAll(" [ ] ", layout: .auto).isEmpty)
}

// MARK: - Chunk boundaries and files

@Test func chunkBoundariesDoNotChangeResults() throws {
    let longString = String(repeating: "abcdé\\n\\u00e9\\ud83d\\ude00😀", count: 40)
    let text = "[\n" + complexDocument + ",\n\"" + longString + "\", 123456789.125e-3,\n\"\(String(repeating: "x", count: 100))\"]\n"
    let bytes = Array(text.utf8)
    for layout in [JSONLayout.document, .array] {
        let whole = try readAll(bytes, layout: layout)
        #expect(!whole.isEmpty)
        for chunkSize in [1, 2, 3, 4, 5, 7, 16, 64] {
            #expect(try readAll(bytes, layout: layout, chunkSize: chunkSize) == whole, "\(layout) chunk \(chunkSize)")
        }
    }
    let lines = Array((complexDocument.replacingOccurrences(of: "\n", with: " ") + "\n\n[1, \"é\"]\n").utf8)
    let wholeLines = try readAll(lines, layout: .lines)
    #expect(wholeLines.count == 2)
    for chunkSize in [1, 3, 7] {
        #expect(try readAll(lines, layout: .lines, chunkSize: chunkSize) == wholeLines)
    }
    let nodes = try readAll(bytes, layout: .array)
    #expect(nodes.count == 4)
    let expectedLong = String(repeating: "abcdé\né😀😀", count: 40)
    #expect(nodes.dropFirst().first.map(J.init) == .str(expectedLong))
}

@Test func readsFromAFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kura-json-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    var text = "[\n"
    for i in 1...200 {
        text += (i > 1 ? "," : "") + "{\"id\": \(i), \"name\": \"Person \(i) é\", \"tags\": [\"a\", \"b\"]}\n"
    }
    text += "]\n"
    try Data(text.utf8).write(to: url)

    let reader = try JSONReader(path: url.path)
    #expect(reader.file == url.path)
    var ids: [Int64] = []
    var positions: [TextPosition] = []
    while let node = try reader.next() {
        positions.append(node.position)
        if case .object(let members) = node.value, case .number(let n) = members.first?.value.value {
            ids.append(n.int64Value ?? -1)
        }
    }
    #expect(ids == Array(1...200))
    #expect(positions.first == pos(2, 1, 2))
    #expect(positions.last?.line == 201)
    #expect(reader.bytesRead == text.utf8.count)

    // Small chunks read the same nodes.
    let chunked = try JSONReader(path: url.path, layout: .auto, maxDepth: 512, chunkSize: 5)
    var again: [DocumentNode] = []
    while let node = try chunked.next() { again.append(node) }
    #expect(again == (try readAll(text, layout: .auto)))
}

@Test func missingFileIsAnIOError() {
    let path = "/nonexistent-kura-dir/missing.json"
    var caught: KuraError?
    do { _ = try JSONReader(path: path) } catch { caught = error }
    #expect(caught?.code == .document(.io))
    #expect(caught?.position == nil)
    #expect(caught?.description == "\(path): error: cannot open file: No such file or directory")
}

@Test func repeatedKeysComeBackExactly() throws {
    // Keys of every length around the cache's word boundaries, sharing prefixes, and enough of
    // them that cache slots collide.
    var keys = (0...40).map { String(repeating: "k", count: $0) } + ["é", "éé", "k\\u0000", "日本語のキー"]
    keys += (0..<2000).map { String(repeating: "k", count: $0 % 37) + "\($0)" }
    let object = "{" + keys.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ", ") + "}"
    let text = "[" + Array(repeating: object, count: 3).joined(separator: ",\n") + "]"
    for chunkSize in [1 << 20, 5] {
        let nodes = try readAll(text, layout: .array, chunkSize: chunkSize)
        #expect(nodes.count == 3)
        for node in nodes {
            guard case .object(let members) = node.value else {
                Issue.record("not an object")
                continue
            }
            let expected = keys.map { $0.replacingOccurrences(of: "\\u0000", with: "\u{0}") }
            #expect(members.map(\.key) == expected)
            #expect(members.map { J($0.value) } == keys.indices.map { .num("\($0)") })
        }
    }
}

@Test func tokensLargerThanTheChunkAreRead() throws {
    // The window grows for the big string and shrinks again after it.
    let big = String(repeating: "0123456789abcdé", count: 20_000)
    let text = "[\"\(big)\", \(String(repeating: "9", count: 5_000)), {\"after\": true}]"
    let nodes = try readAll(text, layout: .array, chunkSize: 1000)
    #expect(nodes.count == 3)
    #expect(nodes.first.map(J.init) == .str(big))
    if case .number(let n)? = nodes.dropFirst().first?.value {
        #expect(n.text.count == 5_000)
        #expect(n.int64Value == nil)
        #expect(n.doubleValue == .infinity)
    } else {
        Issue.record("not a number")
    }
    // Columns after the big string count its 20,000 "é" as one column each.
    let bigColumns = big.unicodeScalars.count
    #expect(nodes.last?.position == pos(1, 1 + 1 + bigColumns + 2 + 2 + 5_000 + 2, 1 + big.utf8.count + 2 + 2 + 5_000 + 2))
}
