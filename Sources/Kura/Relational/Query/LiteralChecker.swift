import Foundation

/// Checks that an operator applies to a property type and converts literals to the values the
/// property's column stores (`ScalarCodec`'s forms), or says precisely why they do not fit.
struct LiteralChecker {
    let subject: String
    /// A non-optional scalar type, `.mixed`, or `.object` for a link.
    let type: PropertyType
    let op: ComparisonOperator
    /// The operator's column, for errors about the operator itself.
    let column: Int

    static let orderedTypes: Set<PropertyType> = [.int, .float, .double, .date, .string, .decimal, .objectId]
    static let numericTags = [MixedTag.int, MixedTag.float, MixedTag.double]

    /// Refuses operators and modifiers that do not apply to the type at all.
    func checkOperator(options: StringOptions) throws(KuraError) {
        if case .object = type {
            guard op == .equal || op == .notEqual || op == .in else { throw linkError(column) }
        }
        if type == .mixed { return }
        if !options.isEmpty && type != .string {
            throw error(.unsupportedOperator, "\(subject): \(options.spelling) does not apply to \(typeName)", column)
        }
        let applies: Bool
        if op.isStringOperator {
            applies = type == .string || (type == .data && op != .like)
        } else if op.isOrdering {
            applies = Self.orderedTypes.contains(type)
        } else {
            applies = true
        }
        guard applies else { throw error(.unsupportedOperator, "\(subject): \(Self.spelled(op)) does not apply to \(typeName)", column) }
    }

    /// The literal, refusing nil (for BETWEEN).
    func nonNull(_ literal: PredicateLiteral) throws(KuraError) -> PredicateLiteral {
        if literal.value == .null {
            throw error(.typeMismatch, "\(subject): \(Self.spelled(op)) cannot compare with nil", literal.column)
        }
        return literal
    }

    /// A literal in a stored form, with the kinds of stored value it is compared with.
    struct Bound {
        /// For mixed values: the tags of the kinds of value this form compares with.
        var tags: [Int64]?
        var value: StoredCell
        /// Whether the stored values and this one are decimal strings, compared by value.
        var isDecimal = false
        /// Whether the literal is NaN compared with values stored as numbers, which are never NaN
        /// and all lie above it (`value` is then null).
        var isNaN = false
    }

    /// The stored forms of a non-nil literal: one for a typed column; for a mixed value one per group
    /// of kinds it compares with (a number meets ints, floats and doubles as a number, and decimals
    /// as a decimal string). Strings are folded as `folding` (`[c]`, `[d]`) compares them.
    func bind(_ literal: PredicateLiteral, folding: StringOptions) throws(KuraError) -> [Bound] {
        _ = try nonNull(literal)
        if type == .mixed { return try bindMixed(literal, folding: folding) }
        if case .object = type { throw linkError(literal.column) }
        if type == .double || type == .float, case .number(let text) = literal.value, Double(text)?.isNaN == true {
            return [Bound(value: .null, isNaN: true)]
        }
        let value = try convert(literal)
        if !folding.isEmpty, case .text(let text) = value { return [Bound(value: StoredCell.text(folding.fold(text)))] }
        return [Bound(value: value, isDecimal: type == .decimal)]
    }

    /// A literal for a typed (not mixed) column.
    private func convert(_ literal: PredicateLiteral) throws(KuraError) -> StoredCell {
        let converted: Value?
        switch (type, literal.value) {
        case (.bool, .bool(let flag)): converted = .bool(flag)
        case (.int, .number(let text)):
            guard let number = Int64(text) else {
                let outOfRange = text.allSatisfy { $0.isNumber || $0 == "-" }
                throw mismatch(literal, note: outOfRange ? " (out of the int range)" : "")
            }
            converted = .int(number)
        case (.float, .number(let text)), (.double, .number(let text)):
            converted = Double(text).map(Value.double)
        case (.string, .string(let text)): converted = .string(text)
        case (.date, .date(let millis)): converted = .date(DateFormatting.date(milliseconds: millis))
        case (.date, .string(let text)):
            guard let millis = DateFormatting.parseISO8601(text) else {
                throw mismatch(literal, note: " (not an ISO-8601 date)")
            }
            converted = .date(DateFormatting.date(milliseconds: millis))
        case (.data, .string(let text)): converted = .data(Data(text.utf8))
        case (.decimal, .number(let text)): converted = Decimal128(text).map(Value.decimal)
        case (.objectId, .objectId(let id)): converted = .objectId(id)
        case (.uuid, .uuid(let id)): converted = .uuid(id)
        default: throw mismatch(literal, note: "")
        }
        // The literal is of the right kind here, so a failed conversion means it does not fit the range.
        guard let converted, let stored = ScalarCodec.cell(converted, as: type) else {
            throw mismatch(literal, note: " (out of range)")
        }
        return stored
    }

