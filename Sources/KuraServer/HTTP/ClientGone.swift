/// A request whose client went away before the server could answer (it disconnected mid-body):
/// the request ends without an answer nobody would read, logged as the client's doing, not the
/// server's failure, and counted in the metrics with status 499 (as nginx counts it).
struct ClientGone: Error, CustomStringConvertible {
    /// What the client left undone.
    let detail: String

    var description: String { detail }

    /// The problem that stands for it in logs and metrics.
    static let status = 499
}
