/// The test of `@type` against type names (`extra.@type == 'string'`, `@type IN {'int', 'null'}`),
/// with Realm's names for the kinds of value.
struct TypeTest {
    /// What tells the kind of a value: a mixed value's tag, or the declared type of a typed one.
    enum Kind {
        /// The SQL of a mixed value's tag.
        case tag(String)
        case fixed(PropertyType)
    }

    /// The kinds of value: the tags of mixed values, with `link` standing for every tag of a link.
    private static let link: Int64 = -1

    /// Realm's names (any case) and the kinds they take in.
    static let names: [(name: String, tags: [Int64])] = {
        let numeric = [MixedTag.int, MixedTag.float, MixedTag.double, MixedTag.decimal]
        return [
            ("null", [MixedTag.null]), ("int", [MixedTag.int]), ("integer", [MixedTag.int]), ("int16", [MixedTag.int]),
            ("int32", [MixedTag.int]), ("int64", [MixedTag.int]), ("short", [MixedTag.int]), ("long", [MixedTag.int]),
            ("byte", [MixedTag.int]), ("char", [MixedTag.int]), ("bool", [MixedTag.bool]), ("boolean", [MixedTag.bool]),
            ("string", [MixedTag.string]), ("binary", [MixedTag.data]), ("data", [MixedTag.data]), ("bytearray", [MixedTag.data]),
            ("byte[]", [MixedTag.data]), ("bindata", [MixedTag.data]), ("date", [MixedTag.date]), ("datetimeoffset", [MixedTag.date]),
            ("timestamp", [MixedTag.date]), ("float", [MixedTag.float]), ("double", [MixedTag.double]),
            ("decimal128", [MixedTag.decimal]), ("decimal", [MixedTag.decimal]), ("objectlink", [link]), ("link", [link]),
            ("objectid", [MixedTag.objectId]), ("uuid", [MixedTag.uuid]), ("guid", [MixedTag.uuid]), ("numeric", numeric),
            ("object", [MixedTag.map]), ("dictionary", [MixedTag.map]), ("array", [MixedTag.list]), ("list", [MixedTag.list]),
            ("collection", [MixedTag.list, MixedTag.map]),
        ]
    }()

    /// The kinds that pass, and whether the test is negated (`!=`).
    private let tags: Set<Int64>
    private let negated: Bool

    init(subject: String, op: ComparisonOperator, literals: [PredicateLiteral], column: Int) throws(KuraError) {
        guard op == .equal || op == .notEqual || op == .in else {
            throw KuraError.query(
                .unsupportedOperator, "\(subject): \(LiteralChecker.spelled(op)) does not apply to @type: use ==, != or IN",
                in: .where, column: column)
        }
        var tags: Set<Int64> = []
        for literal in literals {
            guard case .string(let name) = literal.value else {
                throw KuraError.query(
                    .typeMismatch, "\(subject): expected a type name such as 'string', found \(literal.described)",
                    in: .where, column: literal.column)
            }
            guard let entry = Self.names.first(where: { $0.name == name.lowercased() }) else {
                throw KuraError.query(
                    .typeMismatch,
                    "\(subject): '\(MessageText.shown(name))' is not a type name (names: \(Self.names.map(\.name).joined(separator: ", ")))",
                    in: .where, column: literal.column)
            }
            tags.formUnion(entry.tags)
        }
        self.tags = tags
        negated = op == .notEqual
    }

    /// The test on a value of `kind`.
    func sql(_ kind: Kind, constants: QueryConstants) -> SQLFragment {
        let test: SQLFragment
        switch kind {
        case .tag(let tag):
            var parts: [String] = []
            let plain = tags.subtracting([Self.link]).sorted()
            if !plain.isEmpty { parts.append("coalesce(\(tag), 0) IN (" + plain.map(String.init).joined(separator: ", ") + ")") }
            if tags.contains(Self.link) { parts.append("coalesce(\(tag), 0) >= \(MixedTag.linkBase)") }
            test = SQLFragment(parts.isEmpty ? constants.dialect.alwaysFalse : "(" + parts.joined(separator: " OR ") + ")")
        case .fixed(let type):
            test = SQLFragment(tags.contains(Self.tag(of: type)) ? constants.dialect.alwaysTrue : constants.dialect.alwaysFalse)
        }
        return negated ? "(NOT " + test + ")" : test
    }

    /// The kind of every value of a typed property.
    private static func tag(of type: PropertyType) -> Int64 {
        if type.objectTypeName != nil { return link }
        return MixedTag.tag(for: type) ?? MixedTag.null
    }
}
