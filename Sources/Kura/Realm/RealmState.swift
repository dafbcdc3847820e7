import Foundation

/// The mutable state of one `Realm` handle, behind a lock so that the handle can be shared by
/// threads and tasks.
///
/// The lock is held only to read or replace a field, never while SQL runs or user code is called,
/// so it cannot take part in a deadlock. The open write transaction belongs to the thread that
/// opened it: only that thread is handed it (`transaction`), so writes on one thread never land in
/// another thread's transaction, and a thread that finds none waits for the connection instead.
///
/// `@unchecked Sendable`: every stored property is read and written under `lock`, and the
/// `WriteTransaction` (a class bound to the connection) is returned only to its owning thread.
final class RealmState: @unchecked Sendable {
    private let lock = NSLock()
    private var _catalog: SchemaCatalog
    private var _catalogCookie: Int64 = 0
    private var _commitVersion = 0
    private var _resultsRowsRead = 0
    private var _openOutcome = OpenOutcome.opened
    /// The open write transactions and the threads they belong to: at most one per connection,
    /// and a handle whose `asyncWrite` writes through a second connection may see two.
    private var transactions: [(owner: pthread_t, transaction: WriteTransaction)] = []
    private var _asyncWriter: Realm?

    init(catalog: SchemaCatalog) {
        _catalog = catalog
    }

    var catalog: SchemaCatalog {
        get { lock.withLock { _catalog } }
        set { lock.withLock { _catalog = newValue } }
    }

    var catalogCookie: Int64 {
        get { lock.withLock { _catalogCookie } }
        set { lock.withLock { _catalogCookie = newValue } }
    }

    var openOutcome: OpenOutcome {
        get { lock.withLock { _openOutcome } }
        set { lock.withLock { _openOutcome = newValue } }
    }

    var commitVersion: Int { lock.withLock { _commitVersion } }

    /// Counts one more committed write.
    func committed() { lock.withLock { _commitVersion &+= 1 } }

    var resultsRowsRead: Int { lock.withLock { _resultsRowsRead } }

    /// Adds `count` object ids read by `Results`.
    func countRowsRead(_ count: Int) { lock.withLock { _resultsRowsRead += count } }

    /// The write transaction the calling thread opened, if any; `nil` on every other thread.
    /// Setting it sets (or with `nil` ends) the calling thread's.
    var transaction: WriteTransaction? {
        get {
            let current = pthread_self()
            return lock.withLock { transactions.first { pthread_equal($0.owner, current) != 0 }?.transaction }
        }
        set {
            let current = pthread_self()
            lock.withLock {
                transactions.removeAll { pthread_equal($0.owner, current) != 0 }
                if let newValue { transactions.append((current, newValue)) }
            }
        }
    }

    /// The second handle `asyncWrite` writes through, once opened.
    var asyncWriter: Realm? {
        get { lock.withLock { _asyncWriter } }
        set { lock.withLock { _asyncWriter = newValue } }
    }
}
