import NIOCore
import PostgresNIO

extension KuraError {
    /// The error for a failure the PostgreSQL driver reported while connecting to the realm at
    /// `location`: what kept the connection from opening, naming the realm and never a password.
    static func postgresConnect(_ error: any Error, _ location: PostgresLocation) -> KuraError {
        if let error = error as? KuraError { return error }
        let realm = location.description
        guard let failure = error as? PSQLError else {
            return KuraError.store(.openFailed, "cannot reach realm '\(realm)': \(describePostgres(error))", underlying: error)
        }
        let reason: String
        switch failure.code {
        case .server:
            reason = serverMessage(failure)
        case .authMechanismRequiresPassword:
            reason = "the server asks for a password for user '\(location.user)' and none is set: put it in PGPASSWORD or ~/.pgpass"
        case .sslUnsupported:
            reason = "the server does not speak TLS, which sslmode=\(location.tlsMode.rawValue) requires"
        case .failedToAddSSLHandler:
            reason = "TLS could not be set up: \(failure.underlying.map(describePostgres) ?? "unknown")"
        case .connectionError:
            reason = failure.underlying.map(describePostgres) ?? "the connection failed"
        case .serverClosedConnection, .uncleanShutdown:
            reason = "the server closed the connection"
        default:
            reason = "\(failure.code)"
        }
        return KuraError.store(.openFailed, "cannot open realm '\(realm)': \(reason)", underlying: error)
    }

    /// The error for a failure of `sql` on an open connection to the realm at `location`: the
    /// server's SQLSTATE and message, or that the connection was lost.
    static func postgres(_ error: any Error, sql: String?, _ location: PostgresLocation) -> KuraError {
        if let error = error as? KuraError { return error }
        guard let failure = error as? PSQLError else {
            return KuraError.store(.database, "PostgreSQL: \(describePostgres(error))", sql: sql, underlying: error)
        }
        switch failure.code {
        case .server where ["08", "57"].contains(failure.serverInfo?[.sqlState]?.prefix(2) ?? ""):
            // The server ended the session (shut down, restarted, or an administrator's command).
            return KuraError.store(
                .database, "the connection to realm '\(location.description)' was lost: PostgreSQL error \(serverMessage(failure))",
                sql: sql, underlying: error)
        case .server:
            var refusal = KuraError.store(.database, "PostgreSQL error \(serverMessage(failure))", sql: sql, underlying: error)
            refusal.engineCode = judgedCode(sqlState: failure.serverInfo?[.sqlState])
            return refusal
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError:
            return KuraError.store(
                .database, "the connection to realm '\(location.description)' was lost", sql: sql, underlying: error)
        default:
            return KuraError.store(.database, "PostgreSQL: \(failure.code)", sql: sql, underlying: error)
        }
    }

    /// A server error's class in the terms `isStoreFailure` judges by (SQLite's result codes): a
    /// refused value (class 22, data exception) is a mismatch, a broken constraint (23) a
    /// constraint, something too big (54) too big; the rest are the realm's failures.
    private static func judgedCode(sqlState: String?) -> Int32? {
        switch sqlState?.prefix(2) {
        case "22": 20
        case "23": 19
        case "54": 18
        default: nil
        }
    }

    /// The server's SQLSTATE and message: `28P01: password authentication failed for user "kura"`.
    private static func serverMessage(_ failure: PSQLError) -> String {
        let state = failure.serverInfo?[.sqlState].map { "\($0): " } ?? ""
        var message = failure.serverInfo?[.message] ?? "unknown"
        if let detail = failure.serverInfo?[.detail] { message += " (\(detail))" }
        return state + message
    }

    /// The text of a lower-level error: the system's words for a refused or timed-out connection.
    private static func describePostgres(_ error: any Error) -> String {
        if let error = error as? IOError { return error.description }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout: return "the connection timed out"
            default: return "\(error)"
            }
        }
        let text = "\(error)"
        if text.contains("connectTimeout") { return "the connection timed out" }
        if text.contains("connection refused") || text.contains("Connection refused") { return "connection refused" }
        return text
    }
}
