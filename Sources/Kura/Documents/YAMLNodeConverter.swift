import Foundation
import Yams

/// Converts a composed Yams document into `DocumentNode`s with an explicit stack, so nesting
/// never becomes call-stack depth, and converts each anchored node only once: later references
/// become `.alias`, which keeps alias bombs (billion laughs) small and fast.
struct YAMLNodeConverter {
    let file: String
    let maxDepth: Int
    let positions: YAMLPositionMap
    /// Anchors already converted, by identity: Yams hands back an alias as a copy of the anchored
    /// node carrying the same `Anchor` object, while a redefined anchor gets a new object.
    private var converted: [ObjectIdentifier: Anchor] = [:]

    init(file: String, maxDepth: Int, positions: YAMLPositionMap) {
        self.file = file
        self.maxDepth = maxDepth
        self.positions = positions
    }

    private struct Frame {
        var sequence: Node.Sequence?
        var mapping: Node.Mapping?
        var index = 0
        var items: [DocumentNode] = []
        var members: [DocumentMember] = []
        var key = ""
        var keyPosition: TextPosition
        var position: TextPosition
        var anchor: String?
    }

    /// Converts one document's root node.
    mutating func convert(_ root: Node) throws(DocumentError) -> DocumentNode {
        var stack: [Frame] = []
        var next: Node? = root
        while true {
            var finished: DocumentNode
            if let node = next {
                next = nil
                let position = positions.position(node.mark)
                var anchorName: String?
                if let anchor = node.anchor {
                    let id = ObjectIdentifier(anchor)
                    if converted[id] != nil {
                        finished = DocumentNode(value: .alias(anchor.rawValue), position: position)
                        if let done = try deliver(finished, to: &stack) { return done }
                        continue
                    }
                    converted[id] = anchor
                    anchorName = anchor.rawValue
                }
                switch node {
                case .scalar(let scalar):
                    finished = DocumentNode(value: try scalarValue(scalar, at: position), position: position)
                case .sequence(let sequence):
                    try checkTag(sequence.tag, allowed: Tag.Name.seq.rawValue, at: position)
                    try push(&stack, at: position)
                    stack.append(Frame(sequence: sequence, keyPosition: position, position: position, anchor: anchorName))
                    continue
                case .mapping(let mapping):
                    try checkTag(mapping.tag, allowed: Tag.Name.map.rawValue, at: position)
                    try push(&stack, at: position)
                    stack.append(Frame(mapping: mapping, keyPosition: position, position: position, anchor: anchorName))
                    continue
                case .alias(let alias):
                    // The parser resolves aliases itself; this only guards against other producers.
                    finished = DocumentNode(value: .alias(alias.anchor.rawValue), position: position)
                    anchorName = nil
                }
                if let anchorName {
                    finished = DocumentNode(value: .anchored(anchorName, finished), position: position)
                }
            } else {
                let top = stack.count - 1
                if let sequence = stack[top].sequence {
                    let index = stack[top].index
                    // Yams' collections are not random-access; their indices are array indices.
                    if sequence.startIndex + index < sequence.endIndex {
                        stack[top].index += 1
                        next = sequence[sequence.startIndex + index]
                        continue
                    }
                    let frame = stack.removeLast()
                    finished = DocumentNode(value: .array(frame.items), position: frame.position)
                    if let anchor = frame.anchor {
                        finished = DocumentNode(value: .anchored(anchor, finished), position: frame.position)
                    }
                } else if let mapping = stack[top].mapping {
                    let index = stack[top].index
                    if mapping.startIndex + index < mapping.endIndex {
                        stack[top].index += 1
                        let pair = mapping[mapping.startIndex + index]
                        let keyPosition = positions.position(pair.key.mark)
                        stack[top].key = try keyText(pair.key, at: keyPosition)
                        stack[top].keyPosition = keyPosition
                        next = pair.value
                        continue
                    }
                    let frame = stack.removeLast()
                    finished = DocumentNode(value: .object(frame.members), position: frame.position)
                    if let anchor = frame.anchor {
                        finished = DocumentNode(value: .anchored(anchor, finished), position: frame.position)
                    }
                } else {
                    stack.removeLast()
                    continue
                }
            }
            if let done = try deliver(finished, to: &stack) { return done }
        }
    }

