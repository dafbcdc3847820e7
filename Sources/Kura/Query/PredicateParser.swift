/// Parses Realm Query Language text into a `ParsedQuery`: a predicate, then any `SORT`, `DISTINCT`
/// and `LIMIT`.
///
/// Precedence is `NOT` over `AND` over `OR`; keywords are case-insensitive. Parentheses, `NOT`s and
/// `SUBQUERY`s may nest at most `maxNesting` deep, which bounds both this parser's recursion and
/// the SQL the predicate compiles to (SQLite's parser has a fixed stack).
struct PredicateParser {
    static let maxNesting = 32

    private let tokens: [PredicateToken]
    private var position = 0
    var nesting = 0

    init(_ text: String, arguments: [Value]) throws(KuraError) {
        var lexer = PredicateLexer(text, source: .where)
        tokens = try PredicateArguments(arguments).bind(lexer.tokens())
    }

    /// The whole text as one predicate without `SORT`, `DISTINCT` or `LIMIT`, its `%@`, `%K` and
    /// `$0` placeholders taking `arguments`.
    static func parse(_ text: String, arguments: [Value] = []) throws(KuraError) -> ParsedPredicate {
        var parser = try PredicateParser(text, arguments: arguments)
        let predicate = try parser.parsePredicate()
        guard parser.current.kind == .end else { throw parser.unexpected("AND, OR or the end of the predicate") }
        return predicate
    }

    /// The whole text as a predicate followed by any `SORT(…)`, `DISTINCT(…)` and `LIMIT(…)`.
    static func parseQuery(_ text: String, arguments: [Value] = []) throws(KuraError) -> ParsedQuery {
        var parser = try PredicateParser(text, arguments: arguments)
        let predicate = try parser.parsePredicate()
        var descriptors: [QueryDescriptor] = []
        while parser.current.kind != .end {
            guard let descriptor = try parser.parseDescriptorIfPresent() else {
                if descriptors.isEmpty, case .identifier = parser.current.kind {
                    throw parser.unexpected("AND, OR, SORT, DISTINCT, LIMIT or the end of the predicate")
                }
                throw parser.unexpected(descriptors.isEmpty ? "AND, OR or the end of the predicate" : "SORT, DISTINCT, LIMIT or the end")
            }
            descriptors.append(descriptor)
        }
        return ParsedQuery(predicate: predicate, descriptors: descriptors)
    }

    private mutating func parsePredicate() throws(KuraError) -> ParsedPredicate {
        guard current.kind != .end else { throw Self.syntax("the predicate is empty", 1) }
        return try parseOr()
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
        return try parseComparison()
    }

    mutating func enterNesting() throws(KuraError) {
        nesting += 1
        if nesting > Self.maxNesting {
            throw KuraError.query(
                .tooComplex, "the predicate nests more than \(Self.maxNesting) levels of parentheses and NOT",
                in: .where, column: current.column)
        }
    }

    // MARK: Comparisons

    private static let quantifiers: [String: PredicateQuantifier.Kind] = ["ANY": .any, "SOME": .any, "ALL": .all, "NONE": .none]

    private mutating func parseComparison() throws(KuraError) -> ParsedPredicate {
        var quantifier: PredicateQuantifier?
        if case .identifier(let word) = current.kind, let kind = Self.quantifiers[PredicateLexer.keyword(word)],
            isPathStart(peek(1)) || peek(1).kind == .symbol("{")
        {
            quantifier = PredicateQuantifier(kind: kind, word: PredicateLexer.keyword(word), column: current.column)
            advance()
        }
        let left = isSymbol("{") ? try parseList(for: .in) : try parseExpression(operand: false)
        let column = current.column
        let op = try parseOperator()
        let options = try parseModifier()
        var listQuantifier: PredicateQuantifier?
        if case .identifier(let word) = current.kind, let kind = Self.quantifiers[PredicateLexer.keyword(word)],
            peek(1).kind == .symbol("{")
        {
            listQuantifier = PredicateQuantifier(kind: kind, word: PredicateLexer.keyword(word), column: current.column)
            advance()
        }
        let right: PredicateExpression
        if isSymbol("{") {
            right = try parseList(for: op)
        } else {
            switch current.kind {
            case .identifier, .variable, .aggregate("links"), .symbol("("): break
            default: if !peekLiteral() { throw unexpected("a value after '\(op.spelling)'") }
            }
            right = try parseExpression(operand: true)
        }
        let comparison = PredicateComparison(quantifier: quantifier, left: left, op: op, options: options, right: right, column: column)
        return try Self.normalized(comparison, listQuantifier: listQuantifier)
    }

