import Foundation

/// The SQL test of one comparison on one value, checked against the value's type when it is made.
///
/// Every test is two-valued (true or false, never NULL), so that `NOT`, `ALL` and `NONE` can negate
/// it: as in Realm, `x != 3` is true when x is null and `x < 3` is false.
struct ComparisonTest {
    /// One way the value can pass; a mixed value compared with `IN {1, 'a'}` has several.
    private struct Alternative {
        /// For mixed values: the tags of the kinds of value this alternative applies to.
        var tags: [Int64]?
        var form: Form
        /// How the stored value is read for this alternative.
        var reading = Reading.plain
    }

    private enum Form {
        /// Constant results: a NaN literal against values stored as numbers, which all lie above it.
        case never, always, present
        case isNull
        case compare(ComparisonOperator, StoredCell)
        case between(StoredCell, StoredCell)
        case within([StoredCell])
        case prefix(StoredCell)
        case suffix(StoredCell)
        case contains(StoredCell)
        /// Realm's LIKE pattern, as written.
        case like(StoredCell)

        /// The literal the stored value is compared with, if one.
        var literal: StoredCell? {
            switch self {
            case .compare(_, let value), .between(let value, _), .prefix(let value), .suffix(let value), .contains(let value),
                .like(let value):
                value
            case .within(let values): values.first
            case .never, .always, .present, .isNull: nil
            }
        }
    }

    /// How the stored value is read before it is compared: as it is, through a folding function, or by decimal value.
    private enum Reading { case plain, folded(String), decimal }

    private var alternatives: [Alternative] = []
    private var negated = false
    private let isMixed: Bool

    /// Checks `op`, the modifiers and the literals (one, or the list of `IN` and `BETWEEN`) against
    /// `type` (a non-optional scalar type, `.mixed`, or `.object` for a link); `subject` names the
    /// key path in messages.
    init(
        subject: String, type: PropertyType, op: ComparisonOperator, options: StringOptions, literals: [PredicateLiteral],
        column: Int
    ) throws(KuraError) {
        isMixed = type == .mixed
        let checker = LiteralChecker(subject: subject, type: type, op: op, column: column)
        try checker.checkOperator(options: options)
        func reading(_ bound: LiteralChecker.Bound) -> Reading {
            if let function = QueryFunctions.foldFunction(options) { return .folded(function) }
            return bound.isDecimal ? .decimal : .plain
        }
        switch op {
        case .in:
            var typedValues: [StoredCell] = []
            var typedReading = Reading.plain
            for literal in literals {
                if literal.value == .null {
                    alternatives.append(Alternative(tags: nil, form: .isNull))
                    continue
                }
                // Each mixed value carries its own kind; typed values share one SQL IN list. NaN
                // equals no value stored as a number.
                for bound in try checker.bind(literal, folding: options) where !bound.isNaN {
                    if isMixed {
                        alternatives.append(Alternative(tags: bound.tags, form: .within([bound.value]), reading: reading(bound)))
                    } else {
                        typedValues.append(bound.value)
                        typedReading = reading(bound)
                    }
                }
            }
            if !typedValues.isEmpty { alternatives.append(Alternative(tags: nil, form: .within(typedValues), reading: typedReading)) }
        case .between:
            let lows = try checker.bind(try checker.nonNull(literals[0]), folding: options)
            let highs = try checker.bind(try checker.nonNull(literals[1]), folding: options)
            if isMixed && lows.map(\.tags) != highs.map(\.tags) {
                throw KuraError.query(
                    .typeMismatch, "\(subject): BETWEEN needs two values of one kind, found \(literals[0].described) and \(literals[1].described)",
                    in: .where, column: literals[1].column)
            }
            alternatives = zip(lows, highs).map { low, high in
                // NaN lies below every number: as a low bound it bounds nothing, as a high bound it admits nothing.
                let form: Form = high.isNaN ? .never : (low.isNaN ? .compare(.lessOrEqual, high.value) : .between(low.value, high.value))
                return Alternative(tags: low.tags, form: form, reading: reading(low))
            }
        default:
            let literal = literals[0]
            if literal.value == .null {
                guard op == .equal || op == .notEqual else { _ = try checker.nonNull(literal); return }
                alternatives = [Alternative(tags: nil, form: .isNull)]
                negated = op == .notEqual
                return
            }
            let bounds = try checker.bind(literal, folding: options)
            // A mixed value of another kind is never equal, so != negates the whole test, kind included.
            negated = isMixed && op == .notEqual
            let compared = negated ? ComparisonOperator.equal : op
            alternatives = bounds.map { bound in
                Alternative(
                    tags: bound.tags, form: bound.isNaN ? Self.formBelowEveryValue(compared) : Self.form(compared, bound.value),
                    reading: reading(bound))
            }
        }
    }

