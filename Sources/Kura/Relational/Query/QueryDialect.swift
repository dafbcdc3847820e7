/// How one engine spells what the predicate compiler writes, where engines differ: truth values,
/// null-safe equality, string tests, orderings by value (decimals, mixed values), literals and
/// parameters. The compiler writes everything else the same for every engine.
protocol QueryDialect: Sendable {
    /// A condition that always holds, and one that never does.
    var alwaysTrue: String { get }
    var alwaysFalse: String { get }
    /// The operator between two values that are equal or both null (`IS`), and its negation.
    var isSame: String { get }
    var isNotSame: String { get }

    /// The length of a literal as `startsWith`/`endsWith` count it in a stored value.
    func length(of literal: StoredCell) -> Int
    /// Whether `value` starts with `argument`, `length` long (never zero).
    func startsWith(_ value: String, _ argument: SQLFragment, length: Int) -> SQLFragment
    /// Whether `value` ends with `argument`, `length` long (never zero).
    func endsWith(_ value: String, _ argument: SQLFragment, length: Int) -> SQLFragment
    /// Whether `value` contains `argument`.
    func contains(_ value: String, _ argument: SQLFragment) -> SQLFragment
    /// Whether `value` matches `pattern` (a pattern `likePattern` wrote).
    func matches(_ value: String, _ pattern: SQLFragment) -> SQLFragment
    /// Realm's LIKE pattern (`*`, `?`) as `matches` takes it.
    func likePattern(_ pattern: String) -> String
    /// BEGINSWITH, ENDSWITH, CONTAINS or LIKE between two stored values (the pattern read from `b`).
    func stringTest(_ op: ComparisonOperator, _ a: String, _ b: String) -> String
    /// `a op b` for `+`, `-`, `*` and `/`, null when dividing by zero.
    func arithmetic(_ a: String, _ op: String, _ b: String) -> String
    /// The number of bytes of a stored string or data value.
    func byteLength(_ value: String) -> String

    /// `expression` as it is compared and ordered by `collation` (`QueryFunctions.decimalCollation`,
    /// `MixedSortKey.collation`); `argument` the same for a value compared with it.
    func collated(_ expression: String, by collation: String) -> String
    func collatedArgument(_ argument: SQLFragment, by collation: String) -> SQLFragment
    /// An `IN` list of values, `(…)` as `QueryConstants.list` writes it, compared by `collation`.
    func collatedList(_ list: SQLFragment, by collation: String) -> SQLFragment
    /// The value a mixed value (its tag column and value column) is ordered by, under `MixedSortKey.collation`.
    func mixedSortValue(tag: String, value: String) -> String
    /// A mixed value's stored column as compared with a literal stored as `literal`.
    func mixedReading(_ value: String, comparedWith literal: StoredCell) -> String
    /// An object id as a mixed value's column holds a link to it.
    func mixedLink(_ id: String) -> String
    /// `kura_compare` of two values, each with its tag and its type (`.mixed` for a mixed value).
    func compare(_ left: (tag: String, value: String, type: PropertyType), _ right: (tag: String, value: String, type: PropertyType)) -> String

    /// What `@sum`/`@avg`/`@min`/`@max` aggregate of a mixed value: its number, or null.
    func mixedAggregated(_ value: String, tag: String) -> String
    /// `@sum`, `@avg`, `@min` or `@max` of decimals.
    func decimalAggregate(_ function: ResolvedKeyPath.Aggregate, _ argument: String) -> String

    /// What a page query selects of a sort term's `value` ordered by `collation`, for a cursor to
    /// compare with later through `collatedArgument`.
    func pageValue(_ value: String, collation: String?) -> String
    /// An ORDER BY term: `expression` in a direction, nulls first ascending and last descending.
    func orderBy(_ expression: String, ascending: Bool) -> String
    /// What follows a subquery in FROM (an alias, where the engine wants one).
    var derivedTableAlias: String { get }
    /// `value` as an SQL literal that the engine reads back exactly.
    func literal(_ value: StoredCell) -> String
    /// The statement as the engine takes it: `?` placeholders numbered where the engine wants.
    func statement(_ sql: String) -> String
}
