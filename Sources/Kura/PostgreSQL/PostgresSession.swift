import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Synchronization

/// One connection to the PostgreSQL server of a realm, used synchronously: each call sends its
/// statement and waits for the answer (through `PostgresWaiter`), as every realm call does.
///
/// Statements name the realm's tables unqualified: the connection's `search_path` is the realm's
/// schema. `Sendable`: the driver orders the statements of several threads on the connection, but
/// a transaction belongs to whoever opened it, as with any single connection.
final class PostgresSession: Sendable {
    let location: PostgresLocation
    private let connection: PostgresConnection
    private let logger: Logger
    /// Fails the waits on the connection when it closes.
    private let watch = ConnectionWatch()
    /// The COPY batches `startCopy` began, until a call waits for them.
    private let copies: PostgresCopyQueue
    /// The statements `send` sent, whose answers the next statement's wait checks.
    private let sent = Mutex<[Sent]>([])

    private static let connectionIds = Atomic<Int>(0)

    /// Opens a connection to `location`'s server, with the password from `environment` (see
    /// `PostgresPassword`) and the TLS the URL asks for.
    init(_ location: PostgresLocation, environment: [String: String] = ProcessInfo.processInfo.environment) throws(KuraError) {
        self.location = location
        let logger = Logger(label: "kura.postgres") { _ in SwiftLogNoOpLogHandler() }
        self.logger = logger
        let password = PostgresPassword.find(for: location, environment: environment)
        var configuration: PostgresConnection.Configuration
        if let folder = location.socketFolder {
            configuration = PostgresConnection.Configuration(
                unixSocketPath: (folder as NSString).appendingPathComponent(".s.PGSQL.\(location.port)"),
                username: location.user, password: password, database: location.database)
        } else {
            configuration = PostgresConnection.Configuration(
                host: location.host ?? "localhost", port: location.port, username: location.user, password: password,
                database: location.database, tls: try Self.tls(for: location))
        }
        configuration.options.connectTimeout = .seconds(Int64(location.connectTimeout))
        configuration.options.additionalStartupParameters = [
            ("search_path", location.quotedSchema), ("application_name", location.applicationName),
            // Texts and dates read back as written, whatever the server's or the database's settings.
            ("client_encoding", "UTF8"), ("DateStyle", "ISO"), ("extra_float_digits", "3"),
        ]
        let id = Self.connectionIds.add(1, ordering: .relaxed).newValue
        do {
            connection = try PostgresWaiter.shared.wait { [configuration] in
                try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: id, logger: logger)
            }
        } catch {
            throw KuraError.postgresConnect(error, location)
        }
        let watch = self.watch
        let location = self.location
        copies = PostgresCopyQueue(connection: connection, logger: logger, watch: watch) { sql in Self.lost(sql, location) }
        connection.closeFuture.whenComplete { _ in watch.closed() }
    }

    deinit {
        // The driver's connection must outlive its closing.
        let connection = self.connection
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Closes the connection; later calls fail.
    func close() {
        try? finishCopy()
        let connection = self.connection
        try? PostgresWaiter.shared.wait { try await connection.close() }
    }

    /// Runs one statement, discarding any rows. Every call takes `?` placeholders (numbered here) or
    /// PostgreSQL's own `$1`, `$2`, ….
    func execute(_ sql: String, _ arguments: [StoredCell] = []) throws(KuraError) {
        _ = try run(sql, arguments) { _ in () }
    }

    /// The rows `sql` returns, each as its cells.
    func rows(_ sql: String, _ arguments: [StoredCell] = []) throws(KuraError) -> [[StoredCell]] {
        try run(sql, arguments) { try StoredCell.cells(of: $0) }
    }

    /// The first cell of the first row `sql` returns, or `nil` when it returns none.
    func value(_ sql: String, _ arguments: [StoredCell] = []) throws(KuraError) -> StoredCell? {
        try rows(sql, arguments).first?.first
    }

    /// Sends one statement without arguments and returns without its answer: the next statement
    /// follows it on the connection at once, and the wait for that one throws this one's error, if
    /// any, as its own. For statements whose answer nothing needs, a transaction's `BEGIN` say.
    func send(_ sql: String) throws(KuraError) {
        try finishCopy()
        let answered = connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).map { _ in () }
        sent.withLock { $0.append(Sent(answer: answered, sql: sql)) }
    }

    /// Waits for the answers of the statements `send` sent; throws the first one's error.
    private func checkSent() throws(KuraError) {
        let unchecked = sent.withLock { sent in defer { sent = [] }; return sent }
        for statement in unchecked {
            do {
                try PostgresWaiter.shared.wait(for: statement.answer, watching: watch, lost: self.lost(statement.sql))
            } catch {
                throw KuraError.postgres(error, sql: statement.sql, location)
            }
        }
    }

    /// Runs `sql` and hands its rows to `transform`, on the driver's side, as they arrive.
    private func run<T: Sendable>(
        _ sql: String, _ arguments: [StoredCell], _ transform: @escaping @Sendable (PostgresRow) throws -> T
    ) throws(KuraError) -> [T] {
        try finishCopy()
        let connection = self.connection
        let logger = self.logger
        let query = PostgresQuery(unsafeSQL: PostgresPlaceholders.numbered(sql), binds: StoredCell.bindings(arguments))
        // The rows are transformed on the driver's thread as they arrive, while the server sends the rest.
        let collected = Collected<T>()
        let answered = connection.query(query, logger: logger) { row in
            let value = try transform(row)
            collected.rows.withLock { $0.append(value) }
        }
        let outcome = Result<Void, any Error> { _ = try PostgresWaiter.shared.wait(for: answered, watching: watch, lost: self.lost(sql)) }
        // The statements sent before this one were answered before it; their errors come first.
        try checkSent()
        do {
            try outcome.get()
            return collected.rows.withLock { $0 }
        } catch {
            throw KuraError.postgres(error, sql: sql, location)
        }
    }

    /// Loads rows into `table` with `COPY … FROM STDIN` in text format: `data` holds whole lines
    /// (`PostgresCopyText`). `table` and `columns` are quoted here.
    func copy(into table: String, columns: [String], _ data: ByteBuffer) throws(KuraError) {
        try startCopy(into: table, columns: columns, data)
        try finishCopy()
    }

    /// Starts loading rows as `copy` does and returns while the server takes them, so that the
    /// caller makes the next rows meanwhile (`PostgresCopyQueue`). The next statement on the
    /// session waits for every batch first, and throws the first error, if any, as its own.
    func startCopy(into table: String, columns: [String], _ data: ByteBuffer) throws(KuraError) {
        try checkSent()
        // The driver wraps the names in quotes without doubling those inside: doubled here, so
        // that any name arrives whole.
        let escape = { (name: String) in name.replacingOccurrences(of: "\"", with: "\"\"") }
        do {
            try copies.start(
                table: escape(table), columns: columns.map(escape), data, sql: "COPY \(TableLayout.quote(table)) FROM STDIN")
        } catch {
            throw KuraError.postgres(error.underlying, sql: error.sql, location)
        }
    }

    /// Waits for the COPY batches `startCopy` began, if any; throws the first one's error.
    func finishCopy() throws(KuraError) {
        do {
            try copies.finish()
        } catch {
            throw KuraError.postgres(error.underlying, sql: error.sql, location)
        }
    }

    /// The rows of one statement, appended on the driver's thread and read by the caller after the end.
    private final class Collected<T: Sendable>: Sendable {
        let rows = Mutex<[T]>([])
    }

    /// A statement sent without waiting, and its text for the error it may end with.
    private struct Sent {
        let answer: EventLoopFuture<Void>
        let sql: String
    }

    /// The error of a statement whose connection closed before it was answered.
    private func lost(_ sql: String) -> KuraError {
        Self.lost(sql, location)
    }

    private static func lost(_ sql: String, _ location: PostgresLocation) -> KuraError {
        KuraError.store(.database, "the connection to realm '\(location.description)' was lost", sql: sql)
    }

    /// The TLS mode of the driver for the URL's `sslmode`.
    private static func tls(for location: PostgresLocation) throws(KuraError) -> PostgresConnection.Configuration.TLS {
        var settings = TLSConfiguration.makeClientConfiguration()
        switch location.tlsMode {
        case .disable: return .disable
        case .allow, .prefer, .require: settings.certificateVerification = .none
        case .verifyCA: settings.certificateVerification = .noHostnameVerification
        case .verifyFull: settings.certificateVerification = .fullVerification
        }
        if let roots = location.rootCertificates { settings.trustRoots = .file(roots) }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: settings)
        } catch {
            throw KuraError.store(
                .openFailed, "cannot open realm '\(location.description)': TLS could not be set up: \(error)", underlying: error)
        }
        switch location.tlsMode {
        case .allow, .prefer: return .prefer(context)
        default: return .require(context)
        }
    }
}
