import Foundation

/// One token of a predicate or sort key, with the column it starts at.
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A name or a keyword; the parser tells them apart, case-insensitively for keywords.
        case identifier(String)
        /// `@count` and the other `@` names, without the `@`.
        case aggregate(String)
        case string(String)
        /// A number as written: its type is settled only once the property it is compared with is known.
        case number(String)
        /// A typed timestamp literal, in milliseconds since 1970.
        case date(Int64)
        case objectId(ObjectId)
        case uuid(UUID)
        /// An operator or punctuation, with `=`, `<>`, `=<` and `=>` spelled `==`, `!=`, `<=`, `>=`.
        case symbol(String)
        /// `%@` (a value), `%K` (a key path) or `$0`, `$1` … (the argument of that index),
        /// replaced by `PredicateArguments` before parsing.
        case placeholder(String)
        /// A value bound to a `%@` placeholder: never text, so nothing in it is read as syntax.
        case bound(PredicateLiteral.Value)
        /// `$x`: a SUBQUERY's variable, without the `$`.
        case variable(String)
        case end
    }

    let kind: Kind
    /// The 1-based column, counted in Unicode scalars.
    let column: Int
}

/// Splits predicate text into tokens.
struct PredicateLexer {
    private let scalars: [Unicode.Scalar]
    private let source: KuraError.QueryPart
    private var index = 0

    init(_ text: String, source: KuraError.QueryPart) {
        self.scalars = Array(text.unicodeScalars)
        self.source = source
    }

    /// Every token of the text, ending with `.end`.
    mutating func tokens() throws(KuraError) -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(KuraError) -> PredicateToken {
        while let scalar = peek(), scalar.properties.isWhitespace { index += 1 }
        let start = index
        let column = start + 1
        guard let scalar = peek() else { return PredicateToken(kind: .end, column: column) }
        if scalar == "'" || scalar == "\"" {
            return PredicateToken(kind: .string(try string(quote: scalar)), column: column)
        }
        if scalar == "T", let millis = try timestampAfterT() {
            return PredicateToken(kind: .date(millis), column: column)
        }
        if scalar == "-", let special = negativeSpecialNumber() {
            return PredicateToken(kind: .number(special), column: column)
        }
        if Self.isDigit(scalar) || (scalar == "-" && peek(1).map(Self.isDigit) == true) {
            if let millis = try dateLiteral() { return PredicateToken(kind: .date(millis), column: column) }
            return PredicateToken(kind: .number(number()), column: column)
        }
        if Self.isNameStart(scalar) {
            let name = identifier()
            if peek() == "(", ["oid", "uuid"].contains(name.lowercased()) {
                return PredicateToken(kind: try typedLiteral(name.lowercased(), column: column), column: column)
            }
            return PredicateToken(kind: .identifier(name), column: column)
        }
        if scalar == "@" {
            index += 1
            guard let first = peek(), Self.isNameStart(first) else { throw error("expected a name after '@'", column) }
            return PredicateToken(kind: .aggregate(identifier()), column: column)
        }
        if scalar == "%", let kind = peek(1), kind == "@" || kind == "K" {
            index += 2
            return PredicateToken(kind: .placeholder("%" + String(kind)), column: column)
        }
        if scalar == "$" {
            index += 1
            if let first = peek(), Self.isDigit(first) {
                var digits = ""
                while let digit = peek(), Self.isDigit(digit) {
                    digits.unicodeScalars.append(digit)
                    index += 1
                }
                return PredicateToken(kind: .placeholder("$" + digits), column: column)
            }
            guard let first = peek(), Self.isNameStart(first) else {
                throw error("expected an argument number such as $0 or a variable name after '$'", column)
            }
            return PredicateToken(kind: .variable(identifier()), column: column)
        }
        return PredicateToken(kind: .symbol(try symbol()), column: column)
    }

    // MARK: Names, numbers, symbols

    private mutating func identifier() -> String {
        var name = ""
        while let scalar = peek(), Identifier.isNameContinuation(scalar) {
            name.unicodeScalars.append(scalar)
            index += 1
        }
        return name
    }

    /// The names of numbers that have no digits (any case), with their text as a number literal.
    static let specialNumbers = ["nan": "NaN", "inf": "Infinity", "infinity": "Infinity"]

