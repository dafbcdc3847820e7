/// The objects named by `"$id"` in one input, so that `{"$ref": id}` links elsewhere in the same
/// input resolve to them (SPEC §3); YAML anchors and aliases arrive here the same way.
///
/// A reference may come before the document that defines it: the target's object id is reserved
/// at the first reference and taken by the defining document, so no link is ever rewritten in the
/// common case. A write transaction that used a scope refuses to commit while a reference is
/// unresolved, so no link to a missing object is ever stored.
public final class ReferenceScope {
    /// A reference that no document of the input has defined yet.
    public struct Unresolved: Sendable, Equatable {
        /// The `$ref` value.
        public let id: Value
        /// The type the reference expects.
        public let type: String
        /// Where the first reference was made.
        public let path: String

        /// What is wrong, with the path first.
        public var message: String { "\(path): " + ReferenceScope.unresolvedMessage(id: id) }
    }

    /// Why a reference is unresolved, as every place that finds one says it.
    static func unresolvedMessage(id: Value) -> String {
        if case .list(let parts) = id, parts.count == 3, parts[0] == .string(keyMarker), case .string(let type) = parts[1] {
            return "no \(type) with primary key \(parts[2]) in the realm or this input"
        }
        return "{\"$ref\": \(id)} names no document with \"$id\": \(id) in this input"
    }

    private static let keyMarker = "#key"

    /// The scope entry of a link by primary key to an object not yet written; a list, so it never
    /// collides with an `"$id"` (which is a scalar).
    static func keyReference(type: String, key: Value) -> Value {
        .list([.string(keyMarker), .string(type), key])
    }

    enum Entry: Equatable {
        /// A document carrying `"$id"` was written as this object.
        case defined(ObjectRef, path: String)
        /// Referenced, not yet defined; the object id is held for the defining document.
        case reserved(ObjectRef, path: String)
    }

    /// By the id's exact bytes: `"café"` in NFC and in NFD are two ids, as they are two keys in a realm.
    private(set) var entries: [ExactValue: Entry] = [:]
    /// Every change as the entry it replaced, so a failed change can be undone.
    private var journal: [(id: Value, previous: Entry?)] = []
    private var reservedCount = 0

    /// Makes an empty scope, one per input.
    public init() {}

    /// The references not resolved so far, in no particular order.
    public var unresolved: [Unresolved] {
        entries.compactMap { id, entry in
            guard case .reserved(let ref, let path) = entry else { return nil }
            return Unresolved(id: id.value, type: ref.type, path: path)
        }
    }

    /// The unresolved reference reported first: the one with the smallest path, so reports are stable.
    public var firstUnresolved: Unresolved? { unresolved.min { $0.path < $1.path } }

    /// Whether every reference made so far names a defined document.
    public var isResolved: Bool { reservedCount == 0 }

    subscript(id: Value) -> Entry? { entries[ExactValue(id)] }

    func set(_ id: Value, _ entry: Entry) {
        let previous = entries.updateValue(entry, forKey: ExactValue(id))
        journal.append((id, previous))
        adjustReserved(removing: previous, adding: entry)
    }

    /// A point to undo back to.
    var mark: Int { journal.count }

    /// Undoes every change made after `mark`, newest first.
    func undo(to mark: Int) {
        while journal.count > mark, let (id, previous) = journal.popLast() {
            let current = entries[ExactValue(id)]
            entries[ExactValue(id)] = previous
            adjustReserved(removing: current, adding: previous)
        }
    }

    /// Drops the undo history once a transaction has committed the changes it records.
    func commit() { journal.removeAll(keepingCapacity: true) }

    private func adjustReserved(removing old: Entry?, adding new: Entry?) {
        if case .reserved? = old { reservedCount -= 1 }
        if case .reserved? = new { reservedCount += 1 }
    }
}
