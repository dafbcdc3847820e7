/// Inserts held back and written a batch at a time with `COPY … FROM STDIN`: each table's rows
/// wait as COPY text (`PostgresCopyText`) until `rowsPerBatch` rows or `bytesPerBatch` bytes are
/// held, then go in with one COPY, which costs the server far less than a statement per row.
///
/// The batches are larger than SQLite's: each COPY costs round trips to the server and a start
/// there, which many rows share.
///
/// Rows held are not in the tables yet: the writer writes every batch before anything that could
/// read them runs, and finds the primary keys of held objects here.
final class PostgresHeldInserts {
    private let session: PostgresSession
    private let statements: PostgresInsertStatements
    /// Per `WriteStatements.BulkInsert` index, the rows held for its table.
    private var tables: [HeldRows?]
    /// The ids of held objects by primary key (its stored cell), per keyed type.
    private var pendingKeys: [String: [StoredCell: Int64]] = [:]
    /// Whether any table has rows held.
    private(set) var isEmpty = true

    static let rowsPerBatch = 16_384
    static let bytesPerBatch = 1 << 20

    init(session: PostgresSession, statements: PostgresInsertStatements, catalog: SchemaCatalog) {
        self.session = session
        self.statements = statements
        tables = Array(repeating: nil, count: catalog.bulkInsertCount)
    }

    /// Holds one or more rows of `bulk`'s table: the staged cells in `range`, row after row; a row
    /// short of cells is filled with nulls.
    func append(_ bulk: WriteStatements.BulkInsert, from stage: RowStage, cells range: Range<Int>) throws(KuraError) {
        let held = try rows(of: bulk)
        let width = held.insert.columns.count
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + width, range.upperBound)
            for index in start..<end { held.text.appendStaged(stage, at: index) }
            for _ in (end - start)..<width { held.text.append(.null) }
            held.text.endRow()
            held.count += 1
            start = end
            if held.count >= Self.rowsPerBatch || held.text.buffer.readableBytes >= Self.bytesPerBatch {
                try write(held)
            }
        }
        isEmpty = false
    }

    /// Notes that the held object `id` of `type` has primary key `key` (its stored form).
    func noteKey(_ key: StoredCell, of type: String, id: Int64) {
        pendingKeys[type, default: [:]][key] = id
    }

    /// The id of a held object of `type` with primary key `key`, if there is one.
    func id(of type: String, key: StoredCell) -> Int64? {
        pendingKeys[type]?[key]
    }

    /// The highest integer primary key among the held objects of `type`, if any.
    func highestIntegerKey(of type: String) -> Int64? {
        pendingKeys[type]?.keys.reduce(nil) { highest, key in
            guard case .integer(let number) = key else { return highest }
            return max(highest ?? number, number)
        }
    }

    /// Writes every table's held rows.
    func flush() throws(KuraError) {
        guard !isEmpty else { return }
        for held in tables {
            if let held, held.count > 0 { try write(held) }
        }
        isEmpty = true
    }

    /// Drops every held row, unwritten, and a batch the server is still taking, whatever its end.
    func discard() {
        try? session.finishCopy()
        for held in tables { held?.clear() }
        for type in pendingKeys.keys { pendingKeys[type]?.removeAll(keepingCapacity: true) }
        isEmpty = true
    }

    /// Sends `held`'s rows to its table and empties it; the server takes them while the writer
    /// goes on (`PostgresSession.startCopy`).
    private func write(_ held: HeldRows) throws(KuraError) {
        let data = held.text.buffer
        held.clear()
        try session.startCopy(into: held.insert.table, columns: held.insert.columns, data)
        if let type = held.keyedType { pendingKeys[type]?.removeAll(keepingCapacity: true) }
    }

    private func rows(of bulk: WriteStatements.BulkInsert) throws(KuraError) -> HeldRows {
        if bulk.index < tables.count, let held = tables[bulk.index] { return held }
        let held = HeldRows(try statements.insert(bulk), keyedType: bulk.keyedType)
        tables[bulk.index] = held
        return held
    }
}

/// The rows of one table waiting in `PostgresHeldInserts`, as COPY text.
private final class HeldRows {
    let insert: PostgresInsert
    /// The type whose primary keys the rows hold, for an object table with one.
    let keyedType: String?
    // Only ever used by the one thread of the write transaction.
    @exclusivity(unchecked) var text = PostgresCopyText()
    /// How many rows are held.
    var count = 0

    init(_ insert: PostgresInsert, keyedType: String?) {
        self.insert = insert
        self.keyedType = keyedType
    }

    /// Empties the rows without writing them.
    func clear() {
        text = PostgresCopyText()
        count = 0
    }
}