    /// A key path, a value, or `SUBQUERY(…).@count`.
    /// On the right (`operand`), `NaN`, `inf` and `infinity` are numbers; on the left, names.
    mutating func parseValue(operand: Bool) throws(KuraError) -> PredicateExpression {
        if let literal = try parseLiteralIfPresent(operand: operand) { return .literal(literal) }
        if case .identifier(let word) = current.kind, PredicateLexer.keyword(word) == "SUBQUERY", peek(1).kind == .symbol("(") {
            return .subquery(try parseSubquery())
        }
        return .keyPath(try parseKeyPath())
    }

    /// `SUBQUERY(collection, $x, predicate).@count` (or `.@size`).
    private mutating func parseSubquery() throws(KuraError) -> PredicateSubquery {
        let column = current.column
        try enterNesting()
        advance()
        advance()
        let collection = try parseKeyPath()
        guard isSymbol(",") else { throw unexpected("',' after the SUBQUERY's collection") }
        advance()
        guard case .variable(let variable) = current.kind else { throw unexpected("a variable such as $x") }
        advance()
        guard isSymbol(",") else { throw unexpected("',' after the SUBQUERY's variable") }
        advance()
        let predicate = try parseOr()
        guard isSymbol(")") else { throw unexpected("')' closing the SUBQUERY") }
        advance()
        nesting -= 1
        guard isSymbol(".") else { throw Self.syntax("a SUBQUERY is counted: write SUBQUERY(…).@count", current.column) }
        advance()
        guard case .aggregate(let name) = current.kind, name == "count" || name == "size" else {
            throw unexpected("@count after SUBQUERY(…).")
        }
        advance()
        return PredicateSubquery(collection: collection, variable: variable, predicate: predicate, column: column)
    }

    private func isPathStart(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .identifier, .variable: true
        case .aggregate(let name): name == "links"
        default: false
        }
    }

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

    /// `[c]`, `[d]` or `[cd]` after an operator.
    private mutating func parseModifier() throws(KuraError) -> StringOptions {
        guard isSymbol("[") else { return StringOptions() }
        let column = current.column
        advance()
        guard case .identifier(let flags) = current.kind else { throw unexpected("c, d or cd inside '[ ]'") }
        advance()
        guard isSymbol("]") else { throw unexpected("']'") }
        advance()
        switch flags.lowercased() {
        case "c": return StringOptions(caseInsensitive: true)
        case "d": return StringOptions(diacriticInsensitive: true)
        case "cd", "dc": return StringOptions(caseInsensitive: true, diacriticInsensitive: true)
        default: throw Self.syntax("unknown modifier [\(flags)]: write [c], [d] or [cd]", column)
        }
    }

    /// `{a, b, …}`: any number of values for IN, exactly two for BETWEEN.
    private mutating func parseList(for op: ComparisonOperator) throws(KuraError) -> PredicateExpression {
        let column = current.column
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

    /// Whether the current token is a literal.
    private func peekLiteral() -> Bool {
        switch current.kind {
        case .string, .number, .date, .objectId, .uuid, .bound: true
        default: false
        }
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

    var current: PredicateToken { tokens[position] }

    func peek(_ offset: Int) -> PredicateToken { tokens[min(position + offset, tokens.count - 1)] }

    mutating func advance() {
        if position < tokens.count - 1 { position += 1 }
    }

    func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }

    private func isKeyword(_ word: String) -> Bool {
        if case .identifier(let name) = current.kind { return PredicateLexer.keyword(name) == word }
        return false
    }

    func unexpected(_ expected: String) -> KuraError {
        Self.syntax("expected \(expected), found \(Self.describe(current))", current.column)
    }

    static func syntax(_ message: String, _ column: Int) -> KuraError {
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
        case .variable(let name): "$" + name
        case .bound(let value): PredicateLiteral(value: value, column: token.column).described
        case .end: "the end of the predicate"
        }
    }
}
