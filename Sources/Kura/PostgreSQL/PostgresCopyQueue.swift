import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The `COPY … FROM STDIN` batches a session has started and not yet waited for, taken by the
/// server one after the other in the order they were started.
///
/// Several batches may wait their turn, so that a writer which makes rows in bursts keeps the
/// server busy through its slow moments; `limit` bounds them, and with them the memory they hold.
/// After a batch fails, the ones behind it are never sent: the transaction has failed, and the
/// first error is the one to tell.
final class PostgresCopyQueue: Sendable {
    /// How many batches may be under way at once.
    static let limit = 4

    private let connection: PostgresConnection
    private let logger: Logger
    private let watch: ConnectionWatch
    private let lost: @Sendable (String) -> KuraError
    /// The batches under way, oldest first.
    private let batches = Mutex<[Batch]>([])

    init(connection: PostgresConnection, logger: Logger, watch: ConnectionWatch, lost: @escaping @Sendable (String) -> KuraError) {
        self.connection = connection
        self.logger = logger
        self.watch = watch
        self.lost = lost
    }

    /// Queues `data` (whole lines of COPY text) for `table`'s `columns`, already quoted for the
    /// driver, and returns without waiting for the server unless `limit` batches are under way.
    /// Throws the error of an earlier batch that failed, with that batch's statement.
    func start(table: String, columns: [String], _ data: ByteBuffer, sql: String) throws(CopyError) {
        while let oldest = batches.withLock({ $0.count >= Self.limit || $0.first?.isDone == true ? $0.first : nil }) {
            try wait(for: oldest)
        }
        let connection = self.connection
        let logger = self.logger
        let promise = connection.eventLoop.makePromise(of: Void.self)
        let batch = Batch(answer: promise.futureResult, sql: sql)
        let previous = batches.withLock { batches in
            defer { batches.append(batch) }
            return batches.last?.answer
        }
        Task(executorPreference: PostgresWaiter.shared) {
            if let previous {
                do { try await previous.get() } catch {
                    promise.fail(Skipped())
                    return
                }
            }
            do {
                try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in try await writer.write(data) }
                promise.succeed(())
            } catch {
                promise.fail(error)
            }
        }
    }

    /// Waits for every batch under way; throws the first one's error.
    func finish() throws(CopyError) {
        while let oldest = batches.withLock({ $0.first }) {
            try wait(for: oldest)
        }
    }

    /// Waits for `batch`, the oldest, and takes it off the queue; when it failed, waits for the rest
    /// (which then end unsent) and throws its error.
    private func wait(for batch: Batch) throws(CopyError) {
        do {
            try PostgresWaiter.shared.wait(for: batch.answer, watching: watch, lost: self.lost(batch.sql))
            batches.withLock { _ = $0.removeFirst() }
        } catch {
            let rest = batches.withLock { batches in defer { batches = [] }; return batches.dropFirst() }
            for other in rest { _ = try? PostgresWaiter.shared.wait(for: other.answer, watching: watch, lost: self.lost(other.sql)) }
            throw CopyError(underlying: error, sql: batch.sql)
        }
    }

    /// A batch's error, and its statement.
    struct CopyError: Error {
        let underlying: any Error
        let sql: String
    }

    /// The end of a batch never sent, since one before it failed.
    private struct Skipped: Error {}

    /// One batch: the driver's answer, and the statement for its error.
    private final class Batch: Sendable {
        let answer: EventLoopFuture<Void>
        let sql: String
        private let done = Atomic<Bool>(false)

        init(answer: EventLoopFuture<Void>, sql: String) {
            self.answer = answer
            self.sql = sql
            answer.whenComplete { _ in self.done.store(true, ordering: .releasing) }
        }

        /// Whether the server has answered, so that waiting costs nothing.
        var isDone: Bool { done.load(ordering: .acquiring) }
    }
}
