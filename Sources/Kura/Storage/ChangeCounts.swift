/// What a write transaction has done so far to the objects of one type.
public struct ChangeCounts: Sendable, Equatable {
    /// Objects created.
    public var inserted: Int
    /// Existing objects that a create or update changed.
    public var updated: Int
    /// Existing objects that a create or update left as they were.
    public var unchanged: Int
    /// Objects deleted, embedded ones included.
    public var deleted: Int

    /// Makes counts.
    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
    }
}
