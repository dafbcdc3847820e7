/// Parses Realm-style predicate text (an NSPredicate subset) into a `ParsedPredicate`.
///
/// Precedence is `NOT` over `AND` over `OR`; keywords are case-insensitive. Parentheses and `NOT`s
/// may nest at most `maxNesting` deep, which bounds both this parser's recursion and the SQL
/// the predicate compiles to (SQLite's parser has a fixed stack).
struct PredicateParser {
    static let maxNesting = 32

    private let tokens: [PredicateToken]
    private var position = 0
    private var nesting = 0

    init(_ text: String, arguments: [Value]) throws(KuraError) {
        var lexer = PredicateLexer(text, source: .where)
        tokens = try PredicateArguments(arguments).bind(lexer.tokens())
    }

    /// The whole text as one predicate, its `%@` and `%K` placeholders taking `arguments` in order.
    static func parse(_ text: String, arguments: [Value] = []) throws(KuraError) -> ParsedPredicate {
        var parser = try PredicateParser(text, arguments: arguments)
        guard parser.current.kind != .end else { throw syntax("the predicate is empty", 1) }
        let predicate = try parser.parseOr()
        guard parser.current.kind == .end else { throw parser.unexpected("AND, OR or the end of the predicate") }
        return predicate
    }

    // MARK: Logic