    /// `-inf`, `-infinity` or `-nan` (any case) as `-Infinity` or `NaN`, consumed; `nil`, consuming
    /// nothing, for any other `-`.
    private mutating func negativeSpecialNumber() -> String? {
        var end = index + 1
        var word = ""
        while end < scalars.count, Self.isNameStart(scalars[end]) || Self.isDigit(scalars[end]) {
            word.unicodeScalars.append(scalars[end])
            end += 1
        }
        guard let special = Self.specialNumbers[word.lowercased()] else { return nil }
        index = end
        return special == "NaN" ? special : "-" + special
    }

    /// `-?digits(.digits)?([eE][+-]?digits)?`, as written.
    private mutating func number() -> String {
        var text = ""
        func take(_ predicate: (Unicode.Scalar) -> Bool) {
            while let scalar = peek(), predicate(scalar) {
                text.unicodeScalars.append(scalar)
                index += 1
            }
        }
        if peek() == "-" {
            text = "-"
            index += 1
        }
        take(Self.isDigit)
        if peek() == ".", peek(1).map(Self.isDigit) == true {
            text += "."
            index += 1
            take(Self.isDigit)
        }
        if let marker = peek(), marker == "e" || marker == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if peek(signed ? 2 : 1).map(Self.isDigit) == true {
                text.unicodeScalars.append(marker)
                if signed, let sign = peek(1) { text.unicodeScalars.append(sign) }
                index += signed ? 2 : 1
                take(Self.isDigit)
            }
        }
        return text
    }

    private static let twoCharacterSymbols: [String: String] = [
        "==": "==", "!=": "!=", "<>": "!=", "<=": "<=", "=<": "<=", ">=": ">=", "=>": ">=", "&&": "&&", "||": "||",
    ]
    private static let oneCharacterSymbols: Set<String> = [
        "=", "<", ">", "!", "(", ")", "{", "}", ",", ".", "[", "]", "+", "-", "*", "/",
    ]

    private mutating func symbol() throws(KuraError) -> String {
        let column = index + 1
        if let first = peek(), let second = peek(1),
            let spelled = Self.twoCharacterSymbols[String(first) + String(second)]
        {
            index += 2
            return spelled
        }
        guard let scalar = peek() else { throw error("unexpected end of text", column) }
        let text = String(scalar)
        guard Self.oneCharacterSymbols.contains(text) else {
            throw error("unexpected character '\(text)'", column)
        }
        index += 1
        return text == "=" ? "==" : text
    }

    // MARK: Strings

    /// A single- or double-quoted string with `\` escapes.
    private mutating func string(quote: Unicode.Scalar) throws(KuraError) -> String {
        let column = index + 1
        index += 1
        var text = ""
        while let scalar = peek() {
            index += 1
            if scalar == quote { return text }
            guard scalar == "\\" else {
                text.unicodeScalars.append(scalar)
                continue
            }
            guard let escaped = peek() else { break }
            index += 1
            switch escaped {
            case "\\", "'", "\"": text.unicodeScalars.append(escaped)
            case "n": text += "\n"
            case "t": text += "\t"
            case "r": text += "\r"
            case "0": text += "\u{0}"
            case "u": text.unicodeScalars.append(try unicodeEscape(column: index - 1))
            default: throw error("unknown escape '\\\(escaped)' in a string", index - 1)
            }
        }
        throw error("unterminated string", column)
    }

    /// The four hex digits after `\u`.
    private mutating func unicodeEscape(column: Int) throws(KuraError) -> Unicode.Scalar {
        guard index + 4 <= scalars.count,
            let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
            let scalar = Unicode.Scalar(value)
        else { throw error("'\\u' needs four hexadecimal digits of a Unicode scalar", column) }
        index += 4
        return scalar
    }

    // MARK: Typed literals

    /// `oid(<24 hex digits>)` or `uuid(<canonical uuid>)`; `index` is at the `(`.
    private mutating func typedLiteral(_ kind: String, column: Int) throws(KuraError) -> PredicateToken.Kind {
        index += 1
        var text = ""
        while let scalar = peek(), scalar != ")" {
            text.unicodeScalars.append(scalar)
            index += 1
        }
        guard peek() == ")" else { throw error("\(kind)( is not closed with ')'", column) }
        index += 1
        let inner = text.trimmingCharacters(in: .whitespaces)
        if kind == "oid" {
            guard let id = ObjectId(hex: inner) else {
                throw error("oid(\(inner)) is not an object id: it needs 24 hexadecimal digits", column)
            }
            return .objectId(id)
        }
        guard let id = UUID(uuidString: inner) else { throw error("uuid(\(inner)) is not a UUID", column) }
        return .uuid(id)
    }

    /// Realm's `T<seconds>:<nanoseconds>` or `T<ISO-8601>`; `nil` (consuming nothing) when the `T` starts a name.
    private mutating func timestampAfterT() throws(KuraError) -> Int64? {
        guard let next = peek(1), Self.isDigit(next) || (next == "-" && peek(2).map(Self.isDigit) == true) else {
            return nil
        }
        let word = wordLength(from: index + 1)
        let text = String(String.UnicodeScalarView(scalars[(index + 1)..<(index + 1 + word)]))
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, let seconds = Int64(parts[0]), let nanos = Int64(parts[1]) {
            index += 1 + word
            let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            guard !overflow else { throw error("timestamp T\(text) is out of range", index - word) }
            return millis + nanos / 1_000_000
        }
        if let millis = DateFormatting.parseISO8601(text) {
            index += 1 + word
            return millis
        }
        return nil
    }

    /// `YYYY-MM-DD@HH:MM:SS[:NANOS]` or `YYYY-MM-DDTHH:MM:SS[:NANOS]` (Realm's forms) or an unquoted ISO-8601 date-time; `nil`
    /// (consuming nothing) when the text at `index` does not start with `YYYY-`.
    private mutating func dateLiteral() throws(KuraError) -> Int64? {
        guard index + 4 < scalars.count, scalars[index..<index + 4].allSatisfy(Self.isDigit), scalars[index + 4] == "-" else {
            return nil
        }
        let column = index + 1
        let word = wordLength(from: index)
        let text = String(String.UnicodeScalarView(scalars[index..<(index + word)]))
        index += word
        if let millis = DateFormatting.parseISO8601(text) ?? Self.realmTimestamp(text) { return millis }
        throw error("'\(text)' is not a date: write YYYY-MM-DD@HH:MM:SS or an ISO-8601 date-time", column)
    }

    /// Milliseconds for `YYYY-MM-DD@H:M:S[:NANOS]` in UTC; `T` may stand for the `@`.
    private static func realmTimestamp(_ text: String) -> Int64? {
        let halves = text.split(omittingEmptySubsequences: false) { $0 == "@" || $0 == "T" }
        guard halves.count == 2 else { return nil }
        let day = halves[0].split(separator: "-", omittingEmptySubsequences: false).compactMap { UInt32($0) }
        let time = halves[1].split(separator: ":", omittingEmptySubsequences: false).compactMap { UInt32($0) }
        guard day.count == 3, time.count == 3 || time.count == 4 else { return nil }
        func padded(_ number: UInt32, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let iso = padded(day[0], 4) + "-" + padded(day[1], 2) + "-" + padded(day[2], 2) + "T" + padded(time[0], 2) + ":"
            + padded(time[1], 2) + ":" + padded(time[2], 2) + "Z"
        guard let millis = DateFormatting.parseISO8601(iso) else { return nil }
        return millis + (time.count == 4 ? Int64(time[3] / 1_000_000) : 0)
    }

    /// How many scalars from `start` up to whitespace, a closing bracket, a comma or the end.
    private func wordLength(from start: Int) -> Int {
        var end = start
        while end < scalars.count, !scalars[end].properties.isWhitespace, ![")", "}", ",", "]"].contains(scalars[end]) {
            end += 1
        }
        return end - start
    }

    // MARK: Helpers

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func error(_ message: String, _ column: Int) -> KuraError {
        KuraError.query(.syntax, message, in: source, column: column)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 48 && scalar.value <= 57 }

    /// Names are those of the schema: letters of any script, marks, digits and `_` (see `Identifier`).
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool { Identifier.isNameStart(scalar) }

    /// A word as keywords are matched: ASCII letters in upper case, nothing else changed, so that
    /// no name in another script can turn into a keyword (`ın` is not `IN`).
    static func keyword(_ word: String) -> String {
        guard word.utf8.contains(where: { $0 >= 97 && $0 <= 122 }) else { return word }
        return String(decoding: word.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
