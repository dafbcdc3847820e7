/// Binds the arguments of a predicate to its `%@` and `%K` placeholders, in order, as tokens.
///
/// A `%@` becomes one bound-value token (a list becomes `{v, …}` for `IN` and `BETWEEN`); a `%K`
/// becomes the tokens of a key path. Values never pass through text, so they cannot change the
/// predicate's meaning.
struct PredicateArguments {
    private let arguments: [Value]

    init(_ arguments: [Value]) {
        self.arguments = arguments
    }

    /// `tokens` with every placeholder replaced; throws when the placeholders and arguments do not
    /// pair up or an argument does not fit its placeholder.
    func bind(_ tokens: [PredicateToken]) throws(KuraError) -> [PredicateToken] {
        let placeholders = tokens.filter { if case .placeholder = $0.kind { true } else { false } }
        guard !placeholders.isEmpty || !arguments.isEmpty else { return tokens }
        let numbered = placeholders.filter { if case .placeholder(let text) = $0.kind { text.hasPrefix("$") } else { false } }
        if let first = numbered.first, numbered.count < placeholders.count {
            throw Self.error("\(Self.text(of: first)) and %@ cannot be mixed in one predicate: number every argument ($0, $1, …)", first.column)
        }
        var bound: [PredicateToken] = []
        bound.reserveCapacity(tokens.count)
        var next = 0
        var used = [Bool](repeating: false, count: arguments.count)
        for token in tokens {
            guard case .placeholder(let placeholder) = token.kind else {
                bound.append(token)
                continue
            }
            let index: Int
            if placeholder.hasPrefix("$") {
                guard let number = Int(placeholder.dropFirst()), number < arguments.count else {
                    throw Self.error(
                        "\(placeholder) has no argument: \(Self.count(arguments.count, "argument")) given, numbered from $0", token.column)
                }
                index = number
            } else {
                guard next < arguments.count else {
                    throw Self.error(
                        "placeholder \(placeholder) has no argument: \(Self.count(arguments.count, "argument")) given for "
                            + Self.count(placeholders.count, "placeholder"), token.column)
                }
                index = next
                next += 1
            }
            used[index] = true
            let argument = arguments[index]
            if placeholder == "%K" {
                bound += try keyPath(argument, column: token.column)
            } else {
                bound += try value(argument, placeholder: placeholder, column: token.column)
            }
        }
        if let unused = used.firstIndex(of: false) {
            let what = numbered.isEmpty
                ? "\(Self.count(arguments.count, "argument")) given for \(Self.count(placeholders.count, "placeholder")): "
                    + "argument \(unused + 1) (\(Self.describe(arguments[unused]))) has no placeholder"
                : "argument $\(unused) (\(Self.describe(arguments[unused]))) is not used: the predicate names no $\(unused)"
            throw KuraError.query(.argumentMismatch, what, in: .where)
        }
        return bound
    }

    private static func text(of token: PredicateToken) -> String {
        if case .placeholder(let text) = token.kind { return text }
        return ""
    }

    /// The tokens of the key path a `%K` argument names, all at the placeholder's column.
    private func keyPath(_ argument: Value, column: Int) throws(KuraError) -> [PredicateToken] {
        guard case .string(let path) = argument else {
            throw Self.error("placeholder %K takes a key path string, not \(Self.describe(argument))", column)
        }
        var tokens: [PredicateToken] = []
        for (position, part) in path.split(separator: ".", omittingEmptySubsequences: false).enumerated() {
            let isAggregate = part.hasPrefix("@")
            let name = isAggregate ? part.dropFirst() : part
            guard let first = name.unicodeScalars.first, PredicateLexer.isNameStart(first),
                name.unicodeScalars.allSatisfy(Identifier.isNameContinuation),
                !(isAggregate && position == 0)
            else {
                throw Self.error("placeholder %K takes a key path such as 'owner.name', not \(Self.describe(argument))", column)
            }
            if position > 0 { tokens.append(PredicateToken(kind: .symbol("."), column: column)) }
            tokens.append(PredicateToken(kind: isAggregate ? .aggregate(String(name)) : .identifier(String(name)), column: column))
        }
        return tokens
    }

    /// The tokens of a `%@` value: one bound literal, or `{…}` around a list's literals.
    private func value(_ argument: Value, placeholder: String, column: Int) throws(KuraError) -> [PredicateToken] {
        guard case .list(let items) = argument else {
            return [PredicateToken(kind: .bound(try literal(argument, placeholder: placeholder, column: column)), column: column)]
        }
        var tokens = [PredicateToken(kind: .symbol("{"), column: column)]
        for (position, item) in items.enumerated() {
            if position > 0 { tokens.append(PredicateToken(kind: .symbol(","), column: column)) }
            tokens.append(PredicateToken(kind: .bound(try literal(item, placeholder: placeholder, column: column)), column: column))
        }
        tokens.append(PredicateToken(kind: .symbol("}"), column: column))
        return tokens
    }

    private func literal(_ value: Value, placeholder: String, column: Int) throws(KuraError) -> PredicateLiteral.Value {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(String(number))
        case .float(let number): return .number(Self.numberText(Double(number)))
        case .double(let number): return .number(Self.numberText(number))
        case .decimal(let number): return .number(number.description)
        case .string(let text): return .string(text)
        case .date(let date): return .date(DateFormatting.milliseconds(date))
        case .objectId(let id): return .objectId(id)
        case .uuid(let id): return .uuid(id)
        default:
            throw Self.error("placeholder \(placeholder) cannot take \(Self.describe(value)): predicates compare scalar values", column)
        }
    }

    /// A double as number-literal text, with the names the lexer gives NaN and the infinities.
    private static func numberText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    /// An argument's kind and value, as messages show it.
    static func describe(_ value: Value) -> String {
        switch value {
        case .null: "nil"
        case .bool(let flag): "bool \(flag)"
        case .int(let number): "int \(number)"
        case .float(let number): "float \(number)"
        case .double(let number): "double \(number)"
        case .decimal(let number): "decimal \(number)"
        case .string(let text): "string \(PredicateLiteral.Value.quoted(text))"
        case .date(let date): "date \(DateFormatting.iso8601(date))"
        case .data(let bytes): "data of \(bytes.count) bytes"
        case .objectId(let id): "objectId oid(\(id.hexString))"
        case .uuid(let id): "uuid uuid(\(id.uuidString.lowercased()))"
        case .list: "a list"
        case .map: "a map"
        case .object(let ref): "object \(ref)"
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func error(_ message: String, _ column: Int) -> KuraError {
        KuraError.query(.argumentMismatch, message, in: .where, column: column)
    }
}
