/// Compares two stored values of any kinds, given as a mixed value's tag and column value (a typed
/// column passes the tag of its type): `kura_compare` in SQL, for comparisons of two key paths
/// that SQL's own operators would get wrong (decimals, which are stored as text, and mixed values).
enum StoredComparison {
    /// -1, 0 or 1 as `ValueOrder` orders the two values; 2 when they are unequal and unordered
    /// (kinds that do not compare, or null against a value). Two nulls are equal.
    static func compare(tag leftTag: StoredCell, _ left: StoredCell, tag rightTag: StoredCell, _ right: StoredCell) -> Int64 {
        let leftValue = value(tag: leftTag, left)
        let rightValue = value(tag: rightTag, right)
        switch (leftValue, rightValue) {
        case (nil, nil): return 0
        case (.some(.link(let a, let b)), .some(.link(let c, let d))), (.some(.container(let a, let b)), .some(.container(let c, let d))):
            return a == c && b == d ? 0 : 2
        case (.some(.value(let a)), .some(.value(let b))):
            switch ValueOrder.compare(a, b) {
            case .orderedAscending?: return -1
            case .orderedSame?: return 0
            case .orderedDescending?: return 1
            case nil: return 2
            }
        default: return 2
        }
    }

    private enum Stored {
        case value(Value)
        /// A link in a mixed value: the target type's tag and the object's id.
        case link(Int64, Int64)
        /// A list or map in a mixed value: its tag and the container's id. It is no null, and
        /// equals only itself.
        case container(Int64, Int64)
    }

    /// The value, or nil for null (a null tag, or a null column value as through a null link).
    private static func value(tag: StoredCell, _ stored: StoredCell) -> Stored? {
        guard case .integer(let kind) = tag, kind != MixedTag.null, !stored.isNull else { return nil }
        if kind >= MixedTag.linkBase || kind == MixedTag.list || kind == MixedTag.map {
            guard case .integer(let id) = stored else { return nil }
            return kind >= MixedTag.linkBase ? .link(kind, id) : .container(kind, id)
        }
        guard let type = MixedTag.scalarTypes[kind], let value = try? ScalarCodec.decode(stored, as: type) else { return nil }
        return .value(value)
    }
}
