import Foundation
import KuraTestSupport
import Testing

// @testable for the internal `chunkSize:` initializer that cuts documents across chunk boundaries.
@testable import Kura

// MARK: - Helpers

/// Reads every document of `text`.
private func readAll(_ text: String, maxDepth: Int = 512, chunkSize: Int = 1 << 20) throws(KuraError) -> [DocumentNode] {
    let reader = YAMLReader(bytes: Array(text.utf8), file: "<input>", maxDepth: maxDepth, chunkSize: chunkSize)
    var nodes: [DocumentNode] = []
    while let node = try reader.next() { nodes.append(node) }
    return nodes
}

/// The error reading `text` throws, or nil if it reads fine.
private func readError(_ text: String, maxDepth: Int = 512) -> KuraError? {
    do {
        _ = try readAll(text, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

/// The value of `v` in the one-document stream `v: <scalar>`.
private func scalar(_ yaml: String) throws(KuraError) -> DocumentValue? {
    let nodes = try readAll("v: \(yaml)\n")
    guard nodes.count == 1, case .object(let members) = nodes[0].value, members.count == 1 else { return nil }
    return members[0].value.value
}

private func pos(_ line: Int, _ column: Int, _ offset: Int) -> TextPosition {
    TextPosition(line: line, column: column, offset: offset)
}

private func int(_ text: String, _ value: Int64?, _ double: Double) -> DocumentValue {
    .number(NumberLiteral(text: text, isInteger: true, int64Value: value, doubleValue: double))
}

private func float(_ text: String, _ double: Double) -> DocumentValue {
    .number(NumberLiteral(text: text, isInteger: false, int64Value: nil, doubleValue: double))
}

/// A temporary file holding `bytes`, removed by the caller.
private func temporaryFile(_ bytes: [UInt8]) throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("kura-yaml-\(UUID().uuidString).yaml").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
}

/// Counts the nodes of a tree, aliases included once each.
private func nodeCount(_ node: DocumentNode) -> Int {
    var count = 0
    var pending = [node]
    while let next = pending.popLast() {
        count += 1
        switch next.value {
        case .array(let items): pending += items
        case .object(let members): pending += members.map(\.value)
        case .anchored(_, let inner): pending.append(inner)
        default: break
        }
    }
    return count
}

// MARK: - Scalars

@Test func plainScalarsResolveLikeYamsDefaultResolver() throws {
    let cases: [(String, DocumentValue)] = [
        ("~", .null), ("null", .null), ("NULL", .null), ("", .null),
        ("true", .bool(true)), ("False", .bool(false)), ("yes", .bool(true)), ("OFF", .bool(false)),
        ("42", int("42", 42, 42)), ("-17", int("-17", -17, -17)), ("+5", int("+5", 5, 5)), ("0", int("0", 0, 0)),
        ("1_000", int("1_000", 1000, 1000)),
        ("0x1F", int("0x1F", 31, 31)), ("0o17", int("0o17", 15, 15)), ("017", int("017", 15, 15)),
        ("0b101", int("0b101", 5, 5)), ("190:20:30", int("190:20:30", 685_230, 685_230)),
        ("9223372036854775807", int("9223372036854775807", .max, 9_223_372_036_854_775_808)),
        ("-9223372036854775808", int("-9223372036854775808", .min, -9_223_372_036_854_775_808)),
        ("9223372036854775808", int("9223372036854775808", nil, 9_223_372_036_854_775_808)),
        ("3.25", float("3.25", 3.25)), ("-1.5e3", float("-1.5e3", -1500)), (".5", float(".5", 0.5)),
        ("1e3", float("1e3", 1000)), ("1_0.5", float("1_0.5", 10.5)), ("1:30.5", float("1:30.5", 90.5)),
        ("hello world", .string("hello world")), ("'42'", .string("42")), ("\"true\"", .string("true")),
        ("'~'", .string("~")), ("0x", .string("0x")), ("1.2.3", .string("1.2.3")), ("=", .string("=")),
        ("!!str 42", .string("42")), ("! 12", .string("12")), ("!!int \"7\"", int("7", 7, 7)),
        ("!!float 1", float("1", 1)), ("!!bool yes", .bool(true)), ("!!null ''", .null),
        ("|\n  block\n  text\n", .string("block\ntext\n")), (">\n  folded\n  text\n", .string("folded text\n")),
    ]
    for (yaml, expected) in cases {
        #expect(try scalar(yaml) == expected, "v: \(yaml)")
    }
}

@Test func explicitTagsMustFitTheirText() {
    #expect(readError("v: !!int abc\n") == KuraError.document(.syntax, "YAML scalar 'abc' is not a valid !!int", file: "<input>", position: pos(1, 4, 3)))
    #expect(readError("v: !custom x\n")?.message == "unsupported YAML tag '!custom'")
    #expect(readError("v: !!set {a: null}\n")?.message == "unsupported YAML tag '!!set'")
}

@Test func timestampsBecomeUTCMilliseconds() throws {
    #expect(try scalar("2001-12-14") == .timestamp(1_008_288_000_000))
    #expect(try scalar("2001-12-15T02:59:43.1Z") == .timestamp(1_008_385_183_100))
    #expect(try scalar("2001-12-14t21:59:43.10-05:00") == .timestamp(1_008_385_183_100))
    #expect(try scalar("2001-12-14 21:59:43.10 -5") == .timestamp(1_008_385_183_100))
    // Without a time zone a timestamp is UTC.
    #expect(try scalar("2001-12-15 2:59:43.10") == .timestamp(1_008_385_183_100))
    #expect(try scalar("!!timestamp '2001-12-14'") == .timestamp(1_008_288_000_000))
    #expect(try scalar("'2001-12-14'") == .string("2001-12-14"))
    #expect(try scalar("2001-12-1") == .string("2001-12-1"))
    #expect(readError("v: 2001-13-14\n") == KuraError.document(.syntax, "YAML timestamp '2001-13-14' is not a valid date", file: "<input>", position: pos(1, 4, 3)))
}

@Test func binaryScalarsAreBase64Decoded() throws {
    #expect(try scalar("!!binary aGVsbG8=") == .binary(Data("hello".utf8)))
    #expect(try scalar("!!binary |\n  aGVs\n  bG8gd29y\n  bGQ=\n") == .binary(Data("hello world".utf8)))
    #expect(readError("a: 1\nv: !!binary \"@@not base64\"\n") == KuraError.document(.syntax, "invalid base64 in YAML !!binary scalar", file: "<input>", position: pos(2, 4, 8)))
}

@Test func infinityAndNaNAreNotNumbers() {
    #expect(readError("a: 1\nv: .nan\n") == KuraError.document(.invalidNumber, "YAML float '.nan' is not a finite number", file: "<input>", position: pos(2, 4, 8)))
    #expect(readError("- -.Inf\n")?.message == "YAML float '-.Inf' is not a finite number")
    #expect(readError("- !!float .inf\n")?.message == "YAML float '.inf' is not a finite number")
}

// MARK: - Collections, keys, anchors

@Test func mappingsKeepMemberOrderAndKeyPositions() throws {
    let nodes = try readAll("z: 1\na:\n  - x\n  - {k: v}\n")
    #expect(nodes.count == 1)
    guard case .object(let members) = nodes[0].value else { Issue.record("not an object"); return }
    #expect(members.map(\.key) == ["z", "a"])
    #expect(members[1].keyPosition == pos(2, 1, 5))
    guard case .array(let items) = members[1].value.value else { Issue.record("not an array"); return }
    #expect(items[0] == DocumentNode(value: .string("x"), position: pos(3, 5, 12)))
    #expect(items[1].position == pos(4, 5, 18))
}

@Test func mergeKeysAndNonScalarKeysAreRefused() {
    let merge = "base: &b {a: 1}\nderived:\n  <<: *b\n  c: 2\n"
    #expect(readError(merge) == KuraError.document(.syntax, "YAML merge keys are not supported", file: "<input>", position: pos(3, 3, 27)))
    #expect(readError("? [1, 2]\n: x\n") == KuraError.document(.syntax, "YAML mapping keys must be scalars", file: "<input>", position: pos(1, 3, 2)))
    // A quoted "<<" is an ordinary key.
    #expect(readError("'<<': 1\n") == nil)
}

@Test func anchorsConvertOnceAndAliasesReferToThem() throws {
    let nodes = try readAll("a: &x [1, 2]\nb: *x\nc: &x s\nd: *x\n")
    guard case .object(let members) = nodes.first?.value else { Issue.record("not an object"); return }
    let list = DocumentNode(value: .array([
        DocumentNode(value: int("1", 1, 1), position: pos(1, 8, 7)),
        DocumentNode(value: int("2", 2, 2), position: pos(1, 11, 10)),
    ]), position: pos(1, 4, 3))
    #expect(members[0].value.value == .anchored("x", list))
    #expect(members[0].value.value.kindName == "array")
    #expect(members[1].value.value == .alias("x"))
    #expect(members[1].value.value.kindName == "alias")
    // A redefined anchor is a new node; later aliases refer to the newest one.
    guard case .anchored("x", let inner) = members[2].value.value else { Issue.record("not anchored"); return }
    #expect(inner.value == .string("s"))
    #expect(members[3].value.value == .alias("x"))
    #expect(readError("a: *nowhere\n")?.message == "YAML alias '*nowhere' names no anchor defined before it")
}

@Test func aliasBombStaysSmallAndFast() throws {
    var yaml = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for level in 1...10 {
        let refs = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
        yaml += "l\(level): &l\(level) [\(refs)]\n"
    }
    let clock = ContinuousClock()
    var nodes: [DocumentNode] = []
    let elapsed = try clock.measure { nodes = try readAll(yaml) }
    #expect(nodes.count == 1)
    // 11 anchored lists, each with its wrapper: 1 + 11 × (1 key value + 1 list + 10 items) nodes.
    #expect(nodeCount(nodes[0]) == 1 + 11 * 12)
    #expect(elapsed < .milliseconds(500))
}

// MARK: - Depth

@Test func depthLimitIsEnforcedWithPosition() {
    #expect(readError("[[[[1]]]]\n", maxDepth: 3) == KuraError.document(.depthLimit, "nesting deeper than 3 levels", file: "<input>", position: pos(1, 4, 3)))
    #expect(readError("a:\n  b:\n    c: 1\n", maxDepth: 2) == KuraError.document(.depthLimit, "nesting deeper than 2 levels", file: "<input>", position: pos(3, 5, 12)))
    #expect(readError("[[[1]]]\n", maxDepth: 3) == nil)
}

@Test func hugelyNestedFlowSequenceIsRefusedNotCrashing() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
    let error = readError(deep)
    #expect(error?.code == .document(.depthLimit))
    #expect(error?.message == "nesting deeper than 512 levels")
    #expect(error?.position?.line == 1)
    let nested = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(readError(nested)?.position == pos(1, 513, 512))
    // Below libyaml's own limit a larger maxDepth is honoured.
    let fine = String(repeating: "[", count: 900) + "1" + String(repeating: "]", count: 900)
    #expect(readError(fine, maxDepth: 900) == nil)
    #expect(readError(fine, maxDepth: 899)?.position == pos(1, 900, 899))
}

// MARK: - Errors

@Test func syntaxErrorsCarryFilePositionAndOneLineMessage() {
    #expect(readError("a: 1\n b: 2\n") == KuraError.document(.syntax, "invalid YAML: mapping values are not allowed in this context", file: "<input>", position: pos(2, 3, 7)))
    let badSecond = "---\na: 1\n---\nkey: value\n- item\n"
    #expect(readError(badSecond) == KuraError.document(.syntax, "invalid YAML: did not find expected key while parsing a block mapping", file: "<input>", position: pos(5, 1, 24)))
    #expect(readError("a: [1, 2\n")?.message == "invalid YAML: did not find expected ',' or ']' while parsing a flow sequence")
    #expect(readError("a: 1\na: 2\n")?.message == "invalid YAML: duplicated mapping key 'a'")
}

@Test func aDuplicatedKeyIsReportedWhereItIsReadBeforeTheRestOfTheMapping() {
    // The input breaks off after the duplicate: the duplicate is what is reported, at its own line.
    let truncated = "name: w\nm:\n  k1: a\n  k2: b\n  k1: c\n  k3: [unclosed\n"
    #expect(readError(truncated) == KuraError.document(.syntax, "invalid YAML: duplicated mapping key 'k1'", file: "<input>", position: pos(5, 3, 29)))
    // Keys compare as text, whatever their style; in flow and nested mappings alike.
    #expect(readError("{a: 1, 'a': 2, b: [\n")?.position == pos(1, 8, 7))
    #expect(readError("x:\n  - {p: 1, q: 2, p: 3}\n  - [")?.position == pos(2, 18, 20))
    // The same key in different mappings is no duplicate.
    #expect(readError("a: {k: 1}\nb: {k: 2}\n") == nil)
}

@Test func keysAreScalarsAndAnchoredKeysCanBeAliasedAsValues() throws {
    #expect(readError("[a]: 1\n") == KuraError.document(.syntax, "YAML mapping keys must be scalars", file: "<input>", position: pos(1, 1, 0)))
    #expect(readError("a: &l [1]\n*l : 2\n") == KuraError.document(.syntax, "YAML mapping keys must be scalars", file: "<input>", position: pos(2, 1, 10)))
    // A scalar alias is a key like any other, and counts as a duplicate of its text.
    #expect(readError("a: &k b\n*k : 1\nb: 2\n")?.message == "invalid YAML: duplicated mapping key 'b'")
    // An anchor on a key is defined in the tree where an alias first uses it as a value (at the
    // anchored key's position, which starts at its `&`).
    let nodes = try readAll("&k a: 1\nb: *k\nc: *k\n")
    guard case .object(let members) = nodes.first?.value else { Issue.record("not a mapping"); return }
    #expect(members.map(\.key) == ["a", "b", "c"])
    #expect(members[1].value.value == .anchored("k", DocumentNode(value: .string("a"), position: pos(1, 1, 0))))
    #expect(members[2].value.value == .alias("k"))
}

@Test func invalidUTF8IsAnErrorWithPosition() throws {
    let bytes = Array("---\na: 1\n---\nb: é".utf8) + [0xFF, 0x0A]
    let path = try temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try YAMLReader(path: path)
    #expect(try reader.next() != nil)
    #expect(throws: KuraError.document(.invalidUTF8, "invalid UTF-8 byte 0xFF", file: path, position: pos(4, 5, 18))) {
        try reader.next()
    }
    // The error sticks.
    expectKuraError(.document) { try reader.next() }
}

