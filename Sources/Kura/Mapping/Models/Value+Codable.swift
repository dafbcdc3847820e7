import Foundation

/// Values that other coders write as text and read back from it.
protocol TextCodable: Codable {
    init?(codableText: String)
    var codableText: String { get }
    static var textDescription: String { get }
}

extension TextCodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(codableText: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not \(Self.textDescription)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(codableText)
    }
}

/// Decimals encode as their canonical text in other coders.
extension Decimal128: TextCodable {
    init?(codableText: String) { self.init(codableText) }
    var codableText: String { description }
    static var textDescription: String { "a decimal" }
}

/// ObjectIds encode as 24 hexadecimal digits in other coders.
extension ObjectId: TextCodable {
    init?(codableText: String) { self.init(hex: codableText) }
    var codableText: String { hexString }
    static var textDescription: String { "an ObjectId" }
}

/// Mixed values encode as plain values in other coders; Kura's own coders keep every kind exactly.
extension Value: Codable {
    public init(from decoder: any Decoder) throws {
        if let direct = decoder as? ValueDecoder {
            self = direct.value
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([Value].self) {
            self = .list(items)
        } else {
            self = .map(try container.decode([String: Value].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .int(let number): try container.encode(number)
        case .float(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .date(let date): try container.encode(date)
        case .data(let bytes): try container.encode(bytes)
        case .decimal(let number): try container.encode(number)
        case .objectId(let id): try container.encode(id)
        case .uuid(let id): try container.encode(id)
        case .list(let items): try container.encode(items)
        case .map(let entries): try container.encode(entries)
        case .object(let ref): try container.encode(ref.description)
        }
    }
}
