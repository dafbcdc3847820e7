import Foundation

/// A realm: one object store in an SQLite file (WAL mode) or in memory.
///
/// Changes happen inside `write { … }`, which is one atomic SQLite transaction; other connections
/// and processes wait for it rather than fail.
///
/// A `Realm` is `Sendable`: one handle may be used from any thread or task at once. Its connection
/// runs one statement sequence at a time, so uses from several threads take turns, and a read on
/// another thread waits while a `write` transaction is open on it (`asyncWrite` writes through a
/// second connection, which reads do not wait for). A write transaction belongs to the
/// thread that opened it: inside `write { … }` that thread reads and writes through it (the block
/// may call any realm method), while other threads see no transaction (`isInWriteTransaction` is
/// `false` for them) and their writes wait for it to end. `asyncWrite` does the waiting off the
/// caller's thread. A write block must not wait for another thread that uses the same realm.
public final class Realm: Sendable {
    /// Where a realm lives and which schema it should have.
    public struct Configuration: Sendable {
        /// A file path, `:memory:` for a private in-memory realm, or a PostgreSQL URL,
        /// `postgres://USER@HOST:PORT/DATABASE?schema=NAME`, for a realm kept in one schema of a
        /// PostgreSQL database (its password comes from `PGPASSWORD` or `~/.pgpass`, never the URL).
        public var path: String
        /// The schema to open with; `nil` opens an existing realm with the schema it stores.
        public var schema: Schema?
        /// How long a connection waits for a lock another connection holds while that connection
        /// writes nothing, in seconds: a writer queued behind other writers that keep committing waits
        /// for them however long they take.
        public var busyTimeout: TimeInterval
        /// Migrates a realm whose stored schema differs from `schema`: it runs, inside the migration's
        /// transaction, when `schema` has a higher version than the stored one. Without it, opening
        /// applies only additive changes (new types, new optional or defaulted properties) and refuses
        /// the others.
        public var migrationBlock: MigrationBlock?
        /// Opens an existing realm file only to read it: writes fail, and the file and its folder are
        /// left as they were (no `-wal` or `-shm` file stays behind), so a user who may only read
        /// the realm can open it. `schema` and `migrationBlock` must be `nil`.
        public var readOnly: Bool

        /// Makes a configuration for the realm at `path`.
        public init(
            path: String, schema: Schema? = nil, busyTimeout: TimeInterval = 60, migrationBlock: MigrationBlock? = nil,
            readOnly: Bool = false
        ) {
            self.path = path
            self.schema = schema
            self.busyTimeout = busyTimeout
            self.migrationBlock = migrationBlock
            self.readOnly = readOnly
        }

        /// Whether the realm lives in memory only.
        public var isInMemory: Bool { path == ":memory:" || path.hasPrefix("memory:") }

        /// A short name for the realm, such as a server gives it: the file's name without its
        /// extension, or the name of a server realm's schema.
        public var name: String {
            StorageEngines.serverRealmSchema(path) ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        }

        /// Whether the realm lives in a file: not in memory, and not on a database server.
        public var isFile: Bool { !isInMemory && !StorageEngines.isServerURL(path) }

        /// The name every handle of this realm in the process shares, however its path is written
        /// (what `asyncWrite`'s queue and the change notifier are found by): the resolved file path,
        /// a named in-memory realm's name, or a server realm's URL as the engine spells it; `nil`
        /// for a private `:memory:` realm, which no other handle can open.
        var sharedName: String? {
            if path == ":memory:" { return nil }
            if isInMemory { return path }
            if let name = StorageEngines.serverRealmName(path) { return name }
            return URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
    }

    /// How the realm was opened.
    public let configuration: Configuration
    /// The connection to the realm's storage, through the engine that holds it.
    let connection: any RelationalEngine
    /// Everything that changes after opening, behind a lock (see `RealmState`).
    let state: RealmState
    /// The model class instances read from or added to this realm, with the objects they are.
    let identities: ManagedIdentities
    /// Where `asyncWrite` runs its blocks: the realm file's serial queue.
    let writerQueue: DispatchQueue

    /// Set once the schema is prepared; a migration replaces it as it goes.
    var catalog: SchemaCatalog {
        get { state.catalog }
        set { state.catalog = newValue }
    }
    /// The write transaction the calling thread opened, if any.
    var transaction: WriteTransaction? {
        get { state.transaction }
        set { state.transaction = newValue }
    }
    /// What opening did to the realm file.
    public internal(set) var openOutcome: OpenOutcome {
        get { state.openOutcome }
        set { state.openOutcome = newValue }
    }
    /// Bumped by every committed write, so that `Results` know to read again.
    var commitVersion: Int { state.commitVersion }
    /// How many object ids `Results` have read, for tests that check they read in windows.
    var resultsRowsRead: Int { state.resultsRowsRead }
    /// SQLite's schema cookie when the catalog was made, to notice other processes' schema changes.
    var catalogCookie: Int64 {
        get { state.catalogCookie }
        set { state.catalogCookie = newValue }
    }