    private mutating func parseOr() throws(KuraError) -> ParsedPredicate {
        var terms = [try parseAnd()]
        while isKeyword("OR") || isSymbol("||") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    private mutating func parseAnd() throws(KuraError) -> ParsedPredicate {
        var terms = [try parseUnary()]
        while isKeyword("AND") || isSymbol("&&") {
            advance()
            terms.append(try parseUnary())
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseUnary() throws(KuraError) -> ParsedPredicate {
        if isKeyword("NOT") || isSymbol("!") {
            try enterNesting()
            advance()
            let operand = try parseUnary()
            nesting -= 1
            return .not(operand)
        }
        if isSymbol("(") {
            try enterNesting()
            advance()
            let inner = try parseOr()
            guard isSymbol(")") else { throw unexpected("')'") }
            advance()
            nesting -= 1
            return inner
        }
        if isKeyword("TRUEPREDICATE") {
            advance()
            return .constant(true)
        }
        if isKeyword("FALSEPREDICATE") {
            advance()
            return .constant(false)
        }
        return .comparison(try parseComparison())
    }

    private mutating func enterNesting() throws(KuraError) {
        nesting += 1
        if nesting > Self.maxNesting {
            throw KuraError.query(
                .tooComplex, "the predicate nests more than \(Self.maxNesting) levels of parentheses and NOT",
                in: .where, column: current.column)
        }
    }

    // MARK: Comparisons

    private static let quantifiers: [String: PredicateQuantifier.Kind] = ["ANY": .any, "SOME": .any, "ALL": .all, "NONE": .none]

    private mutating func parseComparison() throws(KuraError) -> PredicateComparison {
        if let literal = try parseLiteralIfPresent() {
            return try parseSwappedComparison(literal)
        }
        var quantifier: PredicateQuantifier?
        if case .identifier(let word) = current.kind, let kind = Self.quantifiers[PredicateLexer.keyword(word)],
            case .identifier = peek(1).kind
        {
            quantifier = PredicateQuantifier(kind: kind, word: PredicateLexer.keyword(word), column: current.column)
            advance()
        }
        let keyPath = try parseKeyPath()
        let column = current.column
        let op = try parseOperator()
        let caseInsensitive = try parseModifier()
        let operand: PredicateOperand
        switch op {
        case .in, .between:
            operand = try parseList(for: op)
        default:
            guard let literal = try parseLiteralIfPresent(operand: true) else {
                if case .identifier = current.kind {
                    throw Self.syntax("comparing two key paths is not supported: compare a key path with a value", current.column)
                }
                throw unexpected("a value after '\(op.spelling)'")
            }
            operand = .literal(literal)
        }
        return PredicateComparison(
            quantifier: quantifier, keyPath: keyPath, op: op, caseInsensitive: caseInsensitive, operand: operand, column: column)
    }

    /// `3 < age` as `age > 3`, and `'Oslo' IN citiesVisited` as `ANY citiesVisited == 'Oslo'`.
    private mutating func parseSwappedComparison(_ literal: PredicateLiteral) throws(KuraError) -> PredicateComparison {
        let column = current.column
        let op = try parseOperator()
        let caseInsensitive = try parseModifier()
        var quantifier: PredicateQuantifier?
        let swapped: ComparisonOperator
        if op == .in {
            quantifier = PredicateQuantifier(kind: .any, word: "IN", column: column)
            swapped = .equal
        } else if let reversed = op.swapped {
            swapped = reversed
        } else {
            throw Self.syntax("a value cannot come before \(op.spelling): write the key path first", column)
        }
        guard case .identifier = current.kind else { throw unexpected("a key path after '\(op.spelling)'") }
        let keyPath = try parseKeyPath()
        return PredicateComparison(
            quantifier: quantifier, keyPath: keyPath, op: swapped, caseInsensitive: caseInsensitive,
            operand: .literal(literal), column: column)
    }

    private mutating func parseKeyPath() throws(KuraError) -> PredicateKeyPath {
        var components: [PredicateKeyPath.Component] = []
        while true {
            switch current.kind {
            case .identifier(let name) where !(components.isEmpty && Self.reserved.contains(PredicateLexer.keyword(name))):
                components.append(.init(name: name, isAggregate: false, column: current.column))
            case .aggregate(let name) where !components.isEmpty:
                components.append(.init(name: name, isAggregate: true, column: current.column))
            default:
                throw unexpected(components.isEmpty ? "a key path" : "a property name after '.'")
            }
            advance()
            guard isSymbol(".") else { return PredicateKeyPath(components: components) }
            advance()
        }
    }

    /// Words that cannot start a key path (after a `.`, they are ordinary property names).
    private static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    private static let symbolOperators: [String: ComparisonOperator] = [
        "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
    ]
    private static let wordOperators: [String: ComparisonOperator] = [
        "BEGINSWITH": .beginsWith, "CONTAINS": .contains, "ENDSWITH": .endsWith, "LIKE": .like, "IN": .in,
        "BETWEEN": .between,
    ]

    private mutating func parseOperator() throws(KuraError) -> ComparisonOperator {
        let found: ComparisonOperator?
        switch current.kind {
        case .symbol(let symbol): found = Self.symbolOperators[symbol]
        case .identifier(let word): found = Self.wordOperators[PredicateLexer.keyword(word)]
        default: found = nil
        }
        guard let found else { throw unexpected("a comparison operator") }
        advance()
        return found
    }

    /// `[c]` after an operator; `[d]` and `[cd]` are refused since Kura does not fold diacritics.
    private mutating func parseModifier() throws(KuraError) -> Bool {
        guard isSymbol("[") else { return false }
        let column = current.column
        advance()
        guard case .identifier(let flags) = current.kind else { throw unexpected("c inside '[ ]'") }
        advance()
        guard isSymbol("]") else { throw unexpected("']'") }
        advance()
        switch flags.lowercased() {
        case "c": return true
        case "d", "cd", "dc":
            throw KuraError.query(
                .unsupportedOperator, "[\(flags)]: diacritic-insensitive comparison is not supported", in: .where, column: column)
        default:
            throw Self.syntax("unknown modifier [\(flags)]: only [c] is supported", column)
        }
    }

    /// `{a, b, …}`: any number of values for IN, exactly two for BETWEEN.
    private mutating func parseList(for op: ComparisonOperator) throws(KuraError) -> PredicateOperand {
        let column = current.column
        guard isSymbol("{") else {
            if op == .in, case .identifier = current.kind {
                throw Self.syntax("IN needs a list of values in braces, such as {1, 2}", current.column)
            }
            throw unexpected("'{' after \(op.spelling)")
        }
        advance()
        var items: [PredicateLiteral] = []
        if !isSymbol("}") {
            while true {
                guard let literal = try parseLiteralIfPresent(operand: true) else { throw unexpected("a value in the list") }
                items.append(literal)
                if isSymbol("}") { break }
                guard isSymbol(",") else { throw unexpected("',' or '}'") }
                advance()
            }
        }
        advance()
        if op == .between && items.count != 2 {
            throw Self.syntax("BETWEEN needs two values, such as {1, 5}", column)
        }
        return .list(items, column: column)
    }

    /// The literal at the current token, if it is one. Where only a value may stand (`operand`),
    /// `NaN`, `inf` and `infinity` (any case) are numbers too, as in Realm; elsewhere they stay names.
    private mutating func parseLiteralIfPresent(operand: Bool = false) throws(KuraError) -> PredicateLiteral? {
        let value: PredicateLiteral.Value
        switch current.kind {
        case .string(let text): value = .string(text)
        case .number(let text): value = .number(text)
        case .date(let millis): value = .date(millis)
        case .objectId(let id): value = .objectId(id)
        case .uuid(let id): value = .uuid(id)
        case .bound(let bound): value = bound
        case .identifier(let word):
            switch PredicateLexer.keyword(word) {
            case "TRUE": value = .bool(true)
            case "FALSE": value = .bool(false)
            case "NIL", "NULL": value = .null
            default:
                guard operand, let special = PredicateLexer.specialNumbers[word.lowercased()] else { return nil }
                value = .number(special)
            }
        default:
            return nil
        }
        let literal = PredicateLiteral(value: value, column: current.column)
        advance()
        return literal
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[position] }

    private func peek(_ offset: Int) -> PredicateToken { tokens[min(position + offset, tokens.count - 1)] }

    private mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name) = current.kind { return PredicateLexer.keyword(name) == word }
        return false
    }

    private func unexpected(_ expected: String) -> KuraError {
        Self.syntax("expected \(expected), found \(Self.describe(current))", current.column)
    }

    private static func syntax(_ message: String, _ column: Int) -> KuraError {
        KuraError.query(.syntax, message, in: .where, column: column)
    }

    static func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .identifier(let name): "'\(name)'"
        case .aggregate(let name): "'@\(name)'"
        case .string(let text): "string \(PredicateLiteral.Value.quoted(text))"
        case .number(let text): "number \(text)"
        case .date(let millis): "date \(DateFormatting.iso8601(milliseconds: millis))"
        case .objectId(let id): "oid(\(id.hexString))"
        case .uuid(let id): "uuid(\(id.uuidString.lowercased()))"
        case .symbol(let symbol): "'\(symbol)'"
        case .placeholder(let text): text
        case .bound(let value): PredicateLiteral(value: value, column: token.column).described
        case .end: "the end of the predicate"
        }
    }
}
