import CYaml  // libyaml, as Yams builds and links it
import Foundation
import Yams

/// Builds one YAML document's `DocumentNode` tree straight from libyaml's parsing events, so no
/// other tree of the document is ever held: a wide mapping costs its nodes and nothing more, and
/// a duplicated key is reported where it is read, before the rest of the mapping is. Nesting is an
/// explicit stack, never call-stack depth, and an anchored node is built once: later aliases
/// become `.alias`, which keeps alias bombs (billion laughs) small and fast.
///
/// An alias carries its own position (the `*name`), where errors in the value it stands for are
/// reported. An anchor is defined where its node starts, as YAML defines it, so an alias inside
/// the node it names refers to it: a cycle, which the mapper accepts only as a link.
///
/// A value the document cannot hold (a scalar that does not fit its tag, an unsupported tag, a
/// date finer than a millisecond, an undefined alias, a merge key) does not stop the build:
/// it is kept as its text and noted in `valueErrors`, the first of each item of a top-level
/// sequence, so that only the document holding it is refused.
struct YAMLTreeBuilder {
    let file: String
    let maxDepth: Int
    let positions: YAMLPositionMap

    /// A value error and the item of a top-level sequence it stands in (-1 outside any item).
    struct ValueError {
        var item: Int
        var error: KuraError
    }

    /// The first value error of each item (or of the document when its root is no sequence).
    private(set) var valueErrors: [ValueError] = []

    /// What an alias needs of the node its anchor names: where the node is, and for a scalar its
    /// text and style, so that it can be a mapping key.
    private struct AnchoredNode {
        var position: TextPosition
        var scalar: Scalar?
        /// Whether the tree holds the node as `.anchored`; a key's anchor is not, until an alias
        /// to it is a value.
        var isInTree: Bool
    }

    /// The anchors of nodes already built, by name; a redefined anchor replaces the older node.
    private var anchors: [String: AnchoredNode] = [:]

    /// A scalar as libyaml reports it.
    fileprivate struct Scalar {
        var text: String
        /// The resolved tag's name: `""` for a plain scalar without one.
        var tag: String
        var isPlain: Bool
    }

    /// The children of the open collections, each collection's after its parent's: a wide one is
    /// never held twice, as it would be while an array of its own doubled (see `JSONNodeStack`).
    private let items = JSONNodeStack<DocumentNode>()
    private let members = JSONNodeStack<DocumentMember>()

    private struct Frame {
        var isMapping: Bool
        /// Where the collection's children start on `items` or `members`.
        var start: Int
        /// How many children it has so far.
        var count = 0
        /// A mapping's keys so far, by index, to find a duplicate as soon as it is read.
        var keys = KeyIndexTable()
        /// A mapping's key whose value comes next.
        var key: (text: String, position: TextPosition)?
        var position: TextPosition
        var anchor: String?
    }

    init(file: String, maxDepth: Int, positions: YAMLPositionMap) {
        self.file = file
        self.maxDepth = maxDepth
        self.positions = positions
    }

