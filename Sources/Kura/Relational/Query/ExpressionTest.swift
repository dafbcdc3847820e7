/// The SQL test of one comparison between two key paths (or counts, aggregates and SUBQUERY
/// counts), checked against both types when it is made: `age > bestFriend.age`, `name ==[c] owner.name`.
///
/// Like `ComparisonTest`, every test is two-valued: a null on either side makes an ordering false,
/// two nulls are equal, a null and a value unequal, as in Realm.
struct ExpressionTest {
    private let left: Operand
    private let right: Operand
    private let op: ComparisonOperator
    private let fold: String?
    /// Whether the two sides need `kura_compare` (a decimal, or a mixed value) rather than SQL's own operators.
    private let general: Bool

    init(_ left: Operand, _ right: Operand, op: ComparisonOperator, options: StringOptions, column: Int) throws(KuraError) {
        self.left = left
        self.right = right
        self.op = op
        fold = QueryFunctions.foldFunction(options)
        let pair = "\(left.subject) (\(Self.name(left.type))) and \(right.subject) (\(Self.name(right.type)))"
        func refuse(_ code: KuraError.QueryCode, _ message: String) -> KuraError {
            KuraError.query(code, message, in: .where, column: column)
        }
        if left.typeOf != nil || right.typeOf != nil {
            throw refuse(.unsupportedOperator, "@type compares with type names such as 'string', not with a key path")
        }
        if op == .in || op == .between {
            throw refuse(.unsupportedOperator, "\(LiteralChecker.spelled(op)) needs values in braces on its right, not a key path")
        }
        let leftClass = Self.kind(left.type)
        let rightClass = Self.kind(right.type)
        if case .object(let leftTarget) = left.type {
            guard case .object(let rightTarget) = right.type, leftTarget == rightTarget else {
                throw refuse(.typeMismatch, "\(pair) cannot be compared: a link compares only with a link to the same type")
            }
            guard op == .equal || op == .notEqual else {
                throw refuse(.unsupportedOperator, "\(pair): links compare only with == and !=")
            }
        } else if case .object = right.type {
            throw refuse(.typeMismatch, "\(pair) cannot be compared: a link compares only with a link to the same type")
        }
        if leftClass != "mixed" && rightClass != "mixed" && leftClass != rightClass {
            throw refuse(.typeMismatch, "\(pair) cannot be compared: they hold different kinds of value")
        }
        if !options.isEmpty {
            for side in [left, right] where side.type != .string && side.type != .mixed {
                throw refuse(.unsupportedOperator, "\(side.subject): \(options.spelling) does not apply to \(Self.name(side.type))")
            }
        }
        if op.isStringOperator {
            for side in [left, right] where ![PropertyType.string, .mixed].contains(side.type) && !(side.type == .data && op != .like) {
                throw refuse(.unsupportedOperator, "\(side.subject): \(LiteralChecker.spelled(op)) does not apply to \(Self.name(side.type))")
            }
        } else if op.isOrdering {
            for side in [left, right] where side.type != .mixed && !LiteralChecker.orderedTypes.contains(side.type) {
                throw refuse(.unsupportedOperator, "\(side.subject): \(LiteralChecker.spelled(op)) does not apply to \(Self.name(side.type))")
            }
        }
        general = left.type == .mixed || right.type == .mixed || (left.type == .decimal) != (right.type == .decimal)
    }

    /// The kind of value a type holds, for telling which types compare: numbers of every type together.
    private static func kind(_ type: PropertyType) -> String {
        switch type {
        case .int, .float, .double, .decimal: "number"
        case .mixed: "mixed"
        case .object: "link"
        default: type.description
        }
    }

    private static func name(_ type: PropertyType) -> String {
        if case .object(let target) = type { return "a link to \(target)" }
        return type.description
    }

    /// The test, as `dialect` spells it.
    func sql(_ dialect: any QueryDialect) -> SQLFragment {
        let a = read(left)
        let b = read(right)
        let present = "\(left.value) IS NOT NULL AND \(right.value) IS NOT NULL AND "
        if op.isStringOperator { return SQLFragment(stringTest(a, b, present: present, dialect: dialect)) }
        if general {
            let comparison = dialect.compare((tag(left), a, left.type), (tag(right), b, right.type))
            switch op {
            case .equal: return SQLFragment("(\(comparison) = 0)")
            case .notEqual: return SQLFragment("(\(comparison) <> 0)")
            case .less: return SQLFragment("(\(comparison) = -1)")
            case .lessOrEqual: return SQLFragment("(\(comparison) IN (-1, 0))")
            case .greater: return SQLFragment("(\(comparison) = 1)")
            default: return SQLFragment("(\(comparison) IN (0, 1))")
            }
        }
        var (x, y) = (a, b)
        if left.type == .decimal {
            x = dialect.collated(a, by: QueryFunctions.decimalCollation)
            y = dialect.collatedArgument(SQLFragment(b), by: QueryFunctions.decimalCollation).sql
        }
        switch op {
        case .equal: return SQLFragment("(\(x)\(dialect.isSame)\(y))")
        case .notEqual: return SQLFragment("(\(x)\(dialect.isNotSame)\(y))")
        default: return SQLFragment("(\(present)\(x) \(op.spelling) \(y))")
        }
    }

    /// The value as compared: folded for `[c]` and `[d]`.
    private func read(_ side: Operand) -> String {
        guard let fold else { return side.value }
        return "\(fold)(\(side.value))"
    }

    /// A side's kind for `kura_compare`: a mixed value's tag, or the tag of a typed value's type.
    private func tag(_ side: Operand) -> String {
        if let tag = side.tag { return tag }
        let kind = MixedTag.tag(for: side.type) ?? MixedTag.null
        return "CASE WHEN \(side.value) IS NULL THEN \(MixedTag.null) ELSE \(kind) END"
    }

    /// BEGINSWITH, ENDSWITH, CONTAINS or LIKE with the pattern read from the right side; a mixed
    /// side passes only when it holds a string.
    private func stringTest(_ a: String, _ b: String, present: String, dialect: any QueryDialect) -> String {
        var guards = ""
        for side in [left, right] where side.type == .mixed {
            guards += "coalesce(\(side.tag ?? "NULL"), 0) = \(MixedTag.string) AND "
        }
        return "(\(guards)\(present)\(dialect.stringTest(op, a, b)))"
    }
}
