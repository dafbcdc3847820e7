import Foundation

/// Resolves YAML scalars the way Yams' default resolver does (YAML 1.1 core rules: bool, int,
/// float, merge, null, timestamp, value), hand-matched on bytes because running Yams'
/// regular expressions on every scalar would dominate the reading time.
enum YAMLScalarResolver {
    /// The tag a plain, untagged scalar resolves to.
    enum Resolved: Equatable {
        case null
        case bool(Bool)
        case int
        case float
        case merge
        case timestamp
        case value
        case string
    }

    /// Resolves a plain scalar; the rules are tried in Yams' order.
    static func resolve(_ text: String) -> Resolved {
        var text = text
        return text.withUTF8 { b in
            guard let first = b.first else { return .null }
            // Most scalars are words; only these first bytes can start a non-string.
            switch first {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: "="),
                UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"),
                UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"):
                break
            default:
                return .string
            }
            if let value = boolValue(b) { return .bool(value) }
            if matchesInt(b) { return .int }
            if matchesFloat(b) { return .float }
            if b.count == 2 && b[0] == UInt8(ascii: "<") && b[1] == UInt8(ascii: "<") { return .merge }
            if isNull(b) { return .null }
            if timestampISO(b) != nil { return .timestamp }
            if b.count == 1 && first == UInt8(ascii: "=") { return .value }
            return .string
        }
    }

    // MARK: - Bool and null

    private static let trueWords: Set<String> = ["yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]
    private static let falseWords: Set<String> = ["no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]

    /// The value of a YAML 1.1 bool word, or nil.
    static func boolValue(_ text: String) -> Bool? {
        if trueWords.contains(text) { return true }
        if falseWords.contains(text) { return false }
        return nil
    }

    private static func boolValue(_ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard b.count >= 2 && b.count <= 5 else { return nil }
        return boolValue(String(decoding: b, as: UTF8.self))
    }

    /// Whether the text is `~`, `null`, `Null`, `NULL` or empty.
    static func isNull(_ text: String) -> Bool {
        text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    private static func isNull(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        b.count <= 4 && isNull(String(decoding: b, as: UTF8.self))
    }

    // MARK: - Numbers

    /// Matches `[-+]?(0b[01_]+ | 0o?[0-7_]+ | 0 | [1-9][0-9_]* | 0x[0-9a-fA-F_]+ | [1-9][0-9_]*(:[0-5]?[0-9])+)`.
    static func matchesInt(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: "0") {
            if i + 1 == b.count { return true }
            let next = b[i + 1]
            if next == UInt8(ascii: "b") { return all(b, from: i + 2, atLeastOne: true) { $0 == 0x30 || $0 == 0x31 || $0 == 0x5F } }
            if next == UInt8(ascii: "x") { return all(b, from: i + 2, atLeastOne: true) { isHex($0) || $0 == 0x5F } }
            let start = next == UInt8(ascii: "o") ? i + 2 : i + 1
            return all(b, from: start, atLeastOne: true) { ($0 >= 0x30 && $0 <= 0x37) || $0 == 0x5F }
        }
        guard b[i] >= UInt8(ascii: "1") && b[i] <= UInt8(ascii: "9") else { return false }
        i += 1
        while i < b.count && (isDigit(b[i]) || b[i] == 0x5F) { i += 1 }
        if i == b.count { return true }
        return matchesSexagesimalTail(b, from: i) == b.count
    }

    /// Matches `(:[0-5]?[0-9])+` from `start`; returns where the match ends, or nil.
    private static func matchesSexagesimalTail(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        var groups = 0
        while i < b.count && b[i] == UInt8(ascii: ":") {
            var j = i + 1
            if j + 1 < b.count && b[j] >= 0x30 && b[j] <= 0x35 && isDigit(b[j + 1]) {
                j += 2
            } else if j < b.count && isDigit(b[j]) {
                j += 1
            } else {
                break
            }
            i = j
            groups += 1
        }
        return groups > 0 ? i : nil
    }

    /// Matches Yams' float rule: `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`,
    /// `\.[0-9_]+([eE][-+][0-9]+)?`, sexagesimal `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`,
    /// `[-+]?\.(inf|Inf|INF)` and `\.(nan|NaN|NAN)`.
    static func matchesFloat(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if isInfinityOrNaN(b) { return true }
        var i = 0
        let signed = i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"))
        if signed { i += 1 }
        guard i < b.count else { return false }
        if b[i] == UInt8(ascii: ".") {
            guard !signed else { return false }
            var j = i + 1
            let digitsStart = j
            while j < b.count && (isDigit(b[j]) || b[j] == 0x5F) { j += 1 }
            guard j > digitsStart else { return false }
            if j == b.count { return true }
            guard b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E"), j + 1 < b.count,
                b[j + 1] == UInt8(ascii: "+") || b[j + 1] == UInt8(ascii: "-")
            else { return false }
            return all(b, from: j + 2, atLeastOne: true, isDigit)
        }
        guard isDigit(b[i]) else { return false }
        i += 1
        while i < b.count && (isDigit(b[i]) || b[i] == 0x5F) { i += 1 }
        if i == b.count { return true }
        if b[i] == UInt8(ascii: ":") {
            guard let end = matchesSexagesimalTail(b, from: i), end < b.count, b[end] == UInt8(ascii: ".") else {
                return false
            }
            return all(b, from: end + 1, atLeastOne: false) { isDigit($0) || $0 == 0x5F }
        }
        if b[i] == UInt8(ascii: ".") {
            i += 1
            while i < b.count && (isDigit(b[i]) || b[i] == 0x5F) { i += 1 }
            if i == b.count { return true }
        }
        guard b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") else { return false }
        i += 1
        if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
        return all(b, from: i, atLeastOne: true, isDigit)
    }

    /// Whether the text is one of YAML's `.inf` or `.nan` spellings.
    static func isInfinityOrNaN(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count >= 4 && b.count <= 5 else { return false }
        var text = String(decoding: b, as: UTF8.self)
        if text.first == "+" || text.first == "-" { text.removeFirst() }
        switch text {
        case ".inf", ".Inf", ".INF": return true
        case ".nan", ".NaN", ".NAN": return b.count == 4
        default: return false
        }
    }

    /// The number of a scalar matching the int rule: text kept as written, `int64Value` the value
    /// in its radix (`0x`, `0b`, `0o`/leading `0` octal, `:` sexagesimal) or nil beyond Int64.
    static func integer(_ text: String) -> NumberLiteral {
        var digits = Array(text.utf8.filter { $0 != 0x5F })
        var negative = false
        if let first = digits.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            digits.removeFirst()
        }
        var radix: UInt64 = 10
        var sexagesimal = false
        if digits.count > 1 && digits[0] == UInt8(ascii: "0") {
            switch digits[1] {
            case UInt8(ascii: "x"): radix = 16; digits.removeFirst(2)
            case UInt8(ascii: "b"): radix = 2; digits.removeFirst(2)
            case UInt8(ascii: "o"): radix = 8; digits.removeFirst(2)
            default: radix = 8; digits.removeFirst(1)
            }
        } else if digits.contains(UInt8(ascii: ":")) {
            sexagesimal = true
        }
        var magnitude: UInt64? = 0
        var double = 0.0
        if sexagesimal {
            // Each `:` group is a base-60 digit written in decimal.
            var group: UInt64 = 0
            for byte in digits + [UInt8(ascii: ":")] {
                if byte == UInt8(ascii: ":") {
                    magnitude = magnitude.flatMap { multiplyAdd($0, 60, group) }
                    double = double * 60 + Double(group)
                    group = 0
                } else {
                    group = group &* 10 &+ UInt64(byte - 0x30)
                }
            }
        } else {
            for byte in digits {
                let digit = UInt64(hexValue(byte))
                magnitude = magnitude.flatMap { multiplyAdd($0, radix, digit) }
                double = double * Double(radix) + Double(digit)
            }
            if radix == 10, let exact = Double(String(decoding: digits, as: UTF8.self)) {
                double = exact
            }
        }
        var int64: Int64?
        if let magnitude {
            if negative {
                if magnitude <= UInt64(Int64.max) { int64 = -Int64(magnitude) } else if magnitude == UInt64(Int64.max) + 1 { int64 = .min }
            } else if magnitude <= UInt64(Int64.max) {
                int64 = Int64(magnitude)
            }
        }
        return NumberLiteral(text: text, isInteger: true, int64Value: int64, doubleValue: negative ? -double : double)
    }

    /// The number of a scalar matching the float (or int) rule, or nil for `.inf`, `.nan` and
    /// text that has no value.
    static func float(_ text: String) -> NumberLiteral? {
        var bytes = Array(text.utf8)
        if bytes.withUnsafeBufferPointer(isInfinityOrNaN) { return nil }
        bytes.removeAll { $0 == 0x5F }
        var value: Double?
        if bytes.contains(UInt8(ascii: ":")) {
            var negative = false
            if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
                negative = first == UInt8(ascii: "-")
                bytes.removeFirst()
            }
            var total = 0.0
            for part in bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
                guard let partValue = Double(String(decoding: part, as: UTF8.self)) else { return nil }
                total = total * 60 + partValue
            }
            value = negative ? -total : total
        } else {
            value = Double(String(decoding: bytes, as: UTF8.self))
        }
        guard let value, !value.isNaN else { return nil }
        return NumberLiteral(text: text, isInteger: false, int64Value: nil, doubleValue: value)
    }

    // MARK: - Timestamps and binary

    /// Milliseconds since the epoch (UTC) of a YAML timestamp, or why it is not a date Kura holds
    /// exactly (see `DateFormatting.checkedISO8601`). A timestamp without a time zone is UTC.
    static func checkedTimestamp(_ text: String) -> Result<Int64, DateFormatting.Problem> {
        var text = text
        return text.withUTF8 { b in
            timestampISO(b).map(DateFormatting.checkedISO8601) ?? .failure(.invalid)
        }
    }

    /// Matches Yams' timestamp rule and rewrites the text as the ISO-8601 form
    /// `DateFormatting.parseISO8601` reads (two-digit fields, `T`, an explicit zone).
    static func timestampISO(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard b.count >= 8, b.count <= 64, isDigit(b[0]) else { return nil }
        var i = 0
        func digits(min: Int, max: Int) -> String? {
            let start = i
            while i < b.count && i - start < max && isDigit(b[i]) { i += 1 }
            guard i - start >= min else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            return text.count < max ? String(repeating: "0", count: max - text.count) + text : text
        }
        func take(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue else { return false }
            i += 1
            return true
        }
        guard let year = digits(min: 4, max: 4), take("-"), let month = digits(min: 1, max: 2), take("-"),
            let day = digits(min: 1, max: 2)
        else { return nil }
        let date = year + "-" + month + "-" + day
        if i == b.count {
            // A date alone needs two-digit month and day.
            return b.count == 10 ? date : nil
        }
        if !take("T") && !take("t") {
            let start = i
            while i < b.count && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
            guard i > start else { return nil }
        }
        guard let hour = digits(min: 1, max: 2), take(":"), let minute = digits(min: 2, max: 2), take(":"),
            let second = digits(min: 2, max: 2)
        else { return nil }
        var result = date + "T" + hour + ":" + minute + ":" + second
        if take(".") {
            let start = i
            while i < b.count && isDigit(b[i]) { i += 1 }
            if i > start {
                result += "." + String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            }
        }
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09) { i += 1 }
        if i == b.count {
            // Whitespace may only come before a zone.
            return b[b.count - 1] == 0x20 || b[b.count - 1] == 0x09 ? nil : result + "Z"
        }
        if take("Z") {
            return i == b.count ? result + "Z" : nil
        }
        guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return nil }
        let sign = b[i] == UInt8(ascii: "+") ? "+" : "-"
        i += 1
        guard let zoneHour = digits(min: 1, max: 2) else { return nil }
        var zoneMinute = "00"
        if take(":") {
            guard let parsed = digits(min: 2, max: 2) else { return nil }
            zoneMinute = parsed
        }
        return i == b.count ? result + sign + zoneHour + ":" + zoneMinute : nil
    }

    /// Decodes a `!!binary` scalar: base64 with any line breaks and spaces ignored.
    static func binary(_ text: String) -> Data? {
        let compact = text.unicodeScalars.filter { $0 != " " && $0 != "\t" && $0 != "\n" && $0 != "\r" }
        return Data(base64Encoded: String(String.UnicodeScalarView(compact)))
    }

    // MARK: - Bytes

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static func isHex(_ c: UInt8) -> Bool {
        isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
    }

    private static func hexValue(_ c: UInt8) -> UInt8 {
        if isDigit(c) { return c - 0x30 }
        if c >= 0x61 { return c - 0x61 + 10 }
        return c - 0x41 + 10
    }

    private static func all(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, atLeastOne: Bool, _ predicate: (UInt8) -> Bool
    ) -> Bool {
        if atLeastOne && start >= b.count { return false }
        var i = start
        while i < b.count {
            if !predicate(b[i]) { return false }
            i += 1
        }
        return true
    }

    private static func multiplyAdd(_ value: UInt64, _ factor: UInt64, _ add: UInt64) -> UInt64? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        let (sum, overflow2) = product.addingReportingOverflow(add)
        return overflow2 ? nil : sum
    }
}
