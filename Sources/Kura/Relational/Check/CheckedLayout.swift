/// What the data checks may rely on once the metadata and table layout are checked: the stored
/// schema, the rows of `#types`, and only the tables and columns that are there as the schema lays
/// them out (a missing one is a finding, and the checks that need it are skipped).
struct CheckedLayout {
    let schema: Schema
    /// Type ids by name, from `#types`.
    var typeIds: [String: Int64] = [:]
    /// The counters of `#types`, by type name.
    var counters: [String: (lastObjectId: Int64, lastKey: Int64)] = [:]
    /// `#meta`'s `lastMixedContainer`, if it is an integer.
    var lastMixedContainer: Int64?
    /// The types whose table exists with its `#id` column.
    var types: [ObjectSchema] = []
    /// Every value column that exists with the type the schema gives it.
    var sites: [ValueColumn] = []
    /// Whether `#mixed` exists as it should.
    var hasMixedTable = false
    /// The quoted tables that are not STRICT, whose columns SQLite lets hold values of any type.
    var looseTables: Set<String> = []

    /// Type names by id, from `#types`.
    var typeNames: [Int64: String] {
        Dictionary(typeIds.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the type named `name` has a usable table.
    func hasTable(_ name: String) -> Bool { types.contains { $0.name == name } }
}
