import GRDB

/// Checks the values of every value column, one query each: null where the schema requires a value, values
/// a STRICT column accepts but the property type does not (a bool of 7, an object id of 5 bytes, a
/// decimal that does not parse), and mixed values that do not match their tag.
struct ValueCheck {
    let db: Database
    let findings: FindingCollector
    let layout: CheckedLayout

    /// The SQL function telling whether a text is a decimal Kura can read; `install` adds it.
    static let decimalFunction = "kura_check_decimal"

    /// Adds `decimalFunction` to the connection.
    static func install(in db: Database) {
        db.add(function: DatabaseFunction(decimalFunction, argumentCount: 1, pure: true) { arguments in
            guard case .string(let text) = arguments[0].storage else { return false }
            return Decimal128(text) != nil
        })
    }

    func run() {
        for site in layout.sites {
            findings.attempt(site.place, site.label) { try check(site) }
        }
    }

    private func check(_ site: ValueColumn) throws {
        let value = "\"s\".\(site.value)"
        var problems: [String] = []
        if !site.type.isNullable { problems.append("\(value) IS NULL") }
        let tag = site.tag.map { "\"s\".\($0)" }
        if let tag {
            problems.append("NOT (\(Self.mixedCondition(tag: tag, value: value)))")
        } else if let fit = layout.looseTables.contains(site.table) ? Self.fitCondition(site.type, value) : Self.strictGap(site.type, value) {
            problems.append("(\(value) IS NOT NULL AND NOT (\(fit)))")
        }
        guard !problems.isEmpty else { return }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(site.whereColumns), \(value), \(tag ?? "NULL") FROM \(site.scan) WHERE \(problems.joined(separator: " OR "))
            """)
        while let row = try rows.next() {
            let (place, subject) = site.subject(row)
            let stored: DatabaseValue = row[3]
            if let tagValue = row.checkedInteger(4) {
                let detail = CheckWording.mixedMismatch(ValueColumn.describe(stored), tag: tagValue)
                findings.add(.valueMismatch, place, site.label, "\(subject) \(detail)")
            } else if stored.isNull {
                findings.add(.missingValue, place, site.label, "\(subject) \(CheckWording.missingValue)")
            } else {
                findings.add(.valueMismatch, place, site.label, "\(subject) \(CheckWording.notValid(ValueColumn.describe(stored), site.type))")
            }
        }
    }

    /// The condition a value of `type` meets, storage class included.
    static func fitCondition(_ type: PropertyType, _ value: String) -> String {
        switch type.nonOptional {
        case .bool: "typeof(\(value)) = 'integer' AND \(value) IN (0, 1)"
        case .int, .date, .object: "typeof(\(value)) = 'integer'"
        case .float, .double: "typeof(\(value)) = 'real'"
        case .string: "typeof(\(value)) = 'text'"
        case .data: "typeof(\(value)) = 'blob'"
        case .decimal: "typeof(\(value)) = 'text' AND \(decimalFunction)(\(value))"
        case .objectId: "typeof(\(value)) = 'blob' AND length(\(value)) = 12"
        case .uuid: "typeof(\(value)) = 'blob' AND length(\(value)) = 16"
        default: "1"
        }
    }

    /// For the types whose STRICT column admits values the type does not, the condition they meet.
    private static func strictGap(_ type: PropertyType, _ value: String) -> String? {
        switch type.nonOptional {
        case .bool, .decimal, .objectId, .uuid: fitCondition(type, value)
        default: nil
        }
    }

    /// The condition a mixed value meets for its tag: null, a scalar stored as its type is, a
    /// container id, or a link's object id.
    static func mixedCondition(tag: String, value: String) -> String {
        var cases = ["WHEN \(MixedTag.null) THEN \(value) IS NULL"]
        for (code, type) in MixedTag.scalarTypes.sorted(by: { $0.key < $1.key }) {
            cases.append("WHEN \(code) THEN \(fitCondition(type, value))")
        }
        cases.append("WHEN \(MixedTag.list) THEN typeof(\(value)) = 'integer'")
        cases.append("WHEN \(MixedTag.map) THEN typeof(\(value)) = 'integer'")
        return "CASE \(tag) \(cases.joined(separator: " ")) ELSE \(tag) >= \(MixedTag.linkBase) AND typeof(\(value)) = 'integer' END"
    }
}