// MARK: - Streams

@Test func positionsInLaterDocumentsAreFilePositions() throws {
    let yaml = "---\na: 1\n--- \n# two\nb:\n  - x\n  - y\n--- {c: 3}\n"
    let nodes = try readAll(yaml)
    #expect(nodes.count == 3)
    guard case .object(let second) = nodes[1].value, case .array(let items) = second.first?.value.value else {
        Issue.record("unexpected second document"); return
    }
    #expect(second[0].keyPosition == pos(5, 1, 20))
    #expect(items.map(\.position) == [pos(6, 5, 27), pos(7, 5, 33)])
    guard case .object(let third) = nodes[2].value else { Issue.record("unexpected third document"); return }
    #expect(nodes[2].position == pos(8, 5, 39))
    #expect(third[0].value == DocumentNode(value: int("3", 3, 3), position: pos(8, 9, 43)))
}

@Test func markersDirectivesAndEmptyDocuments() throws {
    // Directives before `---` belong to the next document; `...` ends one; empty ones are skipped.
    let yaml = "%YAML 1.1\n---\na: 1\n...\n---\n---\n# nothing\n...\n%YAML 1.1\n--- b\n...\nbare\n"
    let nodes = try readAll(yaml)
    #expect(nodes.map(\.value) == [
        .object([DocumentMember(key: "a", keyPosition: pos(3, 1, 14), value: DocumentNode(value: int("1", 1, 1), position: pos(3, 4, 17)))]),
        .string("b"), .string("bare"),
    ])
    #expect(nodes.map(\.position.line) == [3, 10, 12])
    // No markers at all: one document; `---x` is content, not a marker.
    #expect(try readAll("a: ---x\n").count == 1)
    #expect(try readAll("").isEmpty)
    #expect(try readAll("# only a comment\n---\n").isEmpty)
}

