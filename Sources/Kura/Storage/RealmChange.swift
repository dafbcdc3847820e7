import Foundation

/// What one committed write transaction did to a realm's objects, as its change log records it.
public struct RealmChange: Sendable, Equatable {
    /// The commit's version: one above the version of the commit before it in the same realm file.
    public var version: Int64
    /// When it was committed.
    public var date: Date
    /// Whether the commit changed the schema (an additive change or a migration): its object changes
    /// are not listed, and a reader should read everything again.
    public var schemaChanged: Bool
    /// What it did to each type's objects, by type name; types it left alone are absent.
    public var types: [String: TypeChanges]
}

/// What one commit did to the objects of one type, by internal object id (`ObjectRef.id`).
public struct TypeChanges: Sendable, Equatable {
    /// The objects created, as ranges of ids. A range may hold ids of objects the same commit
    /// deleted again, and ids of objects later commits deleted.
    public var inserted: [ClosedRange<Int64>] = []
    /// Objects that existed before the commit and were changed by it (a property, or the contents
    /// of a list, set or map), in id order.
    public var modified: [Int64] = []
    /// Objects that existed before the commit and were deleted by it, in id order, each with the
    /// primary key it had (`nil` for types without one).
    public var deleted: [DeletedObject] = []

    /// Makes a description of changes.
    public init(inserted: [ClosedRange<Int64>] = [], modified: [Int64] = [], deleted: [DeletedObject] = []) {
        self.inserted = inserted
        self.modified = modified
        self.deleted = deleted
    }

    /// Whether `id` is in one of the inserted ranges.
    public func wasInserted(_ id: Int64) -> Bool {
        inserted.contains { $0.contains(id) }
    }
}

/// An object a commit deleted: its internal id and its primary key.
public struct DeletedObject: Sendable, Equatable {
    /// The internal object id it had.
    public var id: Int64
    /// Its primary key, or `nil` for a type without one.
    public var primaryKey: Value?

    /// Makes a deleted object's description.
    public init(id: Int64, primaryKey: Value?) {
        self.id = id
        self.primaryKey = primaryKey
    }
}
