/// Top-level documents of a type without a primary key, written under `update`, `modified` or
/// `replace` as part of an input (an import or a copy, whose references resolve in one scope):
/// nothing names the object such a document is for, so it is matched by what it holds.
///
/// The document matches an object of its type that the realm held before the input began, that
/// nothing links to (unless the document carries `"$id"`, as export writes an object reached only
/// through a cycle), that no earlier document of the input matched, and that writing the document
/// over would leave as it is: its own values, links and collections, embedded objects included
/// (the objects it holds without a key are updated in place, as any update does). A matched object
/// counts as unchanged; a document that matches none is a new object. So running an input again
/// adds nothing, and an input of two equal documents still makes two objects.
extension ObjectWriter {
    /// The object a top-level document of `type`, a type without a primary key, is matched to, with
    /// the document written over it; `nil` when it matches none and is to be a new object.
    ///
    /// When `leavingItAsItIs`, nothing is written: the object matched is one the document would
    /// change nothing of, not even the objects nested in it (`--skip-existing` leaves it out whole).
    func matchedObject(
        _ type: StoredType, _ given: ObjectWriteInput, policy: UpdatePolicy, path: @autoclosure () -> String, leavingItAsItIs: Bool = false
    ) throws -> ObjectRef? {
        guard policy != .error, !type.isAsymmetric, let scope = transaction.references,
            let floor = scope.objectIdFloors?[type.name], floor > 0, let probe = try probe(type, given, policy: policy)
        else { return nil }
        let candidates = try scope.candidates(of: type, giving: probe.positions, below: floor, in: transaction.storage)
        for id in candidates.ids(withHash: probe.hash) {
            let ref = ObjectRef(type: type.name, id: id)
            guard !scope.isMatched(ref), try transaction.storage.objectExists(ref), try given.id != nil || linkCount(ref, upTo: 1) == 0 else { continue }
            var untouched = false
            let kept = try transaction.tentatively {
                try define(given.id, as: ref, path: path())
                let before = transaction.counts
                guard try !update(ref, type, given, policy: policy, path: path(), depth: 0) else { return false }
                untouched = transaction.counts.allSatisfy { type, counts in
                    let earlier = before[type] ?? ChangeCounts()
                    return (counts.inserted, counts.updated, counts.deleted) == (earlier.inserted, earlier.updated, earlier.deleted)
                }
                return !leavingItAsItIs
            }
            if kept || (leavingItAsItIs && untouched) {
                scope.noteMatched(ref)
                return ref
            }
        }
        return nil
    }

    /// The scalar properties a document gives (under `replace`, every one) and a hash of their
    /// stored values, which an object holding them has too; `nil` when no object can hold them (a
    /// value generated anew, or one the insert will refuse).
    private func probe(_ type: StoredType, _ given: ObjectWriteInput, policy: UpdatePolicy) throws -> (positions: [Int], hash: Int)? {
        var positions: [Int] = []
        var hasher = Hasher()
        for (index, property) in type.columns.enumerated() {
            guard case .scalar = property.kind else { continue }
            let value: Value
            if let supplied = given[property], !supplied.isOmitted {
                value = supplied.value
            } else if policy == .replace {
                // What `replace` resets it to; a value made anew (`now`, `uuid`) matches nothing.
                switch property.defaultValue {
                case .value(let fixed)?: value = fixed
                case nil where property.isNullable: value = .null
                default: return nil
                }
            } else {
                continue
            }
            guard let stored = try? encodeScalar(value, property, path: property.name) else { return nil }
            positions.append(index)
            hasher.combine(UnkeyedCandidates.hashed(stored, property))
        }
        return (positions, hasher.finalize())
    }
}

/// The objects of one type that top-level documents giving one set of scalar properties may match:
/// those the realm held before the input began, by a hash of those properties' stored values.
/// Built once per input, type and set of properties, with one read of the type's table.
final class UnkeyedCandidates {
    /// Hashes and object ids, in order of hash, then of id.
    private let entries: [(hash: Int, id: Int64)]

    init(_ type: StoredType, positions: [Int], below floor: Int64, in storage: WriteTransaction.Storage) throws {
        let properties = positions.map { type.columns[$0] }
        var entries: [(hash: Int, id: Int64)] = []
        try storage.forEachRow(of: type, columns: properties, idAtMost: floor) { id, value in
            var hasher = Hasher()
            for (index, property) in properties.enumerated() { hasher.combine(Self.hashed(value(index), property)) }
            entries.append((hasher.finalize(), id))
        }
        entries.sort { $0.hash != $1.hash ? $0.hash < $1.hash : $0.id < $1.id }
        self.entries = entries
    }

    /// A stored value as it is hashed: decimals by value, since `modified` takes 1.0 for 1.00.
    static func hashed(_ value: StoredCell, _ property: StoredProperty) -> StoredCell {
        property.scalarType == .decimal ? value.decimalNormalized : value
    }

    /// The ids of the objects whose hash is `hash`, lowest first.
    func ids(withHash hash: Int) -> [Int64] {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        var ids: [Int64] = []
        while low < entries.count, entries[low].hash == hash {
            ids.append(entries[low].id)
            low += 1
        }
        return ids
    }
}

extension ReferenceScope {
    /// The candidates for documents of `type` giving the scalar properties at `positions`.
    func candidates(
        of type: StoredType, giving positions: [Int], below floor: Int64, in storage: WriteTransaction.Storage
    ) throws -> UnkeyedCandidates {
        let name = type.name + "#" + positions.map(String.init).joined(separator: ",")
        if let built = candidateIndexes[name] { return built }
        let built = try UnkeyedCandidates(type, positions: positions, below: floor, in: storage)
        candidateIndexes[name] = built
        return built
    }

    /// The entry recording that a document of the input was matched to `ref`: kept with the
    /// references, so that a document taken back takes its match back too.
    private func matchKey(_ ref: ObjectRef) -> Key {
        // "#" starts no type name, so no link by primary key is filed under it.
        Key(type: "#matched", key: .list([.string(ref.type), .int(ref.id)]))
    }

    /// Whether a document of the input was matched to `ref` already.
    func isMatched(_ ref: ObjectRef) -> Bool {
        slot(for: matchKey(ref)) != nil
    }

    func noteMatched(_ ref: ObjectRef) {
        set(matchKey(ref), .defined(ref, path: ""))
    }
}