    /// A literal for a mixed value: compared only with values of its own kind (any number with any
    /// number, as `ValueOrder` compares them).
    private func bindMixed(_ literal: PredicateLiteral, folding: StringOptions) throws(KuraError) -> [Bound] {
        let isString: Bool
        if case .string = literal.value { isString = true } else { isString = false }
        if (!folding.isEmpty || op.isStringOperator) && !isString {
            let what = !folding.isEmpty ? folding.spelling : Self.spelled(op)
            throw error(.typeMismatch, "\(subject): \(what) needs a string, found \(literal.described)", literal.column)
        }
        switch literal.value {
        case .bool(let flag):
            try requireUnordered("bool", literal)
            return [Bound(tags: [MixedTag.bool], value: StoredCell.integer(flag ? 1 : 0))]
        case .number(let text):
            // As Realm reads a number literal: an int if it is one, else a double, which meets a
            // decimal rounded to 15 significant digits. Only NaN and the infinities named as such
            // are not finite (1e999 is out of range).
            let decimal: Decimal128
            var number: StoredCell
            if let integer = Int64(text) {
                number = .integer(integer)
                decimal = Decimal128(integer)
            } else if let double = Double(text), double.isFinite || text.hasSuffix("NaN") || text.hasSuffix("Infinity") {
                number = double.isNaN ? .null : .real(double)
                decimal = Decimal128(double, significantDigits: 15)
            } else {
                throw mismatch(literal, note: " (out of range)")
            }
            return [
                Bound(tags: Self.numericTags, value: number, isNaN: decimal.special == .nan),
                Bound(tags: [MixedTag.decimal], value: StoredCell.text(decimal.description), isDecimal: true),
            ]
        case .string(let text):
            return [Bound(tags: [MixedTag.string], value: StoredCell.text(folding.fold(text)))]
        case .date(let millis):
            return [Bound(tags: [MixedTag.date], value: .integer(millis))]
        case .objectId(let id):
            return [Bound(tags: [MixedTag.objectId], value: StoredCell.blob(Data(id.bytes)))]
        case .uuid(let id):
            try requireUnordered("uuid", literal)
            return [Bound(tags: [MixedTag.uuid], value: StoredCell.blob(id.bytes))]
        case .null:
            throw error(.typeMismatch, "\(subject): \(Self.spelled(op)) cannot compare with nil", literal.column)
        }
    }

    private func requireUnordered(_ kind: String, _ literal: PredicateLiteral) throws(KuraError) {
        if op.isOrdering {
            throw error(.unsupportedOperator, "\(subject): \(Self.spelled(op)) does not apply to \(kind)", literal.column)
        }
    }

    private var typeName: String {
        if case .object = type { return "a link" }
        return type.description
    }

    private func mismatch(_ literal: PredicateLiteral, note: String) -> KuraError {
        error(.typeMismatch, "\(subject): expected \(typeName), found \(literal.described)\(note)", literal.column)
    }

    private func linkError(_ column: Int) -> KuraError {
        error(.typeMismatch, "\(subject) is a link: compare it with nil, or follow it to a property", column)
    }

    private func error(_ code: KuraError.QueryCode, _ message: String, _ column: Int) -> KuraError {
        KuraError.query(code, message, in: .where, column: column)
    }

    /// `'<'` for symbols, `BEGINSWITH` for words.
    static func spelled(_ op: ComparisonOperator) -> String {
        let spelling = op.spelling
        return spelling.first?.isLetter == true ? spelling : "'\(spelling)'"
    }
}
