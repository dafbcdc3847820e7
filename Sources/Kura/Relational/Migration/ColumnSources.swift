import Foundation

/// The SQL that gives each column of a rebuilt object table its values from the old table's rows:
/// the old column, a fill, or the old column with a fill for its nulls. Both engines run it; the
/// dialect says how each spells a fresh UUID and stores a cell.
struct ColumnSources {
    /// The columns written, the expressions selected from the old table, and their arguments.
    struct Selection {
        var columns: [String] = []
        var expressions: [String] = []
        var arguments: [StoredCell] = []
    }

    /// What differs between engines in the selection's SQL and arguments.
    struct Dialect: Sendable {
        /// An expression giving the 16 bytes of a fresh UUID, evaluated per row.
        let uuidExpression: String
        /// A scalar cell as the engine's column of that property stores it.
        let storedCell: @Sendable (StoredCell) -> StoredCell
        /// A mixed value's cell as the engine's value column of a mixed property stores it.
        let storedMixedCell: @Sendable (StoredCell) -> StoredCell
    }

    /// The instant `default: now` fills with: one for the whole migration.
    let now: Date
    /// Turns a fill into a column value, strictly for the property's type: the writer's rule, handed
    /// down so that a fill is stored (and refused, with the same message) as a written value is.
    let encodeScalar: MigrationScalarEncoder
    let dialect: Dialect

    /// The selection copying a type's rows into its new object table; `keyBase` is the number after
    /// which an autoIncrement key added to existing objects starts counting.
    func selection(for plan: TypeMigration, keyBase: Int64) throws(KuraError) -> Selection {
        var selection = Selection(columns: [TableLayout.idColumn], expressions: [TableLayout.idColumn])
        for property in plan.properties where !property.new.type.isCollection {
            let column = TableLayout.column(property.new.name)
            if property.new.type == .mixed {
                try appendMixed(property, column: column, to: &selection)
                continue
            }
            guard let (sql, arguments) = try expression(property, keyBase: keyBase) else { continue }
            selection.columns.append(column)
            selection.expressions.append(sql)
            selection.arguments += arguments
        }
        return selection
    }

    /// The expression giving a (non-mixed) property its value from an old row; `nil` when it stays null.
    func expression(_ plan: PropertyMigration, keyBase: Int64) throws(KuraError) -> (sql: String, arguments: [StoredCell])? {
        let fill: (sql: String, arguments: [StoredCell])?
        switch plan.fill {
        case .value(let value)?:
            fill = ("?", [try encode(value, for: plan.new)])
        case .now?:
            fill = ("?", [try encode(.date(now), for: plan.new)])
        case .uuid?:
            fill = (dialect.uuidExpression, [])
        case .autoIncrement?:
            fill = ("(? + row_number() OVER (ORDER BY \(TableLayout.idColumn)))", [.integer(keyBase)])
        case .null?, .empty?, .missing?, nil:
            fill = nil
        }
        guard plan.copies, let old = plan.old else { return fill }
        let column = TableLayout.column(old.name)
        guard let fill else { return (column, []) }
        return ("COALESCE(\(column), \(fill.sql))", fill.arguments)
    }

    /// A mixed property: the value and its tag, from the old columns or from a fixed default.
    private func appendMixed(_ plan: PropertyMigration, column: String, to selection: inout Selection) throws(KuraError) {
        if plan.copies, let old = plan.old {
            selection.columns += [column, TableLayout.tagColumn(plan.new.name)]
            selection.expressions += [TableLayout.column(old.name), TableLayout.tagColumn(old.name)]
            return
        }
        guard case .value(let value)? = plan.fill, let (tag, type) = MixedTag.scalar(for: value),
            let stored = ScalarCodec.cell(value, as: type)
        else { return }
        selection.columns += [column, TableLayout.tagColumn(plan.new.name)]
        selection.expressions += ["?", "?"]
        selection.arguments += [dialect.storedMixedCell(stored), .integer(tag)]
    }

    private func encode(_ value: Value, for property: Property) throws(KuraError) -> StoredCell {
        dialect.storedCell(try encodeScalar(value, property.type, property.name))
    }
}
