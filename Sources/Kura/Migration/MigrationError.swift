/// Why a migration cannot run: a change the data does not allow (duplicate keys, values missing for
/// a required property), a schema version that was not raised, or a misuse of the migration API.
public struct MigrationError: Error, Equatable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Code: Sendable, Equatable {
        /// The change needs a migration, and the new schema has the same version as the stored one.
        case versionNotBumped
        /// The new primary key's values are not unique; `duplicates` lists them.
        case duplicateKeys
        /// Objects would have no value for a required property: it needs a default.
        case missingValues
        /// A property changed type over stored values, which only a Swift migration block can convert.
        case typeChanged
        /// A change migrations do not make (turning a type into an embedded one).
        case unsupportedChange
        /// A removed type is still linked to by the new schema.
        case linkedTypeRemoved
        /// A rename names properties that do not exist, or clash with other renames.
        case invalidRename
        /// The migration API was given a type that neither schema has.
        case unknownType
        /// A migration handle was used after its migration ended.
        case migrationEnded
    }

    /// One value held by more than one object, for a property that is to become the primary key.
    public struct DuplicateKey: Sendable, Hashable {
        /// The value.
        public let value: Value
        /// How many objects hold it.
        public let count: Int

        /// Makes a duplicate key entry.
        public init(value: Value, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// What kind of problem this is.
    public var code: Code
    /// What failed and where, in one line.
    public var message: String
    /// For `duplicateKeys`: the values held by more than one object (the most frequent first, at most
    /// `MigrationChecks.listedDuplicates` of them) and how many objects hold each.
    public var duplicates: [DuplicateKey]

    /// Makes a migration error.
    public init(_ code: Code, _ message: String, duplicates: [DuplicateKey] = []) {
        self.code = code
        self.message = message
        self.duplicates = duplicates
    }

    /// `error: message`, as the other errors of Kura print.
    public var description: String { "error: \(message)" }

    /// Two errors are equal when their codes and messages are (the message lists the duplicates).
    public static func == (lhs: MigrationError, rhs: MigrationError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// Whether a Swift migration block may resolve the problem by changing the data before the
    /// migration checks it (setting values, removing duplicates).
    var isResolvableByBlock: Bool {
        switch code {
        case .duplicateKeys, .missingValues, .typeChanged: true
        default: false
        }
    }
}