    /// Parses `bytes`, one document's valid UTF-8 text; nil if it holds no node.
    mutating func build(_ bytes: [UInt8]) throws(KuraError) -> DocumentNode? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            throw KuraError.document(.syntax, "invalid YAML: out of memory", file: file)
        }
        defer {
            yaml_parser_delete(parser)
            parser.deallocate()
        }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        let result: Result<DocumentNode?, KuraError> = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(parser, buffer.baseAddress, buffer.count)
            do throws(KuraError) {
                return .success(try run(parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads the events of the one document of the input and builds its tree.
    private mutating func run(_ parser: UnsafeMutablePointer<yaml_parser_t>) throws(KuraError) -> DocumentNode? {
        var stack: [Frame] = []
        var root: DocumentNode?
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else { throw parserError(parser.pointee) }
            defer { yaml_event_delete(&event) }
            let position = positions.position(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
            var finished: DocumentNode
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return root
            case YAML_DOCUMENT_START_EVENT where root != nil:
                // The splitter hands over one document; libyaml found another in it.
                throw KuraError.document(
                    .syntax, "invalid YAML: but found another document expected a single document in the stream",
                    file: file, position: position)
            case YAML_SCALAR_EVENT:
                let data = event.data.scalar
                let scalar = Scalar(
                    text: String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self),
                    tag: data.quoted_implicit == 1 ? Tag.Name.str.rawValue : Self.text(data.tag),
                    isPlain: data.style == YAML_PLAIN_SCALAR_STYLE || data.style == YAML_ANY_SCALAR_STYLE)
                let anchor = data.anchor.map { Self.text($0) }
                let isKey = try takeKey(scalar, at: position, in: &stack)
                if let anchor { anchors[anchor] = AnchoredNode(position: position, scalar: scalar, isInTree: !isKey) }
                if isKey { continue }
                finished = DocumentNode(value: scalarValue(scalar, at: position, in: stack), position: position)
                if let anchor { finished = DocumentNode(value: .anchored(anchor, finished), position: position) }
            case YAML_ALIAS_EVENT:
                let name = Self.text(event.data.alias.anchor)
                guard let anchored = anchors[name] else {
                    note(KuraError.document(
                        .syntax, "YAML alias '*\(MessageText.shown(name))' names no anchor defined before it", file: file, position: position),
                        in: stack)
                    if try takeKey(Scalar(text: "*" + name, tag: "", isPlain: false), at: position, in: &stack) { continue }
                    try refuseKey(in: stack, at: position)
                    finished = DocumentNode(value: .alias(name), position: position)
                    break
                }
                if let scalar = anchored.scalar, try takeKey(scalar, at: position, in: &stack) { continue }
                try refuseKey(in: stack, at: position)
                if let scalar = anchored.scalar, !anchored.isInTree {
                    // The anchor was on a key: its first use as a value defines it in the tree.
                    anchors[name]?.isInTree = true
                    let node = DocumentNode(value: scalarValue(scalar, at: anchored.position, in: stack), position: anchored.position)
                    finished = DocumentNode(value: .anchored(name, node), position: anchored.position)
                } else {
                    finished = DocumentNode(value: .alias(name), position: position)
                }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                try refuseKey(in: stack, at: position)
                let tag = isMapping
                    ? (event.data.mapping_start.implicit != 0 ? "" : Self.text(event.data.mapping_start.tag))
                    : (event.data.sequence_start.implicit != 0 ? "" : Self.text(event.data.sequence_start.tag))
                checkTag(tag, allowed: isMapping ? Tag.Name.map.rawValue : Tag.Name.seq.rawValue, at: position, in: stack)
                if stack.count >= maxDepth {
                    throw KuraError.document(.depthLimit, "nesting deeper than \(Counted(maxDepth, "level"))", file: file, position: position)
                }
                let anchor = (isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor).map { Self.text($0) }
                if let anchor { anchors[anchor] = AnchoredNode(position: position, scalar: nil, isInTree: true) }
                stack.append(Frame(isMapping: isMapping, start: isMapping ? members.count : items.count, position: position, anchor: anchor))
                continue
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { continue }
                let value: DocumentValue =
                    frame.isMapping ? .object(members.popArray(from: frame.start)) : .array(items.popArray(from: frame.start))
                finished = DocumentNode(value: value, position: frame.position)
                if let anchor = frame.anchor {
                    finished = DocumentNode(value: .anchored(anchor, finished), position: frame.position)
                }
            default:
                continue
            }
            guard !stack.isEmpty else {
                root = finished
                continue
            }
            let top = stack.count - 1
            if let key = stack[top].key {
                members.push(DocumentMember(key: key.text, keyPosition: key.position, value: finished))
                stack[top].key = nil
            } else {
                items.push(finished)
            }
            stack[top].count += 1
        }
    }

    /// Takes `scalar` as the next key when the innermost collection is a mapping waiting for one;
    /// a key read twice is refused there and then, before the rest of a wide mapping is read.
    private mutating func takeKey(_ scalar: Scalar, at position: TextPosition, in stack: inout [Frame]) throws(KuraError) -> Bool {
        guard let top = stack.indices.last, stack[top].isMapping, stack[top].key == nil else { return false }
        // Only the style tells a merge key: plain scalars are not resolved to tags here.
        if scalar.text == "<<" && (scalar.isPlain || scalar.tag == Tag.Name.merge.rawValue) {
            note(KuraError.document(.syntax, "YAML merge keys are not supported", file: file, position: position), in: stack)
        } else {
            let members = self.members
            let start = stack[top].start
            guard stack[top].keys.existing(scalar.text, keyAt: { members[start + $0].key }) == nil else {
                throw KuraError.document(
                    .syntax, "invalid YAML: duplicated mapping key '\(MessageText.shown(scalar.text))'", file: file, position: position)
            }
            stack[top].keys.record(scalar.text, as: stack[top].count) { members[start + $0].key }
        }
        stack[top].key = (scalar.text, position)
        return true
    }

    /// Notes a value error, unless the item of the top-level sequence it stands in (or the
    /// document) already has one.
    private mutating func note(_ error: KuraError, in stack: [Frame]) {
        // The item being built is the next one of the root sequence.
        let item = stack.first.map { $0.isMapping ? -1 : $0.count } ?? -1
        if let last = valueErrors.last, last.item == item { return }
        valueErrors.append(ValueError(item: item, error: error))
    }

    /// Refuses a collection where a mapping key is due.
    private func refuseKey(in stack: [Frame], at position: TextPosition) throws(KuraError) {
        if let top = stack.last, top.isMapping, top.key == nil {
            throw KuraError.document(.syntax, "YAML mapping keys must be scalars", file: file, position: position)
        }
    }

    /// A C string of libyaml's as text; `""` for none.
    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// The error libyaml stopped at, at its file position.
    private func parserError(_ parser: yaml_parser_t) -> KuraError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return KuraError.document(.syntax, "invalid YAML: out of memory", file: file)
        case YAML_READER_ERROR:
            return KuraError.document(.syntax, "invalid YAML: \(problem)", file: file, position: positions.bytePosition(Int(parser.problem_offset)))
        default:
            let mark = parser.problem_mark
            let position = positions.position(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
            if problem.hasPrefix("Maximum nesting level reached") {
                // libyaml stops deep documents before their depth can be counted here.
                let limit = min(maxDepth, YAMLReader.libyamlNestingLimit)
                return KuraError.document(.depthLimit, "nesting deeper than \(Counted(limit, "level"))", file: file, position: position)
            }
            let context = parser.context.map { " " + String(cString: $0) } ?? ""
            return KuraError.document(.syntax, "invalid YAML: \(problem)\(context)", file: file, position: position)
        }
    }

    private mutating func checkTag(_ name: String, allowed: String, at position: TextPosition, in stack: [Frame]) {
        guard name.isEmpty || name == "!" || name == allowed else {
            note(unsupportedTag(name, at: position), in: stack)
            return
        }
    }

    private func unsupportedTag(_ name: String, at position: TextPosition) -> KuraError {
        KuraError.document(.syntax, "unsupported YAML tag '\(Self.shortTag(name))'", file: file, position: position)
    }

    /// `!!int` rather than `tag:yaml.org,2002:int`.
    static func shortTag(_ name: String) -> String {
        let prefix = "tag:yaml.org,2002:"
        return name.hasPrefix(prefix) ? "!!" + name.dropFirst(prefix.count) : name
    }

    /// The value of a scalar: untagged plain scalars are resolved, quoted and block scalars are
    /// strings, and explicit standard tags must fit their text. A scalar that cannot be its value
    /// is noted (`note`) and kept as its text.
    private mutating func scalarValue(_ scalar: Scalar, at position: TextPosition, in stack: [Frame]) -> DocumentValue {
        switch Self.value(of: scalar, at: position, file: file) {
        case .success(let value):
            return value
        case .failure(let error):
            note(error, in: stack)
            return .string(scalar.text)
        }
    }

    private static func value(of scalar: Scalar, at position: TextPosition, file: String) -> Result<DocumentValue, KuraError> {
        let text = scalar.text
        let tag = scalar.tag
        let resolved: YAMLScalarResolver.Resolved
        switch tag {
        case "":
            guard scalar.isPlain else { return .success(.string(text)) }
            resolved = YAMLScalarResolver.resolve(text)
        case "!", Tag.Name.str.rawValue:
            return .success(.string(text))
        case Tag.Name.binary.rawValue:
            guard let data = YAMLScalarResolver.binary(text) else {
                return .failure(KuraError.document(.syntax, "invalid base64 in YAML !!binary scalar", file: file, position: position))
            }
            return .success(.binary(data))
        default:
            // An explicit tag: the text must read as that type.
            let actual = YAMLScalarResolver.resolve(text)
            let fits: Bool
            switch tag {
            case Tag.Name.null.rawValue: fits = actual == .null
            case Tag.Name.bool.rawValue: fits = YAMLScalarResolver.boolValue(text) != nil
            case Tag.Name.int.rawValue: fits = actual == .int
            case Tag.Name.float.rawValue: fits = actual == .float || actual == .int
            case Tag.Name.timestamp.rawValue: fits = actual == .timestamp
            default: return .failure(KuraError.document(.syntax, "unsupported YAML tag '\(shortTag(tag))'", file: file, position: position))
            }
            guard fits else {
                return .failure(KuraError.document(
                    .syntax, "YAML scalar '\(MessageText.shown(text))' is not a valid \(shortTag(tag))", file: file, position: position))
            }
            resolved = tag == Tag.Name.float.rawValue ? .float : actual
        }
        switch resolved {
        case .null: return .success(.null)
        case .bool(let value): return .success(.bool(value))
        case .string, .value: return .success(.string(text))
        case .int: return .success(.number(YAMLScalarResolver.integer(text)))
        case .float:
            guard let number = YAMLScalarResolver.float(text) else {
                return .failure(KuraError.document(
                    .invalidNumber, "YAML float '\(MessageText.shown(text))' is not a finite number", file: file, position: position))
            }
            return .success(.number(number))
        case .timestamp:
            switch YAMLScalarResolver.checkedTimestamp(text) {
            case .success(let milliseconds):
                return .success(.timestamp(milliseconds))
            case .failure(.subMillisecond):
                // A timestamp is a date wherever it stands: its lost digits cannot wait for the mapper.
                return .failure(KuraError.document(
                    .syntax, "YAML timestamp '\(MessageText.shown(text))' has digits below a millisecond, which a date cannot hold",
                    file: file, position: position))
            case .failure:
                return .failure(KuraError.document(
                    .syntax, "YAML timestamp '\(MessageText.shown(text))' is not a valid date", file: file, position: position))
            }
        case .merge:
            return .failure(KuraError.document(.syntax, "YAML merge keys are not supported", file: file, position: position))
        }
    }
}
