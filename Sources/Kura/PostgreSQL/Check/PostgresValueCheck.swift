import Foundation

/// Checks the values of every value column of a PostgreSQL realm: null where the schema requires
/// a value, values the column type admits but the property type does not (a bool of 7, an object
/// id of 5 bytes, a string or decimal whose bytes are not UTF-8, a decimal that does not parse),
/// mixed values whose bytes do not fit their tag, and map keys that are not UTF-8.
///
/// SQL finds the rows that may be wrong (a text with bytes outside ASCII, a number not written as
/// Kura writes it); each is then read as the engine reads it, and reported only if that fails.
struct PostgresValueCheck {
    let queries: PostgresCheckQueries
    let findings: FindingCollector
    let layout: CheckedLayout

    func run() {
        for site in layout.sites {
            findings.attempt(site.place, site.label) {
                try check(site)
                if site.key != nil { try checkKeys(site) }
            }
        }
    }

    private func check(_ site: ValueColumn) throws {
        let value = "\"s\".\(site.value)"
        var problems: [String] = []
        if !site.type.isNullable { problems.append("\(value) IS NULL") }
        let tag = site.tag.map { "\"s\".\($0)" }
        if let tag {
            problems.append("NOT (\(Self.mixedCondition(tag: tag, value: value)))")
        } else if let fit = Self.fitCondition(site.type, value) {
            problems.append("(\(value) IS NOT NULL AND NOT (\(fit)))")
        }
        guard !problems.isEmpty else { return }
        try queries.scan("""
            SELECT \(site.whereColumns), \(value), \(tag ?? "NULL::bigint") FROM \(site.source) WHERE \(problems.joined(separator: " OR "))
            ORDER BY 1, 2, 3
            """) { row in
            guard row.count == 5 else { return }
            let stored = row[3]
            let (place, subject) = site.subject(cells: row)
            if case .integer(let tagValue) = row[4] {
                guard !Self.fits(stored, tag: tagValue) else { return }
                let shown = ValueColumn.describe(postgres: stored, textual: PostgresLayout.storageClass(ofTag: tagValue) != .blob)
                findings.add(.valueMismatch, place, site.label, "\(subject) \(CheckWording.mixedMismatch(shown, tag: tagValue))")
            } else if stored.isNull {
                findings.add(.missingValue, place, site.label, "\(subject) \(CheckWording.missingValue)")
            } else if !Self.fits(stored, site.type) {
                let shown = ValueColumn.describe(postgres: stored, textual: [.string, .decimal].contains(site.type.nonOptional))
                findings.add(.valueMismatch, place, site.label, "\(subject) \(CheckWording.notValid(shown, site.type))")
            }
        }
    }

    /// Map keys, stored as `bytea`, must be UTF-8 as the key texts they are.
    private func checkKeys(_ site: ValueColumn) throws {
        guard let key = site.key.map({ "\"s\".\($0)" }) else { return }
        try queries.scan("""
            SELECT \(site.whereColumns), \(key) FROM \(site.source) WHERE \(key) IS NOT NULL AND NOT (\(ValueColumn.isPlainText(key)))
            ORDER BY 1, 2, 3
            """) { row in
            guard row.count == 4, case .blob(let bytes) = row[3], String(validating: bytes, as: UTF8.self) == nil else { return }
            let (place, subject) = site.owned(by: row[0])
            findings.add(.valueMismatch, place, site.label, "\(subject) has a key of \(Counted(bytes.count, "byte")) that is not UTF-8")
        }
    }

    /// The condition that a value of `type` is stored as Kura stores it (others are read to be
    /// sure); `nil` when the column type admits only values of the type.
    static func fitCondition(_ type: PropertyType, _ value: String) -> String? {
        switch type.nonOptional {
        case .bool: "\(value) IN (0, 1)"
        case .string: ValueColumn.isPlainText(value)
        case .decimal: "encode(\(value), 'escape') ~ '\(plainDecimal)'"
        case .objectId: "length(\(value)) = 12"
        case .uuid: "length(\(value)) = 16"
        default: nil
        }
    }

    /// A decimal as plain digits, few enough that every decimal reading takes it.
    private static let plainDecimal = "^-?[0-9]{1,16}(\\.[0-9]{1,16})?$"
    /// An integer of 18 digits or fewer, which every Int64 holds.
    private static let plainInteger = "^-?[0-9]{1,18}$"
    /// A real as Kura writes it.
    private static let plainReal = "^(-?[0-9]{1,17}(\\.[0-9]{1,17})?(e[-+]?[0-9]{1,3})?|NaN|-?Infinity)$"

    /// The condition that a mixed value is stored as Kura stores its tag's kind of value.
    static func mixedCondition(tag: String, value: String) -> String {
        let text = "encode(\(value), 'escape')"
        let integer = "\(text) ~ '\(plainInteger)'"
        let cases = [
            "WHEN \(MixedTag.null) THEN \(value) IS NULL",
            "WHEN \(MixedTag.bool) THEN \(value) IN ('0'::bytea, '1'::bytea)",
            "WHEN \(MixedTag.int) THEN \(integer)", "WHEN \(MixedTag.date) THEN \(integer)",
            "WHEN \(MixedTag.float) THEN \(text) ~ '\(plainReal)'", "WHEN \(MixedTag.double) THEN \(text) ~ '\(plainReal)'",
            "WHEN \(MixedTag.string) THEN \(ValueColumn.isPlainText(value))",
            "WHEN \(MixedTag.decimal) THEN \(text) ~ '\(plainDecimal)'",
            "WHEN \(MixedTag.data) THEN \(value) IS NOT NULL",
            "WHEN \(MixedTag.objectId) THEN length(\(value)) = 12", "WHEN \(MixedTag.uuid) THEN length(\(value)) = 16",
            "WHEN \(MixedTag.list) THEN \(integer)", "WHEN \(MixedTag.map) THEN \(integer)",
        ]
        return "coalesce(CASE \(tag) \(cases.joined(separator: " ")) ELSE \(tag) >= \(MixedTag.linkBase) AND \(integer) END, false)"
    }

    /// Whether a value of a column of `type` reads as one.
    static func fits(_ stored: StoredCell, _ type: PropertyType) -> Bool {
        guard let cell = try? PostgresLayout.read(stored, as: type) else { return false }
        switch (type.nonOptional, cell) {
        case (.bool, .integer(let number)): return number == 0 || number == 1
        case (.decimal, .text(let text)): return Decimal128(text) != nil
        default: return (try? ScalarCodec.decode(cell, as: type.nonOptional)) != nil
        }
    }

    /// Whether a mixed value's bytes read as a value of the kind its tag names.
    static func fits(_ stored: StoredCell, tag: Int64) -> Bool {
        if tag == MixedTag.null { return stored.isNull }
        guard !stored.isNull, let cell = try? PostgresLayout.readMixed(stored, tag: tag) else { return false }
        switch tag {
        case MixedTag.list, MixedTag.map, MixedTag.linkBase...: return cell.objectId != nil
        default:
            guard let type = MixedTag.scalarTypes[tag] else { return false }
            return fits(cell, type)
        }
    }
}