    private static func form(_ op: ComparisonOperator, _ value: StoredCell) -> Form {
        switch op {
        case .beginsWith: .prefix(value)
        case .endsWith: .suffix(value)
        case .contains: .contains(value)
        case .like: .like(value)
        default: .compare(op, value)
        }
    }

    /// The test against a value below every stored one (NaN against numbers): only `!=`, `>` and `>=` pass.
    private static func formBelowEveryValue(_ op: ComparisonOperator) -> Form {
        switch op {
        case .notEqual: .always
        case .greater, .greaterOrEqual: .present
        default: .never
        }
    }

    /// Realm's LIKE (`*` any run, `?` one character) as an SQLite GLOB pattern, with `[` made literal.
    static func globPattern(fromLike pattern: String) -> String {
        var glob = ""
        for character in pattern {
            glob += character == "[" ? "[[]" : String(character)
        }
        return glob
    }

    /// The test on the value in `value` (and, for mixed values, its tag column `tag`), its
    /// constants written by `constants`.
    func sql(value: String, tag: String?, constants: QueryConstants) -> SQLFragment {
        let parts = alternatives.map { alternative -> SQLFragment in
            let test = formSQL(alternative.form, reading: alternative.reading, value: value, tag: tag, constants: constants)
            guard let tags = alternative.tags, let tag else { return test }
            return "(coalesce(\(tag), 0) IN " + constants.integers(tags) + " AND " + test + ")"
        }
        let combined = parts.isEmpty ? SQLFragment(constants.dialect.alwaysFalse) : (parts.count == 1 ? parts[0] : SQLFragment.joined(parts, by: "OR"))
        return negated ? "NOT " + combined : combined
    }

    private func formSQL(
        _ form: Form, reading: Reading, value raw: String, tag: String?, constants: QueryConstants
    ) -> SQLFragment {
        let dialect = constants.dialect
        let stored = isMixed ? form.literal.map { dialect.mixedReading(raw, comparedWith: $0) } ?? raw : raw
        let value: String
        var argument = { (value: StoredCell) in constants.value(value) }
        switch reading {
        case .plain: value = stored
        case .folded(let function): value = "\(function)(\(stored))"
        case .decimal:
            value = dialect.collated(stored, by: QueryFunctions.decimalCollation)
            argument = { dialect.collatedArgument(constants.value($0), by: QueryFunctions.decimalCollation) }
        }
        let present = "\(raw) IS NOT NULL AND "
        switch form {
        case .never: return SQLFragment(dialect.alwaysFalse)
        case .always: return SQLFragment(dialect.alwaysTrue)
        case .present: return SQLFragment("(\(raw) IS NOT NULL)")
        case .isNull:
            // A mixed null has the null tag; through a null link the tag itself reads as NULL.
            if isMixed, let tag { return "(coalesce(\(tag), 0) = " + constants.integer(MixedTag.null) + ")" }
            return SQLFragment("(\(raw) IS NULL)")
        case .compare(let op, let literal):
            switch op {
            case .equal: return "(\(value)\(dialect.isSame)" + argument(literal) + ")"
            case .notEqual: return "(\(value)\(dialect.isNotSame)" + argument(literal) + ")"
            default: return "(\(present)\(value) \(op.spelling) " + argument(literal) + ")"
            }
        case .between(let low, let high):
            return "(\(present)\(value) BETWEEN " + argument(low) + " AND " + argument(high) + ")"
        case .within(let values):
            guard case .decimal = reading else { return "(\(present)\(value) IN " + constants.list(values) + ")" }
            return "(\(present)\(value) IN " + dialect.collatedList(constants.list(values), by: QueryFunctions.decimalCollation) + ")"
        case .prefix(let literal):
            let length = dialect.length(of: literal)
            if length == 0 { return SQLFragment("(\(raw) IS NOT NULL)") }
            return "(\(present)" + dialect.startsWith(value, argument(literal), length: length) + ")"
        case .suffix(let literal):
            let length = dialect.length(of: literal)
            if length == 0 { return SQLFragment("(\(raw) IS NOT NULL)") }
            return "(\(present)" + dialect.endsWith(value, argument(literal), length: length) + ")"
        case .contains(let literal):
            return "(\(present)" + dialect.contains(value, argument(literal)) + ")"
        case .like(let literal):
            guard case .text(let pattern) = literal else { return "(\(present)" + dialect.matches(value, argument(literal)) + ")" }
            return "(\(present)" + dialect.matches(value, argument(.text(dialect.likePattern(pattern)))) + ")"
        }
    }
}
