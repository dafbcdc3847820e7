/// How strictly documents map to objects, beyond the fixed rules of docs/documents.md.
public struct MappingOptions: Sendable, Equatable {
    /// How date properties accept plain strings and numbers.
    public enum DateStrategy: String, Sendable, CaseIterable {
        /// Only `{"$date": …}` and YAML timestamps.
        case strict
        /// Also ISO-8601 strings.
        case iso8601
        /// Also numbers of seconds since 1970.
        case secondsSince1970
        /// Also numbers of milliseconds since 1970.
        case millisecondsSince1970
    }

    /// How data properties accept plain strings.
    public enum DataStrategy: String, Sendable, CaseIterable {
        /// Only `{"$binary": …}` and YAML `!!binary`.
        case strict
        /// Also base64 strings.
        case base64
    }

    /// How dates may be written.
    public var dateStrategy: DateStrategy
    /// How binary data may be written.
    public var dataStrategy: DataStrategy
    /// Whether keys the schema does not define are errors (otherwise they are ignored and counted).
    public var rejectUnknownKeys: Bool
    /// Whether map keys containing `.` or starting with `$` are percent-encoded instead of refused.
    public var percentEncodeMapKeys: Bool
    /// How many errors one document reports at most.
    public var maxErrors: Int
    /// How many values the YAML aliases of one document may expand to in all, so an alias bomb
    /// (billion laughs) is an error rather than exponential work and memory.
    public var maxAliasExpansion: Int
    /// Whether a required property left out of a document that may be for an existing object (one
    /// giving its primary key, or an embedded one) is left to the writer rather than refused: set
    /// for `update` and `modified` imports, where an existing object keeps its stored value and
    /// only a new one must have it (as Realm does).
    var defersMissingProperties = false
    /// Whether the top-level document is for an object that exists (one named otherwise than by a
    /// primary key, as a server names objects without one), so that all it leaves out is kept.
    var documentIsForExistingObject = false

    /// Makes options; the defaults are the strict rules.
    public init(
        dateStrategy: DateStrategy = .strict, dataStrategy: DataStrategy = .strict, rejectUnknownKeys: Bool = false,
        percentEncodeMapKeys: Bool = false, maxErrors: Int = 20, maxAliasExpansion: Int = 100_000
    ) {
        self.dateStrategy = dateStrategy
        self.dataStrategy = dataStrategy
        self.rejectUnknownKeys = rejectUnknownKeys
        self.percentEncodeMapKeys = percentEncodeMapKeys
        self.maxErrors = maxErrors
        self.maxAliasExpansion = maxAliasExpansion
    }
}
