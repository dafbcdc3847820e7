import Foundation

/// One connection to a realm's storage, as the realm reads and writes through it: the seam every
/// engine (SQLite, PostgreSQL) implements, so that nothing above it learns which one it talks to.
///
/// A connection runs one transaction at a time. Reads see one consistent state for the length of
/// their body; a write transaction is atomic, and writers from any connection or process take turns.
/// Failures are `KuraError`s that name the realm and, where one ran, the statement.
protocol RelationalEngine: AnyObject, Sendable {
    /// The limits the engine's SQL puts on compiled queries.
    var queryLimits: QueryLimits { get }

    /// Runs `body` with the realm's layout in a read transaction of its own.
    func readingSchema<T>(_ body: (any RelationalSchemaStore) throws -> T) throws -> T
    /// Runs `body` with the realm's layout in a write transaction of its own, committed when it returns.
    func writingSchema<T>(_ body: (any RelationalSchemaStore) throws -> T) throws -> T
    /// Runs `body` with a snapshot laid out by `catalog`, in a read transaction of its own.
    func snapshot<T>(catalog: SchemaCatalog, _ body: (any RelationalSnapshot) throws -> T) throws -> T
    /// Runs one write transaction: `catalog` names the schema to write by (it may refresh it from
    /// the store first), then `body` writes through the writer for it; the engine writes what the
    /// writer holds, records the commit in the change log and commits when `body` returns, and
    /// rolls everything back when either throws.
    func writeTransaction<T>(
        catalog: (any RelationalSchemaStore) throws -> SchemaCatalog, _ body: (any RelationalWriter) throws -> T
    ) throws -> T
    /// The error for storage that holds no realm and may not become one, naming the realm.
    var notARealm: KuraError { get }
    /// Closes the connection; later uses fail.
    func close()

    /// Writes a copy of the whole realm, from one consistent state, into the new SQLite file at
    /// `path`; `false` when the engine cannot, and the caller copies object by object.
    func copyWhole(into path: String) throws -> Bool
    /// Starts making what was committed durable without waiting for it; 0 or an `errno`.
    func startWritingBack() -> Int32
    /// Runs `body` with `source`'s tables readable by this connection's statements when both are
    /// realms of this engine that allow it (`body` gets `true`: the transaction's writer may then
    /// `copySetBased`), else with `false`.
    func withSetBasedSource<T>(_ source: any RelationalEngine, _ body: (Bool) throws -> T) throws -> T
}
