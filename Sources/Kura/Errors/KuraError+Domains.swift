extension KuraError {
    /// A failure of a realm or its storage, or a misuse of its API.
    public static func store(_ code: StoreCode, _ message: String, sql: String? = nil, underlying: (any Error)? = nil) -> KuraError {
        KuraError(.store(code), message, sql: sql, underlying: underlying)
    }

    /// A problem reading or writing the document text of `file`, at `position` when known.
    public static func document(
        _ code: DocumentCode, _ message: String, file: String, position: TextPosition? = nil, underlying: (any Error)? = nil
    ) -> KuraError {
        KuraError(.document(code), message, file: file, position: position, underlying: underlying)
    }

    /// A value of a document that does not fit the schema: in `file`, at `position`, at `path`.
    public static func mapping(_ code: MappingCode, file: String, position: TextPosition, path: String, _ message: String) -> KuraError {
        KuraError(.mapping(code), message, file: file, position: position, path: path)
    }

    /// The errors of one document, in document order, as one error: the first, holding them all.
    /// `truncated` says the document had more than these.
    public static func documentErrors(_ errors: [KuraError], truncated: Bool = false) -> KuraError {
        guard var first = errors.first else {
            return KuraError(.mapping(.invalidValue), "the document does not fit the schema")
        }
        first.errors = errors.count > 1 || truncated ? errors : []
        first.moreErrors = truncated
        return first
    }

    /// A query that cannot run, placed at `column` (from 1, in Unicode scalars) of its `where` or `sort` text when known.
    public static func query(_ code: QueryCode, _ message: String, in part: QueryPart? = nil, column: Int? = nil) -> KuraError {
        KuraError(.query(code), message, file: part?.rawValue, position: column.map { TextPosition(line: 1, column: $0) })
    }

    /// A schema that cannot be read or is not valid, at `location` in its file when known.
    static func schema(_ code: SchemaCode, _ message: String, at location: FilePosition?, underlying: (any Error)? = nil) -> KuraError {
        schema(code, message, file: location?.file, position: location?.position, underlying: underlying)
    }

    /// A schema that cannot be read or is not valid, in `file` at `position` when known.
    public static func schema(
        _ code: SchemaCode, _ message: String, file: String? = nil, position: TextPosition? = nil, underlying: (any Error)? = nil
    ) -> KuraError {
        KuraError(.schema(code), message, file: file, position: position, underlying: underlying)
    }

    /// A document that cannot move in or out of a realm, located in `file` where it has a place there.
    public static func transfer(
        _ code: TransferCode, _ message: String, file: String? = nil, position: TextPosition? = nil, underlying: (any Error)? = nil
    ) -> KuraError {
        KuraError(.transfer(code), message, file: file, position: position, underlying: underlying)
    }

    /// A migration that cannot run; `duplicates` lists the values a new primary key would hold twice.
    public static func migration(_ code: MigrationCode, _ message: String, duplicates: [DuplicateKey] = []) -> KuraError {
        var error = KuraError(.migration(code), message)
        error.duplicates = duplicates
        return error
    }

    /// A file that cannot be checked at all.
    public static func check(_ code: CheckCode, _ message: String) -> KuraError {
        KuraError(.check(code), message)
    }

    /// Which text of a query an error is in.
    public enum QueryPart: String, Sendable, Hashable {
        /// The predicate.
        case `where`
        /// The sort order.
        case sort
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
}

/// A position in a named file: where a part of a schema was written.
struct FilePosition: Sendable, Hashable {
    /// The file's path as given, or a name such as `<schema>`.
    var file: String
    /// The line and column in it.
    var position: TextPosition

    init(file: String, line: Int, column: Int) {
        self.file = file
        self.position = TextPosition(line: line, column: column)
    }
}
