/// Builds one JSON value into a `DocumentNode` tree with an explicit stack, so input nesting
/// never turns into call-stack depth.
///
/// Finished children wait on shared stacks (`elements`, `members`) until their container closes.
struct JSONParser {
    var scanner: JSONScanner
    let maxDepth: Int

    /// An open array or object.
    private struct Frame {
        var isObject: Bool
        var position: TextPosition
        /// The key whose value is being parsed (objects only).
        var key: String
        var keyPosition: TextPosition
        /// Where this container's children start on `elements` or `members`.
        var start: Int
    }

    private var frames: [Frame] = []
    /// Where the last ',' between array elements was, so a trailing one can be pointed at.
    private var lastComma = TextPosition(line: 1, column: 1, offset: 0)
    private let elements = JSONNodeStack<DocumentNode>()
    private let members = JSONNodeStack<DocumentMember>()

    init(scanner: JSONScanner, maxDepth: Int) {
        self.scanner = scanner
        self.maxDepth = maxDepth
    }

    /// Parses one value, skipping whitespace before it. `outerDepth` is the number of containers
    /// already open around it: 1 for the elements of an array-layout input.
    mutating func parseValue(outerDepth: Int) throws(KuraError) -> DocumentNode {
        // A previous error may have left frames and children behind.
        frames.removeAll(keepingCapacity: true)
        elements.removeAll()
        members.removeAll()
        let outerContext = outerDepth > 0 ? " in array" : ""

        while true {
            // Expecting a value.
            guard let b = try scanner.skipWhitespace() else {
                throw scanner.endError(frames.isEmpty && outerDepth == 0 ? ", expected a value" : context(outerContext))
            }
            let position = scanner.position(at: scanner.pos)
            var node: DocumentNode
            switch b {
            case 0x22:
                node = DocumentNode(value: .string(try scanner.scanString()), position: position)
            case 0x2D, 0x30...0x39:
                node = DocumentNode(value: .number(try scanner.scanNumber()), position: position)
            case 0x74, 0x66, 0x6E:
                node = DocumentNode(value: try scanner.scanLiteral(), position: position)
            case 0x5B, 0x7B:
                let isObject = b == 0x7B
                if outerDepth + frames.count >= maxDepth {
                    throw scanner.error(.depthLimit, "nesting deeper than \(Counted(maxDepth, "level"))", at: scanner.pos)
                }
                scanner.pos += 1
                guard let c = try scanner.skipWhitespace() else {
                    throw scanner.endError(isObject ? " in object" : " in array")
                }
                if c == (isObject ? 0x7D : 0x5D) {
                    scanner.pos += 1
                    node = DocumentNode(value: isObject ? .object([]) : .array([]), position: position)
                } else if isObject {
                    guard c == 0x22 else {
                        throw scanner.unexpected(at: scanner.pos, " in object, expected a string key or '}'")
                    }
                    let (key, keyPosition) = try parseKey()
                    frames.append(
                        Frame(
                            isObject: true, position: position, key: key, keyPosition: keyPosition, start: members.count))
                    continue
                } else {
                    frames.append(
                        Frame(
                            isObject: false, position: position, key: "", keyPosition: position, start: elements.count))
                    continue
                }
            case 0x5D where frames.last.map({ !$0.isObject }) ?? (outerDepth > 0):
                // In an array, a value is expected after '[' (which an empty array's ']' follows) or after ','.
                throw KuraError.document(.syntax, "trailing comma in array", file: scanner.file, position: lastComma)
            default:
                throw scanner.unexpected(at: scanner.pos, "\(context(outerContext)), expected a value")
            }

            // A value is complete: add it to its container, then close containers as long as they end here.
            while let top = frames.indices.last {
                if frames[top].isObject {
                    members.push(DocumentMember(key: frames[top].key, keyPosition: frames[top].keyPosition, value: node))
                    guard let c = try scanner.skipWhitespace() else { throw scanner.endError(" in object") }
                    if c == 0x2C {
                        let comma = scanner.position(at: scanner.pos)
                        scanner.pos += 1
                        guard let d = try scanner.skipWhitespace() else { throw scanner.endError(" in object") }
                        guard d == 0x22 else {
                            if d == 0x7D { throw KuraError.document(.syntax, "trailing comma in object", file: scanner.file, position: comma) }
                            throw scanner.unexpected(at: scanner.pos, " in object, expected a string key")
                        }
                        (frames[top].key, frames[top].keyPosition) = try parseKey()
                        break
                    }
                    guard c == 0x7D else {
                        throw scanner.unexpected(at: scanner.pos, " in object, expected ',' or '}'")
                    }
                    scanner.pos += 1
                    let frame = frames.removeLast()
                    node = DocumentNode(value: .object(members.popArray(from: frame.start)), position: frame.position)
                } else {
                    elements.push(node)
                    guard let c = try scanner.skipWhitespace() else { throw scanner.endError(" in array") }
                    if c == 0x2C {
                        noteComma()
                        break
                    }
                    guard c == 0x5D else {
                        throw scanner.unexpected(at: scanner.pos, " in array, expected ',' or ']'")
                    }
                    scanner.pos += 1
                    let frame = frames.removeLast()
                    node = DocumentNode(value: .array(elements.popArray(from: frame.start)), position: frame.position)
                }
            }
            if frames.isEmpty { return node }
        }
    }

    /// Steps over the ',' under the cursor, between array elements, noting where it is.
    @inline(__always)
    mutating func noteComma() {
        lastComma = scanner.position(at: scanner.pos)
        scanner.pos += 1
    }

    /// Refuses the ',' under the cursor after a top-level value: a trailing comma if nothing but
    /// white space follows to the end of the input (of the line, in JSON Lines), otherwise a comma
    /// between documents, which only an array has.
    mutating func refuseCommaAfterDocument(inLines: Bool) throws(KuraError) {
        let comma = scanner.position(at: scanner.pos)
        scanner.pos += 1
        let message: String
        if inLines {
            let next = try scanner.skipSpacesOnLine()
            message = next == nil || next == 0x0A
                ? "trailing comma at the end of the line"
                : "comma between documents: JSON Lines has one document per line, without commas"
        } else {
            message = try scanner.skipWhitespace() == nil
                ? "trailing comma at the end of the input"
                : "comma between documents: put the documents in an array"
        }
        throw KuraError.document(.syntax, message, file: scanner.file, position: comma)
    }

    /// Parses `"key" :` with the cursor on the opening quote.
    @inline(__always)
    private mutating func parseKey() throws(KuraError) -> (String, TextPosition) {
        let keyPosition = scanner.position(at: scanner.pos)
        let key = try scanner.scanString(isKey: true)
        guard let c = try scanner.skipWhitespace() else { throw scanner.endError(" in object") }
        guard c == 0x3A else { throw scanner.unexpected(at: scanner.pos, " in object, expected ':'") }
        scanner.pos += 1
        return (key, keyPosition)
    }

    /// " in object" or " in array" for the innermost open container.
    private func context(_ outer: String) -> String {
        guard let top = frames.last else { return outer }
        return top.isObject ? " in object" : " in array"
    }
}