    /// Adds a finished node to the innermost container; returns it when it is the root.
    private func deliver(_ node: DocumentNode, to stack: inout [Frame]) throws(DocumentError) -> DocumentNode? {
        guard !stack.isEmpty else { return node }
        let top = stack.count - 1
        if stack[top].sequence != nil {
            stack[top].items.append(node)
        } else {
            stack[top].members.append(
                DocumentMember(key: stack[top].key, keyPosition: stack[top].keyPosition, value: node))
        }
        return nil
    }

    private func push(_ stack: inout [Frame], at position: TextPosition) throws(DocumentError) {
        if stack.count >= maxDepth {
            throw DocumentError(.depthLimit, "nesting deeper than \(Counted(maxDepth, "level"))", file: file, position: position)
        }
    }

    /// A mapping key as text: keys must be scalars, and `<<` merge keys are refused.
    private func keyText(_ key: Node, at position: TextPosition) throws(DocumentError) -> String {
        guard case .scalar(let scalar) = key else {
            throw DocumentError(.syntax, "YAML mapping keys must be scalars", file: file, position: position)
        }
        // Yams' duplicate-key check resolves key tags with the reader's empty resolver, so a plain
        // `<<` is recognised by its style rather than its tag.
        if scalar.string == "<<" && (scalar.style == .plain || scalar.tag.rawValue == Tag.Name.merge.rawValue) {
            throw DocumentError(.syntax, "YAML merge keys are not supported", file: file, position: position)
        }
        return scalar.string
    }

    private func checkTag(_ tag: Tag, allowed: String, at position: TextPosition) throws(DocumentError) {
        let name = tag.rawValue
        guard name.isEmpty || name == "!" || name == allowed else {
            throw unsupportedTag(name, at: position)
        }
    }

    private func unsupportedTag(_ name: String, at position: TextPosition) -> DocumentError {
        DocumentError(.syntax, "unsupported YAML tag '\(Self.shortTag(name))'", file: file, position: position)
    }

    /// `!!int` rather than `tag:yaml.org,2002:int`.
    static func shortTag(_ name: String) -> String {
        let prefix = "tag:yaml.org,2002:"
        return name.hasPrefix(prefix) ? "!!" + name.dropFirst(prefix.count) : name
    }

    /// The value of a scalar: untagged plain scalars are resolved, quoted and block scalars are
    /// strings, and explicit standard tags must fit their text.
    private func scalarValue(_ scalar: Node.Scalar, at position: TextPosition) throws(DocumentError) -> DocumentValue {
        let text = scalar.string
        let tag = scalar.tag.rawValue
        let resolved: YAMLScalarResolver.Resolved
        switch tag {
        case "":
            guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
            resolved = YAMLScalarResolver.resolve(text)
        case "!", Tag.Name.str.rawValue:
            return .string(text)
        case Tag.Name.binary.rawValue:
            guard let data = YAMLScalarResolver.binary(text) else {
                throw DocumentError(.syntax, "invalid base64 in YAML !!binary scalar", file: file, position: position)
            }
            return .binary(data)
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
            default: throw unsupportedTag(tag, at: position)
            }
            guard fits else {
                throw DocumentError(
                    .syntax, "YAML scalar '\(MessageText.shown(text))' is not a valid \(Self.shortTag(tag))", file: file, position: position)
            }
            resolved = tag == Tag.Name.float.rawValue ? .float : actual
        }
        switch resolved {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .string, .value: return .string(text)
        case .int: return .number(YAMLScalarResolver.integer(text))
        case .float:
            guard let number = YAMLScalarResolver.float(text) else {
                throw DocumentError(.invalidNumber, "YAML float '\(MessageText.shown(text))' is not a finite number", file: file, position: position)
            }
            return .number(number)
        case .timestamp:
            switch YAMLScalarResolver.checkedTimestamp(text) {
            case .success(let milliseconds):
                return .timestamp(milliseconds)
            case .failure(.subMillisecond):
                // A timestamp is a date wherever it stands: its lost digits cannot wait for the mapper.
                throw DocumentError(
                    .syntax, "YAML timestamp '\(MessageText.shown(text))' has digits below a millisecond, which a date cannot hold",
                    file: file, position: position)
            case .failure:
                throw DocumentError(.syntax, "YAML timestamp '\(MessageText.shown(text))' is not a valid date", file: file, position: position)
            }
        case .merge:
            throw DocumentError(.syntax, "YAML merge keys are not supported", file: file, position: position)
        }
    }
}
