/// How `DocumentImporter` treats an input: which type, which update policy, what to do with bad documents.
public struct ImportOptions: Sendable, Equatable {
    /// What happens when a document is refused.
    public enum ErrorPolicy: String, Sendable, CaseIterable {
        /// The import is atomic: the first bad document stops it and nothing is written.
        case stop
        /// Good documents are imported, bad ones are counted and handed to the rejects output.
        case skip
    }

    /// The type of every document; `nil` for a whole-realm input whose documents name theirs with `"$type"`.
    public var type: String?
    /// How documents whose primary key exists are applied (the import modes).
    public var mode: UpdatePolicy
    /// What happens to bad documents.
    public var onError: ErrorPolicy
    /// Whether everything is checked and counted but nothing is kept.
    public var dryRun: Bool
    /// Documents per transaction under `.skip` (a `.stop` import is one transaction).
    public var batchSize: Int
    /// Date and data strategies, unknown-key policy and error limit.
    public var mapping: MappingOptions
    /// Leaves out whole a document whose object the realm holds already, with everything nested in
    /// it, and counts it as unchanged (under `mode` `.error`): importing again changes nothing. The
    /// object is found by primary key; for a type without one, it is an object the realm held before
    /// the import that nothing links to and that the document would change nothing of. A `$ref` to
    /// an `$id` inside a document left out finds nothing.
    public var skipExisting = false

    /// Makes options; the defaults insert, stop at the first error, and write everything.
    public init(
        type: String? = nil, mode: UpdatePolicy = .error, onError: ErrorPolicy = .stop, dryRun: Bool = false,
        batchSize: Int = 10_000, mapping: MappingOptions = MappingOptions()
    ) {
        self.type = type
        self.mode = mode
        self.onError = onError
        self.dryRun = dryRun
        self.batchSize = batchSize
        self.mapping = mapping
    }
}

/// What an import did, per type of top-level document and in total.
public struct ImportSummary: Sendable, Equatable {
    /// Objects inserted, updated and left unchanged, by type (nested objects counted under their own type).
    public var counts: [String: ChangeCounts] = [:]
    /// Documents refused, by the type they were mapped as (`"?"` when it could not be told).
    public var rejected: [String: Int] = [:]
    /// Keys the schema does not define, ignored, by document type.
    public var unknownKeys: [String: Int] = [:]
    /// Documents read.
    public var documents = 0
    /// Bytes of input read.
    public var bytes = 0

    /// Makes an empty summary.
    public init() {}

    /// Every type the summary mentions, sorted.
    public var types: [String] {
        Array(Set(counts.keys).union(rejected.keys).union(unknownKeys.keys)).sorted()
    }

    /// Documents refused in all.
    public var totalRejected: Int { rejected.values.reduce(0, +) }
}

/// How far an import has got, for progress reports.
public struct ImportProgress: Sendable {
    /// Bytes of input consumed.
    public var bytes: Int
    /// Documents read.
    public var documents: Int
    /// Documents refused so far.
    public var rejected: Int

    /// Progress of `bytes` consumed, `documents` read and `rejected` refused.
    public init(bytes: Int, documents: Int, rejected: Int = 0) {
        self.bytes = bytes
        self.documents = documents
        self.rejected = rejected
    }
}