    /// The realm's schema.
    public var schema: Schema { catalog.schema }

    /// Opens (creating if needed) the realm described by `configuration`, migrating it when the
    /// configuration has a `migrationBlock` and a schema of a higher version than the stored one.
    public convenience init(configuration: Configuration) throws {
        try self.init(configuration: configuration, migrating: configuration.migrationBlock != nil)
    }

    /// Opens the realm; `migrating` allows changes other than additive ones (see `MigrationExecutor`).
    /// A second handle of one realm shares its model `identities`.
    init(configuration: Configuration, migrating: Bool, identities: ManagedIdentities = ManagedIdentities()) throws {
        self.configuration = configuration
        self.identities = identities
        writerQueue = WriterQueues.shared.queue(for: configuration)
        if configuration.readOnly && !configuration.isInMemory {
            guard configuration.schema == nil && !migrating else {
                throw KuraError.store(.openFailed, "a realm opened read-only takes the schema it stores: give no schema")
            }
        }
        let connection = try StorageEngines.connect(
            path: configuration.path, isInMemory: configuration.isInMemory, busyTimeout: configuration.busyTimeout,
            readOnly: configuration.readOnly, mayCreate: configuration.schema != nil)
        self.connection = connection
        state = RealmState(catalog: SchemaCatalog(schema: Schema(types: []), typeIds: [:], limits: connection.queryLimits))
        try openSchema(migrating: migrating)
    }

    /// Opens (creating if needed) the realm at `path`; `:memory:` makes a private in-memory realm.
    public convenience init(path: String, schema: Schema? = nil) throws {
        try self.init(configuration: Configuration(path: path, schema: schema))
    }

    // MARK: Transactions

    /// Whether the calling thread has a write transaction open on this realm.
    public var isInWriteTransaction: Bool { transaction != nil }

    /// Runs `block` in one atomic write transaction: everything it writes is committed together,
    /// or nothing is if it throws. The transaction first takes up a schema another process stored
    /// since this realm read it (such as a property added with a default), so `schema` may change.
    ///
    /// The calling thread waits while another thread or process writes; `asyncWrite` waits off it.
    /// Writing again inside `block` (on the same thread) throws `.notInWriteTransaction`.
    @discardableResult
    public func write<Result>(_ block: () throws -> Result) throws -> Result {
        guard transaction == nil else {
            throw KuraError.store(.notInWriteTransaction, "the realm is already in a write transaction")
        }
        var used: WriteTransaction?
        do {
            let result = try connection.writeTransaction(catalog: { store in
                try refreshCatalog(store)
                return catalog
            }) { writer in
                let transaction = WriteTransaction(storage: writer)
                used = transaction
                self.transaction = transaction
                defer { self.transaction = nil }
                let result = try block()
                try transaction.requireResolvedReferences()
                return result
            }
            used?.finishScopes(committed: true)
            state.committed()
            return result
        } catch {
            // References defined by a rolled-back transaction name objects that no longer exist.
            used?.finishScopes(committed: false)
            throw error
        }
    }

    /// The open write transaction, or the error Realm users know for writing outside one.
    func requireTransaction() throws(KuraError) -> WriteTransaction {
        guard let transaction else {
            throw KuraError.store(
                .notInWriteTransaction,
                "cannot modify a realm outside a write transaction: wrap the change in realm.write { … }")
        }
        return transaction
    }

    /// What reads see the realm's storage through, whichever engine holds it.
    typealias Snapshot = any RelationalSnapshot

    /// Runs `body` with a snapshot: of the open write transaction, or of a read transaction of its own.
    func read<T>(_ body: (Snapshot) throws -> T) throws -> T {
        let catalog = self.catalog
        if let transaction { return try Self.run(sql: nil) { try body(try transaction.storage.snapshot(by: catalog)) } }
        return try connection.snapshot(catalog: catalog, body)
    }

    /// Runs `body`, turning the engine's errors into `KuraError`s that carry their SQL.
    @discardableResult
    static func run<T>(sql: String?, _ body: () throws -> T) throws -> T {
        try KuraError.catchingEngineErrors(sql: sql, body)
    }
}
