/// A snapshot of a realm laid out in tables: beside what `StorageSnapshot` reads, the paged and
/// streaming reads that exports, copies and the server use, and the layout store it sees.
protocol RelationalSnapshot: StorageSnapshot where Query == ObjectQuery {
    /// The compiled schema the snapshot reads by.
    var catalog: SchemaCatalog { get }
    /// The same snapshot read by another catalog, one a schema change just brought.
    func reading(by catalog: SchemaCatalog) -> any RelationalSnapshot
    /// The realm's layout as this snapshot sees it.
    var schemaStore: any RelationalSchemaStore { get }

    /// The matching ids, at most `limit` (the query's own limit should be one more), and the cursor
    /// after the last of them when more match.
    func page(matching query: ObjectQuery, limit: Int) throws -> (ids: [Int64], next: QueryCursor?)
    /// A reader of objects a block of `size` ids at a time, for streams that visit many objects.
    func blocks(of size: Int64) -> any ObjectBlockReading
    /// The links to every object, counted `blockSize` ids at a time; only links from `owners` when given.
    func linkCensus(owners: Set<String>?, blockSize: Int64) throws -> any IncomingLinkCounting
    /// The types whose objects a document of `type` can hold, itself included.
    func typesReachable(from type: String) throws -> [String]
}

/// Reads the objects of a stream (export, copy) a block at a time.
protocol ObjectBlockReading: AnyObject {
    /// Every stored property of the object, in the order of its type's `storedProperties`, links
    /// as `.object`, collections as `.list` or `.map`.
    func fields(of ref: ObjectRef) throws -> [Value]
    /// Every stored property of the object, by name.
    func values(of ref: ObjectRef) throws -> [String: Value]
    /// The object's primary key value, or `nil` when its type has none.
    func primaryKey(of ref: ObjectRef) throws -> Value?
}

/// Counts the places that link to an object, which tells an export whether an object is reached
/// more than once.
protocol IncomingLinkCounting: AnyObject {
    /// How many link properties, collection elements and mixed values link to `ref`.
    func incoming(_ ref: ObjectRef) throws -> Int
}

/// The block size for a stream of `count` selected objects (`nil`: a whole type or realm): as many
/// as are selected, within 16...256, so that one object does not read a block of 256 with its
/// collections, while the objects nested in it (stored next to each other) still come in one query.
enum ObjectBlocks {
    static let defaultSize: Int64 = 256

    static func size(selecting count: Int?) -> Int64 {
        guard let count else { return defaultSize }
        return Int64(min(max(count, 16), Int(defaultSize)))
    }
}
