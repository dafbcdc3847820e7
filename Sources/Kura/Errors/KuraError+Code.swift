extension KuraError {
    /// The part of Kura that found a problem.
    public enum Domain: String, Sendable, Hashable, CaseIterable {
        /// Reading or checking a schema.
        case schema
        /// Reading or writing JSON or YAML text.
        case document
        /// Fitting a document to the schema.
        case mapping
        /// Parsing and checking a query.
        case query
        /// A realm and its storage.
        case store
        /// Moving documents in or out of a realm.
        case transfer
        /// Migrating a realm to a new schema.
        case migration
        /// Checking a realm's file.
        case check
        /// Reaching a realm served by `kura serve` on another machine.
        case remote
    }

    /// What kind of problem an error is, by domain.
    public enum Code: Sendable, Hashable {
        /// A problem with a schema.
        case schema(SchemaCode)
        /// A problem reading or writing document text.
        case document(DocumentCode)
        /// A document that does not fit the schema.
        case mapping(MappingCode)
        /// A query that cannot run.
        case query(QueryCode)
        /// A problem with a realm or its storage.
        case store(StoreCode)
        /// A problem moving documents in or out of a realm.
        case transfer(TransferCode)
        /// A migration that cannot run.
        case migration(MigrationCode)
        /// A file that cannot be checked.
        case check(CheckCode)
        /// A served realm that cannot be reached or refuses the request.
        case remote(RemoteCode)

        /// The part of Kura that found the problem.
        public var domain: Domain {
            switch self {
            case .schema: .schema
            case .document: .document
            case .mapping: .mapping
            case .query: .query
            case .store: .store
            case .transfer: .transfer
            case .migration: .migration
            case .check: .check
            case .remote: .remote
            }
        }
    }

    /// A schema file that cannot be read or parsed, or a definition that is not valid.
    public enum SchemaCode: Sendable, Hashable {
        case unreadableFile
        case syntax
        case invalidStructure
        case invalidName
        case duplicateName
        case invalidType
        case unknownType
        case invalidPrimaryKey
        case invalidDefault
        case invalidAttribute
        case invalidLinkingObjects
        case invalidEmbedding
        /// A type needs more columns than SQLite holds in one table.
        case tooManyColumns
    }

    /// Unreadable input, invalid UTF-8 or invalid JSON, an unwritable output, or a value that has no
    /// document form.
    public enum DocumentCode: Sendable, Hashable {
        /// The input does not follow the JSON grammar.
        case syntax
        /// The input is not valid UTF-8.
        case invalidUTF8
        /// A string has an unescaped control character, a bad escape or a lone surrogate.
        case invalidString
        /// A number literal is malformed.
        case invalidNumber
        /// Containers are nested deeper than the reader (or the writer) allows.
        case depthLimit
        /// The input ends in the middle of a value.
        case unexpectedEnd
        /// The file cannot be opened, read or written.
        case io
        /// A value cannot be written as a document that reads back as the same value: it does not
        /// fit its property's type, names no property, is a stored-object reference, is NaN, has a
        /// map key the mapper refuses, or is text the format cannot carry.
        case unwritableValue
        /// A document was written after the writer (or its output) was finished.
        case outputClosed
    }

    /// A document that does not fit the schema.
    public enum MappingCode: Sendable, Hashable {
        case typeMismatch
        case outOfRange
        case missingProperty
        case unknownProperty
        case duplicateKey
        case tooManyValues
        case invalidMapKey
        case invalidValue
        case nestingTooDeep
        /// The YAML aliases of a document expand to more values than `MappingOptions.maxAliasExpansion`.
        case aliasExpansion
        /// A `$ref` or primary key names no document of the input, or one of another type.
        case unresolvedReference
        /// Two documents of one input carry the same `"$id"`.
        case duplicateReferenceId
    }

    /// A query that cannot run, found before it runs.
    public enum QueryCode: Sendable, Hashable {
        /// The text is not a predicate or sort key (unexpected token, unterminated string…).
        case syntax
        /// The realm has no such type.
        case unknownType
        /// The type cannot be queried at the top level (embedded or asymmetric).
        case notQueryable
        /// A key path names a property the type does not have.
        case unknownProperty
        /// A key path goes on where it cannot (past a scalar, `@count` on a scalar, a list in a sort key…).
        case invalidKeyPath
        /// A literal does not fit the property it is compared with.
        case typeMismatch
        /// The operator or modifier does not apply to the property's type.
        case unsupportedOperator
        /// The predicate nests or grows beyond what Kura compiles.
        case tooComplex
        /// The limit is negative.
        case invalidLimit
        /// A page cursor that no query wrote, or one made for another sort order.
        case invalidCursor
        /// The arguments do not pair up with the `%@` and `%K` placeholders, or one does not fit its placeholder.
        case argumentMismatch
    }

    /// A misuse of a realm's API, a value that does not fit the schema, or a failure of the storage.
    public enum StoreCode: Sendable, Hashable {
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

    /// A document moving in or out of a realm that does not fit, or an input or output that fails.
    public enum TransferCode: Sendable, Hashable {
        /// A document does not fit the schema or the realm (wrong type, duplicate key, missing link…).
        case badDocument
        /// The input or output cannot be read or written, or is not valid JSON/YAML.
        case badInput
        /// The request does not fit the realm (unknown type, an embedded type at the top level…).
        case usage
        /// The destination realm's schema cannot hold what a copy would bring.
        case schemaMismatch
    }

    /// A migration the data does not allow, a schema version that was not raised, or a misuse of the
    /// migration API.
    public enum MigrationCode: Sendable, Hashable {
        /// The change needs a migration, and the new schema has the same version as the stored one.
        case versionNotBumped
        /// The new primary key's values are not unique; ``KuraError/duplicates`` lists them.
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

    /// Why a file could not be checked at all. Problems inside a realm are not errors: they are the
    /// findings of a `CheckReport`.
    public enum CheckCode: Sendable, Hashable {
        /// No file at the path.
        case fileMissing
        /// The file is not an SQLite database, or is one without Kura's metadata.
        case notARealm
        /// The file could not be opened or read (permissions, I/O).
        case unreadable
    }

    /// A realm served by `kura serve` that cannot be reached, or whose server refuses a request.
    public enum RemoteCode: Sendable, Hashable {
        /// The realm's URL is not one Kura can reach.
        case invalidURL
        /// The server cannot be reached, or the connection failed before an answer.
        case unreachable
        /// The connection closed in the middle of a transfer.
        case connectionLost
        /// The server wants a token, or does not know the one given (401).
        case unauthorized
        /// The token's scope or realms do not cover the request (403).
        case forbidden
        /// The server serves no realm of that name (404).
        case noRealm
        /// The server is busy and asks to try later (503), or timed the request out (408).
        case busy
        /// The server failed or answered what a client cannot read.
        case serverFailed
    }
}
