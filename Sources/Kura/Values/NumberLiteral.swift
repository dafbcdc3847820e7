/// A JSON number literal: its exact text and the values it converts to.
///
/// A literal takes 17 bytes, so that a document node stays small: an integer within Int64's range
/// written as its decimal form is kept as the integer, any other JSON literal as its text (its
/// values worked out from it when asked, as the reader would), and anything else (a YAML spelling
/// such as `0x1F`, or parts that do not follow from the text) as its four parts, boxed.
public struct NumberLiteral: Sendable, Hashable {
    private enum Storage: Sendable {
        /// Text `String(value)`, an integer.
        case integer(Int64)
        /// A JSON number literal whose values follow from it.
        case json(String)
        case parts(Parts)
    }

    /// Parts that do not follow from the text.
    private final class Parts: Sendable {
        let text: String
        let isInteger: Bool
        let int64Value: Int64?
        let doubleValue: Double

        init(text: String, isInteger: Bool, int64Value: Int64?, doubleValue: Double) {
            self.text = text
            self.isInteger = isInteger
            self.int64Value = int64Value
            self.doubleValue = doubleValue
        }
    }

    private var storage: Storage

    /// Makes a number literal from parts the caller has already worked out.
    public init(text: String, isInteger: Bool, int64Value: Int64?, doubleValue: Double) {
        if isInteger, let value = int64Value, doubleValue.bitPattern == Double(value).bitPattern, text == String(value) {
            storage = .integer(value)
        } else if let values = JSONNumberText.values(of: text), values.isInteger == isInteger, values.int64Value == int64Value,
            values.doubleValue.bitPattern == doubleValue.bitPattern
        {
            storage = .json(text)
        } else {
            storage = .parts(Parts(text: text, isInteger: isInteger, int64Value: int64Value, doubleValue: doubleValue))
        }
    }

    /// A JSON integer literal within Int64's range, other than `-0`: its text is `String(value)`.
    init(integer value: Int64) {
        storage = .integer(value)
    }

    /// A valid JSON number literal; its values are worked out from the text when asked.
    init(json text: String) {
        storage = .json(text)
    }

    /// The literal exactly as written, e.g. `-1.50e3`.
    public var text: String {
        get {
            switch storage {
            case .integer(let value): String(value)
            case .json(let text): text
            case .parts(let parts): parts.text
            }
        }
        set { self = NumberLiteral(text: newValue, isInteger: isInteger, int64Value: int64Value, doubleValue: doubleValue) }
    }

    /// Whether the literal has neither a fraction nor an exponent.
    public var isInteger: Bool {
        get {
            switch storage {
            case .integer: true
            case .json(let text): JSONNumberText.isInteger(text)
            case .parts(let parts): parts.isInteger
            }
        }
        set { self = NumberLiteral(text: text, isInteger: newValue, int64Value: int64Value, doubleValue: doubleValue) }
    }

    /// The exact value when the literal is an integer within Int64's range, else nil.
    public var int64Value: Int64? {
        get {
            switch storage {
            case .integer(let value): value
            case .json(let text): JSONNumberText.values(of: text)?.int64Value
            case .parts(let parts): parts.int64Value
            }
        }
        set { self = NumberLiteral(text: text, isInteger: isInteger, int64Value: newValue, doubleValue: doubleValue) }
    }

    /// The nearest Double (correctly rounded; ±infinity when out of range).
    public var doubleValue: Double {
        get {
            switch storage {
            case .integer(let value): Double(value)
            case .json(let text): JSONNumberText.values(of: text)?.doubleValue ?? .nan
            case .parts(let parts): parts.doubleValue
            }
        }
        set { self = NumberLiteral(text: text, isInteger: isInteger, int64Value: int64Value, doubleValue: newValue) }
    }

    /// Equal when every part is.
    public static func == (lhs: NumberLiteral, rhs: NumberLiteral) -> Bool {
        if case .integer(let left) = lhs.storage, case .integer(let right) = rhs.storage { return left == right }
        return lhs.text == rhs.text && lhs.isInteger == rhs.isInteger && lhs.int64Value == rhs.int64Value
            && lhs.doubleValue == rhs.doubleValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(isInteger)
        hasher.combine(int64Value)
        hasher.combine(doubleValue)
    }
}
