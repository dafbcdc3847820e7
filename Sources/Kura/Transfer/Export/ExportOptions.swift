/// What `RealmExporter` writes: one type (optionally filtered, sorted and limited) or the whole realm.
public struct ExportOptions: Sendable, Equatable {
    /// The type whose objects are the documents; `nil` exports the whole realm, each document
    /// naming its type with `"$type"`.
    public var type: String?
    /// A predicate in Realm Query Language selecting the objects of `type`.
    public var predicate: String?
    /// The values of the predicate's `$0`, `$1` … placeholders.
    public var arguments: [Value] = []
    /// Sort keys such as `name` or `age desc, name`; by default objects come by primary key, or in
    /// creation order for types without one.
    public var sort: String?
    /// At most this many documents of `type`.
    public var limit: Int?
    /// Only the objects of `type` with these object ids (`ObjectRef.id`), in this order, those not
    /// stored left out; `predicate`, `sort` and `limit` then do not apply.
    public var objectIds: [Int64]?
    /// Starts after this position of the sorted selection: the `ExportSummary.next` of the export
    /// of the page before, with the same type, predicate and sort.
    public var after: QueryCursor?
    /// Adds, after the selected objects of `type`, every object with a primary key they link to,
    /// transitively, each once, as a document of its own; every document then names its type with
    /// `"$type"`. Imported into another realm, such an export copies the selection as `kura copy`
    /// does.
    public var followingLinks = false

    /// Makes options; the defaults export the whole realm.
    public init(type: String? = nil, predicate: String? = nil, sort: String? = nil, limit: Int? = nil) {
        self.type = type
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}

/// What an export wrote.
public struct ExportSummary: Sendable, Equatable {
    /// Top-level documents written, by type.
    public var documents: [String: Int] = [:]
    /// Objects written, top-level or nested, by type (embedded objects included).
    public var objects: [String: Int] = [:]
    /// Bytes written.
    public var bytes = 0
    /// When `limit` left objects of the selection out: the position after the last document written,
    /// for `ExportOptions.after` to export the next page.
    public var next: QueryCursor?

    /// Makes an empty summary.
    public init() {}

    /// Top-level documents written in all.
    public var totalDocuments: Int { documents.values.reduce(0, +) }
}

/// How far an export has got, for progress reports.
public struct ExportProgress: Sendable, Equatable {
    /// Top-level documents written.
    public var documents: Int
    /// Bytes written.
    public var bytes: Int
    /// Objects written, top-level or nested (embedded ones included).
    public var objects = 0
    /// How much the export writes in all, counted before it starts; nil when not counted.
    public var total: ExportTotal? = nil

    /// Makes a progress report.
    public init(documents: Int, bytes: Int, objects: Int = 0, total: ExportTotal? = nil) {
        self.documents = documents
        self.bytes = bytes
        self.objects = objects
        self.total = total
    }

    /// How much is done in the unit of `total`, and `total` itself, when known.
    public var completed: (done: Int, total: Int)? {
        switch total {
        case .objects(let count): (objects, count)
        case .documents(let count): (documents, count)
        case nil: nil
        }
    }
}

/// How much an export writes in all, known from counting before it starts.
public enum ExportTotal: Sendable, Equatable {
    /// Every object of the realm, for a whole-realm export, which writes each object once,
    /// top-level or nested.
    case objects(Int)
    /// The selected objects of one type, each a top-level document.
    case documents(Int)
}
