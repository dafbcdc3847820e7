import GRDB

/// An error from a realm: a misuse of the API, a value that does not fit the schema, or a database failure.
public struct StoreError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        case openFailed
        case notInWriteTransaction
        case objectDeleted
        case unknownType
        case unknownProperty
        case typeMismatch
        case missingValue
        case duplicatePrimaryKey
        case primaryKeyChanged
        case linkTargetNotFound
        /// A `{"$ref": id}` names no document with that `"$id"` in the input, or names one of another type.
        case unresolvedReference
        /// Two documents of one input carry the same `"$id"`.
        case duplicateReferenceId
        case invalidMapKey
        case embeddedMisuse
        case asymmetricMisuse
        case nestingTooDeep
        case schemaMismatch
        case schemaVersionTooLow
        case corruptRealm
        /// An identifier counter of the realm (object ids, autoIncrement keys, nested mixed
        /// containers) stands at Int64.max, so no further identifier can be handed out.
        case counterExhausted
        case database
        /// The file is there but is not a realm: not an SQLite database, empty, a folder, or an SQLite
        /// database without Kura's tables. Every command reports it with the same message.
        case notARealm
        /// An index outside a `Results`' objects.
        case indexOutOfRange
        /// A model that is no stored object: not read from or added to the realm, and without a stored primary key.
        case unmanagedObject
        /// The change log no longer holds the versions asked for: it keeps only the latest ones.
        case changesPruned
    }

    /// What kind of problem this is.
    public var code: Code
    /// What failed and where, in one line.
    public var message: String
    /// The SQL statement that failed, for database errors.
    public var sql: String?
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Makes a store error.
    public init(_ code: Code, _ message: String, sql: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.underlying = underlying
    }

    /// The message, followed by the SQL statement when there is one.
    public var description: String {
        guard let sql else { return "error: \(message)" }
        return "error: \(message) (SQL: \(sql))"
    }

    /// Whether the realm or the disk under it failed, not the value being written: an I/O error,
    /// a full disk, a file that cannot be opened, a lock, a corrupt realm or an exhausted counter.
    /// SQLite's refusals of a value (a constraint, a value too big or of the wrong type) are the value's.
    public var isStoreFailure: Bool {
        switch code {
        case .openFailed, .corruptRealm, .counterExhausted:
            return true
        case .database:
            guard let error = underlying as? DatabaseError else { return true }
            switch error.resultCode {
            case .SQLITE_CONSTRAINT, .SQLITE_TOOBIG, .SQLITE_MISMATCH, .SQLITE_RANGE: return false
            default: return true
            }
        default:
            return false
        }
    }

    public static func == (lhs: StoreError, rhs: StoreError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.sql == rhs.sql
    }
}