@Test func generatedPeopleStreamFromARealFileAcrossChunks() throws {
    var yaml = ""
    for id in 1...50 {
        yaml += "---\n{\"id\": \(id), \"name\": \"Person \(id)\", \"address\": {\"city\": \"Tōkyō\", \"country\": \"JP\"}, "
        yaml += "\"dogs\": [{\"name\": \"Rex \(id)-0\", \"age\": \(id % 17), \"companion\": null, \"citiesVisited\": []}]}\n"
    }
    let bytes = Array(yaml.utf8)
    let path = try temporaryFile(bytes)
    defer { try? FileManager.default.removeItem(atPath: path) }
    for chunkSize in [7, 64, 1 << 20] {
        let reader = try YAMLReader(path: path, maxDepth: 512, chunkSize: chunkSize)
        var ids: [Int64] = []
        var lines: [Int] = []
        while let node = try reader.next() {
            guard case .object(let members) = node.value, case .number(let id) = members.first?.value.value else {
                Issue.record("unexpected document"); return
            }
            ids.append(id.int64Value ?? -1)
            lines.append(node.position.line)
            #expect(members.map(\.key) == ["id", "name", "address", "dogs"])
        }
        #expect(ids == Array(1...50))
        #expect(lines == (1...50).map { $0 * 2 })
        #expect(reader.bytesRead == bytes.count)
    }
}

@Test func byteOrderMarkAndCRLFAreAccepted() throws {
    let nodes = try readAll("\u{FEFF}---\r\na: 1\r\n---\r\nb: 2\r\n")
    #expect(nodes.count == 2)
    #expect(nodes[1].position.line == 4)
}
