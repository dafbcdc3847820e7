/// A value as the key of a dictionary or set, telling strings apart byte by byte as SQLite and
/// Realm do. Swift's `==` on `String` takes canonically equivalent strings (NFC and NFD `café`)
/// for equal, which would merge primary keys, references or set elements that a realm keeps apart.
struct ExactValue: Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (lhs: ExactValue, rhs: ExactValue) -> Bool {
        switch (lhs.value, rhs.value) {
        case (.string(let left), .string(let right)):
            return ExactText.equal(left, right)
        case (.list(let left), .list(let right)):
            // One level deep, which covers the keys built of parts (a type and a primary key).
            return left.count == right.count && zip(left, right).allSatisfy(elementsEqual)
        default:
            return lhs.value == rhs.value
        }
    }

    func hash(into hasher: inout Hasher) {
        switch value {
        case .string(let text):
            ExactText.hash(text, into: &hasher)
        case .list(let items):
            hasher.combine(items.count)
            for item in items {
                if case .string(let text) = item { ExactText.hash(text, into: &hasher) } else { hasher.combine(item) }
            }
        default:
            hasher.combine(value)
        }
    }

    private static func elementsEqual(_ left: Value, _ right: Value) -> Bool {
        if case .string(let leftText) = left, case .string(let rightText) = right { return ExactText.equal(leftText, rightText) }
        return left == right
    }
}

/// Byte-wise equality and hashing of strings.
enum ExactText {
    static func equal(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count && left.utf8.elementsEqual(right.utf8)
    }

    static func hash(_ text: String, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)
    }
}
