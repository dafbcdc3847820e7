/// Stores mixed values: a tag telling the kind beside an untyped value, with nested lists and maps
/// kept as containers in the `#mixed` table.
enum MixedStore {
    /// The tag and column value for `value`, writing any nested containers it holds. A `MixedLink`
    /// is resolved as a link property would resolve it (nested objects follow `policy`).
    static func encode(
        _ value: Value, in transaction: WriteTransaction, policy: UpdatePolicy = .error, path: @autoclosure () -> String, depth: Int = 0
    ) throws -> (tag: Int64, value: StoredCell) {
        if let (tag, type) = MixedTag.scalar(for: value) {
            guard let encoded = ScalarCodec.cell(value, as: type) else {
                let reason = type == .date ? "a date lies within \(DateFormatting.rangeText)" : "NaN is not supported"
                throw KuraError.store(.typeMismatch, "\(path()): \(value) cannot be stored (\(reason))")
            }
            return (tag, encoded)
        }
        try requireDepth(depth, path())
        switch value {
        case .object(let ref):
            let typeId = try transaction.catalog.typeId(ref.type)
            guard try transaction.storage.objectExists(ref) else {
                throw KuraError.store(.objectDeleted, "\(path()): object \(ref) has been deleted")
            }
            if transaction.catalog.isEmbedded(ref.type) {
                throw KuraError.store(.embeddedMisuse, "\(path()): a mixed value cannot link to embedded object \(ref)")
            }
            return (MixedTag.linkBase + typeId, .integer(ref.id))
        case .list(let items):
            // The path is made once per container: elements' paths that wrapped this one's closure
            // made the optimiser specialise the recursion anew at every level.
            let here = path()
            let container = try transaction.storage.nextMixedContainer()
            for (position, item) in items.enumerated() {
                let (tag, stored) = try encode(
                    item, in: transaction, policy: policy, path: "\(here)[\(position)]", depth: depth + 1)
                try transaction.storage.insertMixedEntry(container, position: Int64(position), key: nil, tag: tag, value: stored)
            }
            return (MixedTag.list, .integer(container))
        case .map(let entries):
            if let link = MixedLink(entries) {
                let target = try transaction.catalog.type(link.typeName)
                if target.isEmbedded {
                    throw KuraError.store(.embeddedMisuse, "\(path()): a mixed value cannot link to embedded type \(link.typeName)")
                }
                let stored = try ObjectWriter(transaction: transaction)
                    .link(link.link, to: link.typeName, policy: policy, path: path(), depth: depth)
                guard case .integer(let id) = stored else { return (MixedTag.null, .null) }
                return (MixedTag.linkBase + (try transaction.catalog.typeId(link.typeName)), .integer(id))
            }
            let here = path()
            let container = try transaction.storage.nextMixedContainer()
            for key in entries.keys.sorted() {
                try MapKeyRule.check(key, path: here)
                let (tag, stored) = try encode(
                    entries[key] ?? .null, in: transaction, policy: policy, path: "\(here).\(key)", depth: depth + 1)
                try transaction.storage.insertMixedEntry(container, position: nil, key: key, tag: tag, value: stored)
            }
            return (MixedTag.map, .integer(container))
        default:
            throw KuraError.store(.typeMismatch, "\(path()): \(value.kindName) cannot be stored in a mixed property")
        }
    }

    /// Fails when a list or map at `depth` would nest deeper than mixed values may.
    private static func requireDepth(_ depth: Int, _ path: @autoclosure () -> String) throws(KuraError) {
        guard depth < MixedTag.maxDepth else {
            throw KuraError.store(.nestingTooDeep, "\(path()): mixed values nest deeper than \(MixedTag.maxDepth) levels")
        }
    }

    /// The tag and column value for a mapped value, as `encode(_:in:policy:path:depth:)` for a
    /// plain one: a mapped list or map (a document's) is written element by element from its
    /// entries, never turned into a `Value` whole.
    static func encode(
        _ value: MappedValue, in transaction: WriteTransaction, policy: UpdatePolicy = .error, path: @autoclosure () -> String,
        depth: Int = 0
    ) throws -> (tag: Int64, value: StoredCell) {
        switch value {
        case .list(let items):
            try requireDepth(depth, path())
            let here = path()
            let container = try transaction.storage.nextMixedContainer()
            for (position, item) in items.enumerated() {
                let (tag, stored) = try encode(
                    item, in: transaction, policy: policy, path: "\(here)[\(position)]", depth: depth + 1)
                try transaction.storage.insertMixedEntry(container, position: Int64(position), key: nil, tag: tag, value: stored)
            }
            return (MixedTag.list, .integer(container))
        case .map(let entries):
            // The mapper gives a link in a mixed position as a plain value, never as entries.
            try requireDepth(depth, path())
            let here = path()
            let container = try transaction.storage.nextMixedContainer()
            for index in entries.keyOrder {
                let key = entries[index].key
                try MapKeyRule.check(key, path: here)
                let (tag, stored) = try encode(
                    entries[index].value, in: transaction, policy: policy, path: "\(here).\(key)", depth: depth + 1)
                try transaction.storage.insertMixedEntry(container, position: nil, key: key, tag: tag, value: stored)
            }
            return (MixedTag.map, .integer(container))
        case .checked(let elements):
            try requireDepth(depth, path())
            // A mixed value's checked elements are scalars: each is stored as a plain value.
            let here = path()
            let container = try transaction.storage.nextMixedContainer()
            var iterator = elements.makeIterator()
            var position: Int64 = 0
            while let (key, element) = try iterator.nextElement() {
                let (tag, stored): (Int64, StoredCell)
                if let key {
                    try MapKeyRule.check(key, path: here)
                    (tag, stored) = try encode(element.value, in: transaction, policy: policy, path: "\(here).\(key)", depth: depth + 1)
                } else {
                    (tag, stored) = try encode(element.value, in: transaction, policy: policy, path: "\(here)[\(position)]", depth: depth + 1)
                }
                try transaction.storage.insertMixedEntry(container, position: key == nil ? position : nil, key: key, tag: tag, value: stored)
                position += 1
            }
            return (elements.isMap ? MixedTag.map : MixedTag.list, .integer(container))
        case .plain(let plain):
            return try encode(plain, in: transaction, policy: policy, path: path(), depth: depth)
        case .object, .omitted:
            return try encode(value.value, in: transaction, policy: policy, path: path(), depth: depth)
        }
    }
}

/// Realm's rule for map keys: no `.` anywhere and no leading `$`.
enum MapKeyRule {
    static func check(_ key: String, path: @autoclosure () -> String) throws(KuraError) {
        // Bytes, not `String.contains`: with Foundation imported that bridges to NSString per key.
        let bytes = key.utf8
        if bytes.first == UInt8(ascii: "$") {
            throw KuraError.store(.invalidMapKey, "\(path()): map key '\(key)' starts with '$'")
        }
        if bytes.contains(UInt8(ascii: ".")) {
            throw KuraError.store(.invalidMapKey, "\(path()): map key '\(key)' contains '.'")
        }
    }
}
