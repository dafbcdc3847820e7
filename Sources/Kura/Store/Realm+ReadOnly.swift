import Foundation
import GRDB

extension Realm {
    /// A read-only connection to the SQLite file at `path`, for work that must never write to a
    /// realm (migration plans, checks): SQLite then refuses any write, and never checkpoints.
    static func readOnlyQueue(_ path: String, busyTimeout: TimeInterval) throws(StoreError) -> DatabaseQueue {
        var config = GRDB.Configuration()
        config.readonly = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "Kura (read-only)"
        return try retryingWhileBusy(path: path, timeout: busyTimeout) {
            try DatabaseQueue(path: path, configuration: config)
        }
    }
}
