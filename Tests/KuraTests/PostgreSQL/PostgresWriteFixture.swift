import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// A PostgreSQL realm made for one test in a schema of its own on the test server, written through
/// `PostgresWriter` the way `Realm.write` drives a writer: `WriteTransaction` and `ObjectWriter`
/// inside `BEGIN`/`COMMIT`.
struct PostgresWriteFixture {
    /// Every property kind: scalars of each type, links, embedded objects, lists, sets and maps of
    /// scalars, links and mixed values, and mixed properties.
    static let schemaText = """
        schemaVersion: 3
        types:
          Item:
            primaryKey: code
            properties:
              code: string
              count: { type: int, indexed: true }
              flag: bool
              ratio: double
              small: float
              price: decimal?
              when: date?
              blob: data?
              oid: objectId?
              uid: uuid?
              note: string?
              any: mixed
              owner: Person?
              spot: Spot?
              tags: list<string>
              seen: set<int>
              scores: map<double>
              extras: list<mixed>
              bag: map<mixed>
              things: set<mixed>
              friends: list<Person>
          Person:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              name: string
              pals: set<Person>
              byName: map<Person?>
          Plain:
            properties:
              label: string
              spots: list<Spot>
          Spot:
            embedded: true
            properties:
              x: int
              near: list<Spot>
        """

    let session: PostgresSession
    let schema: Schema
    let catalog: SchemaCatalog

    /// A new realm with `schemaText` (or `text`), installed in a transaction of its own.
    init(label: String, schema text: String = Self.schemaText) throws {
        session = try PostgresSession(PostgresLocation(url: PostgresTestServer.freshRealmURL(label)))
        schema = try Schema(yaml: text)
        try session.execute("BEGIN")
        let store = PostgresSchemaStore(session: session)
        try store.install(schema)
        catalog = try store.catalog(for: schema)
        try session.execute("COMMIT")
    }

    /// Runs `body` in one write transaction, committed when it returns and rolled back when it
    /// throws. When `holding`, inserts are held for COPY batches and changes open no savepoints,
    /// as an all-or-nothing import writes.
    @discardableResult
    func write<T>(holding: Bool = false, _ body: (WriteTransaction, PostgresWriter) throws -> T) throws -> T {
        try session.execute("BEGIN")
        do {
            let writer = PostgresWriter(session: session, catalog: catalog)
            let transaction = WriteTransaction(storage: writer)
            if holding {
                transaction.savepointsPerChange = false
                try writer.holdInserts()
            }
            let result = try body(transaction, writer)
            try transaction.requireResolvedReferences()
            try writer.flush()
            try session.execute("COMMIT")
            return result
        } catch {
            try? session.execute("ROLLBACK")
            throw error
        }
    }

    /// Creates (or updates under `policy`) one object as `Realm.create` does: one atomic change.
    @discardableResult
    static func create(_ transaction: WriteTransaction, _ type: String, _ value: Value, policy: UpdatePolicy = .error) throws -> ObjectRef {
        try transaction.atomically { try ObjectWriter(transaction: transaction).create(type, value, policy: policy, path: type) }
    }

    /// Deletes one object as `Realm.delete` does.
    static func delete(_ transaction: WriteTransaction, _ ref: ObjectRef) throws {
        try transaction.atomically { try ObjectDeleter(transaction: transaction).delete(ref) }
    }

    /// The rows `sql` selects.
    func rows(_ sql: String) throws -> [[StoredCell]] {
        try session.rows(sql)
    }

    /// Every row of every table of the realm but the change log, each table's rows sorted:
    /// what two realms written alike must hold alike.
    func dump() throws -> [String: [[StoredCell]]] {
        let tables = try session.rows("""
            SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()
            AND tablename NOT IN ('#changes', '#changed')
            """)
        var dump: [String: [[StoredCell]]] = [:]
        for case .text(let table)? in tables.map(\.first) {
            dump[table] = try session.rows("SELECT * FROM \(TableLayout.quote(table))").sorted { "\($0)" < "\($1)" }
        }
        return dump
    }
}

/// A text's UTF-8 bytes, as a PostgreSQL realm stores every user text.
func utf8(_ text: String) -> StoredCell {
    .blob(Data(text.utf8))
}
