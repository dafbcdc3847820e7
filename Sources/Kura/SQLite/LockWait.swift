import Foundation
import Synchronization

/// How a realm's connection waits for a lock another connection holds: for as long as that
/// connection keeps writing, and gives up only after `timeout` seconds in which nothing was written.
///
/// A plain timeout counts all the waiting: with several importers, one that queues behind the long
/// transactions of the others, or that keeps missing the moment between another's batches, fails
/// while the realm is busy doing useful work. Progress is read from the WAL file, which every
/// write (each commit, and each page a large transaction spills) changes.
final class LockWait: Sendable {
    private let walPath: String
    private let timeout: TimeInterval
    /// The WAL's size and modification time when last looked at, and when they last changed.
    private let state = Mutex<(seen: WALStamp?, progress: Date)>((nil, Date()))

    private struct WALStamp: Equatable {
        let size: Int64
        let seconds: Int
        let nanoseconds: Int
    }

    init(databasePath: String, timeout: TimeInterval) {
        walPath = databasePath + "-wal"
        self.timeout = timeout
    }

    /// The busy handler: sleeps a little, then says whether to try again (`numberOfTries` starts
    /// at 0 for each new wait).
    func shouldRetry(numberOfTries: Int) -> Bool {
        if numberOfTries == 0 {
            let stamp = currentStamp()
            state.withLock { $0 = (stamp, Date()) }
        }
        // Short sleeps: the lock may be free only briefly between another writer's transactions.
        Thread.sleep(forTimeInterval: min(0.0005 * Double(numberOfTries + 1), 0.01))
        let stamp = currentStamp()
        return state.withLock { state in
            let now = Date()
            if stamp != state.seen {
                state = (stamp, now)
                return true
            }
            return now.timeIntervalSince(state.progress) < timeout
        }
    }

    private func currentStamp() -> WALStamp? {
        var info = stat()
        guard stat(walPath, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return WALStamp(size: Int64(info.st_size), seconds: modified.tv_sec, nanoseconds: modified.tv_nsec)
    }
}
