/// The sides of a comparison: values, key paths and SUBQUERY counts joined by `+ - * /`.
extension PredicateParser {
    /// The most arithmetic operators one side of a comparison may hold, which bounds the depth of
    /// the tree they make (and of the walks over it).
    static let maxArithmetic = 64

    /// A side of a comparison: values and key paths joined by `+ - * /` (`*` and `/` first).
    mutating func parseExpression(operand: Bool) throws(KuraError) -> PredicateExpression {
        var operators = 0
        return try parseSum(operand: operand, operators: &operators)
    }

    private mutating func parseSum(operand: Bool, operators: inout Int) throws(KuraError) -> PredicateExpression {
        var sum = try parseProduct(operand: operand, operators: &operators)
        while let op = additiveOperator() {
            let column = current.column
            try countArithmetic(&operators, column: column)
            // `age -1`: the lexer read a negative number; after a value it is a subtraction.
            if case .number(let text) = current.kind, text.hasPrefix("-") {
                let literal = PredicateLiteral(value: .number(String(text.dropFirst())), column: column + 1)
                advance()
                sum = .arithmetic(.subtract, sum, .literal(literal), column: column)
                continue
            }
            advance()
            sum = .arithmetic(op, sum, try parseProduct(operand: true, operators: &operators), column: column)
        }
        return sum
    }

    private mutating func parseProduct(operand: Bool, operators: inout Int) throws(KuraError) -> PredicateExpression {
        var product = try parseAtom(operand: operand, operators: &operators)
        while isSymbol("*") || isSymbol("/") {
            let op: ArithmeticOperator = isSymbol("*") ? .multiply : .divide
            let column = current.column
            try countArithmetic(&operators, column: column)
            advance()
            product = .arithmetic(op, product, try parseAtom(operand: true, operators: &operators), column: column)
        }
        return product
    }

    /// `+` or `-` at the current token, or a negative number (see `parseExpression`).
    private func additiveOperator() -> ArithmeticOperator? {
        if isSymbol("+") { return .add }
        if isSymbol("-") { return .subtract }
        if case .number(let text) = current.kind, text.hasPrefix("-"), Double(text) != nil, !text.contains("Infinity") { return .subtract }
        return nil
    }

    private func countArithmetic(_ operators: inout Int, column: Int) throws(KuraError) {
        operators += 1
        if operators > Self.maxArithmetic {
            throw KuraError.query(
                .tooComplex, "one side of a comparison holds more than \(Self.maxArithmetic) arithmetic operators", in: .where, column: column)
        }
    }

    /// A value, a key path, `SUBQUERY(…).@count`, or an arithmetic expression in parentheses.
    private mutating func parseAtom(operand: Bool, operators: inout Int) throws(KuraError) -> PredicateExpression {
        if isSymbol("(") {
            try enterNesting()
            advance()
            let inner = try parseSum(operand: true, operators: &operators)
            guard isSymbol(")") else { throw unexpected("')'") }
            advance()
            nesting -= 1
            return inner
        }
        return try parseValue(operand: operand)
    }
}
