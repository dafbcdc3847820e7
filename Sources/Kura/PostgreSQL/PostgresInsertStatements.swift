/// The PostgreSQL form of a catalog's write statements (`WriteStatements`), by the same slot and
/// bulk numbers: the writer is handed slots made for SQLite's SQL, and runs these instead.
final class PostgresInsertStatements {
    /// The insert of each `WriteStatements.Slot` that inserts, by slot index (`nil` for lookups).
    private let bySlot: [PostgresInsert?]
    /// The insert each `WriteStatements.BulkInsert` holds rows for, by its index.
    private let byBulk: [PostgresInsert?]
    /// Per `StoredType.index`, the statement finding an object's id by its primary key.
    let lookups: [String?]

    init(_ catalog: SchemaCatalog) {
        var bySlot = [PostgresInsert?](repeating: nil, count: catalog.writeStatementCount)
        var byBulk = [PostgresInsert?](repeating: nil, count: catalog.bulkInsertCount)
        var lookups: [String?] = []
        for type in catalog.storedTypes {
            var columns = ["#id"]
            var mixed = [false]
            for property in type.columns {
                columns.append(property.name)
                mixed.append(property.scalarType == .mixed)
                if property.scalarType == .mixed {
                    columns.append(property.name + "#type")
                    mixed.append(false)
                }
            }
            let object = PostgresInsert(table: type.name, columns: columns, mixed: mixed, rows: 1)
            let statements = type.statements
            if statements.insert.index < bySlot.count { bySlot[statements.insert.index] = object }
            if let bulk = statements.bulkInsert, bulk.index < byBulk.count { byBulk[bulk.index] = object }
            lookups.append(type.key.map { key in
                "SELECT \(TableLayout.idColumn) FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.column(key.name)) = $1"
            })
            for property in type.collections {
                let table = "\(type.name).\(property.name)"
                var columns = ["#owner"]
                switch property.collection {
                case .list?: columns.append("#pos")
                case .map?: columns.append("#key")
                default: break
                }
                columns.append("#value")
                var mixed = Array(repeating: false, count: columns.count)
                mixed[columns.count - 1] = property.hasMixedElements
                if property.hasMixedElements {
                    columns.append("#type")
                    mixed.append(false)
                }
                for (rows, slot) in zip(1..., property.collectionInserts) where slot.index < bySlot.count {
                    bySlot[slot.index] = PostgresInsert(table: table, columns: columns, mixed: mixed, rows: rows)
                }
                if let bulk = property.collectionBulkInsert, bulk.index < byBulk.count {
                    byBulk[bulk.index] = PostgresInsert(table: table, columns: columns, mixed: mixed, rows: 1)
                }
            }
        }
        self.bySlot = bySlot
        self.byBulk = byBulk
        self.lookups = lookups
    }

    /// The insert `slot` stands for.
    func insert(_ slot: WriteStatements.Slot) throws(KuraError) -> PostgresInsert {
        guard slot.index < bySlot.count, let insert = bySlot[slot.index] else {
            throw KuraError.store(.database, "no PostgreSQL insert stands for the statement \(slot.sql)")
        }
        return insert
    }

    /// The insert whose rows `bulk` holds.
    func insert(_ bulk: WriteStatements.BulkInsert) throws(KuraError) -> PostgresInsert {
        guard bulk.index < byBulk.count, let insert = byBulk[bulk.index] else {
            throw KuraError.store(.database, "no PostgreSQL insert stands for the statement \(bulk.sql)")
        }
        return insert
    }
}

/// One insert into one table: its names (unquoted, as COPY takes them), which columns hold mixed
/// values, and its SQL for `rows` rows of bound values.
struct PostgresInsert {
    let table: String
    let columns: [String]
    /// Per column, whether it holds a mixed value (`PostgresLayout.storedMixed`) rather than a typed one.
    let mixed: [Bool]
    let rows: Int
    let sql: String

    init(table: String, columns: [String], mixed: [Bool], rows: Int) {
        self.table = table
        self.columns = columns
        self.mixed = mixed
        self.rows = rows
        var parameter = 0
        let values = (0..<rows).map { _ in
            "(" + columns.map { _ in
                parameter += 1
                return "$\(parameter)"
            }.joined(separator: ", ") + ")"
        }
        sql = "INSERT INTO \(TableLayout.quote(table)) (\(columns.map(TableLayout.quote).joined(separator: ", "))) VALUES "
            + values.joined(separator: ", ")
    }

    /// The staged cell at `index` of `stage`, in column `column`, as the column stores it.
    func stored(_ stage: RowStage, at index: Int, column: Int) -> StoredCell {
        let cell = stage.cell(at: index)
        return mixed[column] ? PostgresLayout.storedMixed(cell) : PostgresLayout.stored(cell)
    }

    /// The bound values of the rows staged in `range`, each as its column stores it.
    func arguments(_ stage: RowStage, cells range: Range<Int>) -> [StoredCell] {
        var arguments: [StoredCell] = []
        arguments.reserveCapacity(range.count)
        for (offset, index) in range.enumerated() {
            arguments.append(stored(stage, at: index, column: offset % columns.count))
        }
        return arguments
    }
}
