/// One problem `RealmChecker` found in a realm file: what kind it is, where it is, and a one-line
/// message naming both (`Dog.favoriteToy: object 3 links to DogToy 17, which does not exist`).
public struct CheckFinding: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Which invariant a finding breaks.
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A line of SQLite's `PRAGMA integrity_check`, or a file SQLite finds malformed.
        case integrity
        /// A part of the realm could not be read, so its checks could not run.
        case unreadable
        /// The metadata tables (`#meta`, `#types`, `#mixed`) or the stored schema are missing or disagree.
        case metadata
        /// A type or collection property has no table.
        case missingTable
        /// A table lacks a column the schema needs, has one it does not, or declares another type.
        case columnMismatch
        /// A link (a link property, a collection element or a mixed value) names an object that does not exist.
        case danglingLink
        /// A mixed value links to a type the realm does not have, or to an embedded type.
        case invalidLinkType
        /// An embedded object that no object owns.
        case orphanEmbedded
        /// An embedded object owned by more than one parent.
        case sharedEmbedded
        /// Collection elements whose owner object does not exist.
        case orphanElement
        /// A list whose positions are not exactly 0 to its count minus one.
        case listPositions
        /// A nested mixed list or map that no mixed value refers to.
        case orphanContainer
        /// A nested mixed list or map that more than one mixed value refers to.
        case sharedContainer
        /// A nested mixed container whose entries do not match the kind of container it is said to be.
        case containerShape
        /// A primary key value held by more than one object.
        case duplicateKey
        /// Null where the schema requires a value.
        case missingValue
        /// A value that does not fit its property type, or a mixed value that does not match its tag.
        case valueMismatch
        /// An index Kura makes is missing or defined otherwise.
        case missingIndex
        /// An identifier counter below the highest identifier in use, which would hand one out twice.
        case counterBehind
        /// An identifier counter at Int64.max, so that the realm can hand out no further identifier.
        case counterExhausted

        /// What a report says of the findings of this kind it does not list: `3 more dangling links`.
        func unlisted(_ count: Int) -> Counted {
            Counted(count, singular, plural: plural)
        }

        /// The singular of `plural`.
        private var singular: String {
            switch self {
            case .integrity: "integrity error"
            case .unreadable: "unreadable part"
            case .metadata: "metadata problem"
            case .missingTable: "missing table"
            case .columnMismatch: "column problem"
            case .danglingLink: "dangling link"
            case .invalidLinkType: "link to an invalid type"
            case .orphanEmbedded: "orphan embedded object"
            case .sharedEmbedded: "shared embedded object"
            case .orphanElement: "owner of orphan elements"
            case .listPositions: "list with wrong positions"
            case .orphanContainer: "orphan container"
            case .sharedContainer: "shared container"
            case .containerShape: "malformed container"
            case .duplicateKey: "duplicate key"
            case .missingValue: "missing value"
            case .valueMismatch: "value that does not fit"
            case .missingIndex: "index problem"
            case .counterBehind: "counter behind"
            case .counterExhausted: "exhausted counter"
            }
        }

        /// The plural noun a report uses when it does not list every finding of this kind.
        private var plural: String {
            switch self {
            case .integrity: "integrity errors"
            case .unreadable: "unreadable parts"
            case .metadata: "metadata problems"
            case .missingTable: "missing tables"
            case .columnMismatch: "column problems"
            case .danglingLink: "dangling links"
            case .invalidLinkType: "links to invalid types"
            case .orphanEmbedded: "orphan embedded objects"
            case .sharedEmbedded: "shared embedded objects"
            case .orphanElement: "owners of orphan elements"
            case .listPositions: "lists with wrong positions"
            case .orphanContainer: "orphan containers"
            case .sharedContainer: "shared containers"
            case .containerShape: "malformed containers"
            case .duplicateKey: "duplicate keys"
            case .missingValue: "missing values"
            case .valueMismatch: "values that do not fit"
            case .missingIndex: "index problems"
            case .counterBehind: "counters behind"
            case .counterExhausted: "exhausted counters"
            }
        }
    }

    /// Where a finding is: any of a type, a property, an object's internal id and an SQL table.
    public struct Place: Sendable, Equatable, Hashable, Codable {
        /// The object type, when the finding concerns one.
        public var type: String?
        /// The property of `type`, when the finding concerns one.
        public var property: String?
        /// The internal id (`#id`) of the object concerned.
        public var objectId: Int64?
        /// The SQL table, unquoted (`Person.dogs`, `#mixed`).
        public var table: String?

        /// Makes a place.
        public init(type: String? = nil, property: String? = nil, objectId: Int64? = nil, table: String? = nil) {
            self.type = type
            self.property = property
            self.objectId = objectId
            self.table = table
        }
    }

    /// Which invariant is broken.
    public var kind: Kind
    /// Where.
    public var place: Place
    /// What is wrong and where, in one line.
    public var message: String

    /// Makes a finding.
    public init(_ kind: Kind, at place: Place, _ message: String) {
        self.kind = kind
        self.place = place
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
