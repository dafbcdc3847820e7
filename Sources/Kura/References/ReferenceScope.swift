/// The objects named by `"$id"` in one input, so that `{"$ref": id}` links elsewhere in the same
/// input resolve to them; YAML anchors and aliases arrive here the same way.
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
        /// Where the document that made the first reference starts, when the scope was told (`position`).
        public let position: TextPosition?

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

    /// What an entry is filed under: an `"$id"` value, or a link by primary key to an object of
    /// a type not yet written. Two fields rather than a list value, so an entry costs no allocation
    /// of its own beyond the key's text.
    struct Key: Hashable {
        /// The linked type, for a link by primary key; `nil` for an `"$id"`.
        let type: String?
        let value: Value

        /// By the value's exact bytes: `"café"` in NFC and in NFD are two ids, as they are two keys in a realm.
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.type == rhs.type && ExactValue(lhs.value) == ExactValue(rhs.value)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(type)
            hasher.combine(ExactValue(value))
        }

        /// The entry of the document carrying `"$id": id`.
        init(id: Value) {
            type = nil
            value = id
        }

        /// The entry of a link by primary key to an object not yet written.
        init(type: String, key: Value) {
            self.type = type
            value = key
        }

        /// The key as `Unresolved.id` shows it: a primary key link as a list, so it never collides
        /// with an `"$id"` (which is a scalar).
        var publicId: Value {
            guard let type else { return value }
            return .list([.string(ReferenceScope.keyMarker), .string(type), value])
        }
    }

    enum Entry: Equatable {
        /// A document carrying `"$id"` was written as this object.
        case defined(ObjectRef, path: String)
        /// Referenced, not yet defined; the object id is held for the defining document.
        case reserved(ObjectRef, path: String, position: TextPosition?)
    }

    /// The entries, in compact form: a long input can hold hundreds of thousands of them at once.
    private(set) var entries = ReferenceSlotTable()
    /// Every change since the last commit as the entry it replaced, so a failed change can be
    /// undone; not kept while `snapshot` stands in for it.
    private var journal: [(key: SlotKey, previous: Slot?)] = []
    /// The entries as they were when a transaction that undoes nothing short of its whole self
    /// began (see `keepSnapshot`), restored when it rolls back.
    private var snapshot: (entries: ReferenceSlotTable, reservedCount: Int)?
    private var reservedCount = 0
    /// The type names entries refer to, each once; a slot holds an index into it. Never shrinks,
    /// so an index stays valid across undo.
    var typeNames: [String] = []
    var typeIndices: [String: Int32] = [:]
    /// Positions that do not fit a slot's packed form, by byte offset (unique in one input).
    var widePositions: [Int: TextPosition] = [:]
    /// The paths entries were made at, each rebuilt from a slot's code.
    var paths = ReferencePaths()

    /// Where the document being written starts, recorded with the references it leaves unresolved.
    var position: TextPosition?
    /// Each type's last object id before the input wrote anything, once it has: objects above it
    /// are the input's own (see `ObjectWriter.matchedObject`).
    var objectIdFloors: [String: Int64]?

    /// Whether `ref` is an object the realm held before the input wrote anything (object ids are
    /// never reused, so one above its type's floor is the input's own).
    func isFromBeforeInput(_ ref: ObjectRef) -> Bool {
        ref.id <= objectIdFloors?[ref.type] ?? 0
    }
    /// The objects a top-level document without a primary key may match, found by a hash of the
    /// properties it gives, per type and set of those properties (`UnkeyedCandidates`).
    var candidateIndexes: [String: UnkeyedCandidates] = [:]
    /// How many trials (`beginTrial`) are under way: their changes are journaled even under a snapshot.
    private var trials = 0
    /// References known to stay unresolved to the end of the input, each with whether the document
    /// defining it was refused: a document making one is refused at once (an import under `.skip`
    /// withdraws such documents and writes the rest again).
    private(set) var unresolvable: [Key: Bool] = [:]

    /// Makes an empty scope, one per input.
    public init() {}

    /// The references not resolved so far, in no particular order.
    public var unresolved: [Unresolved] {
        entries.all.compactMap { slotKey, slot in
            guard slot.isReserved, case .reserved(let ref, let path, let position) = entry(slot) else { return nil }
            return Unresolved(id: key(slotKey).publicId, type: ref.type, path: path, position: position)
        }
    }

    /// The unresolved reference reported first: the one with the smallest path, so reports are stable.
    public var firstUnresolved: Unresolved? { unresolved.min { $0.path < $1.path } }

    /// Whether every reference made so far names a defined document.
    public var isResolved: Bool { reservedCount == 0 }

    subscript(key: Key) -> Entry? {
        guard let slotKey = existingSlotKey(key), let slot = entries[slotKey] else { return nil }
        return entry(slot)
    }

    /// The slot filed under `key`: its object (`objectRef`) and state read without rebuilding the
    /// path and position, which only a message needs (`entry`).
    func slot(for key: Key) -> Slot? {
        guard let slotKey = existingSlotKey(key) else { return nil }
        return entries[slotKey]
    }

    func set(_ key: Key, _ entry: Entry?) {
        let slotKey = self.slotKey(key)
        let slot = entry.map(self.slot)
        let previous = entries.set(slot, forKey: slotKey)
        if snapshot == nil || trials > 0 { journal.append((slotKey, previous)) }
        adjustReserved(removing: previous, adding: slot)
    }

    /// Starts a trial: the changes from here on can be taken back alone (`endTrial`), even in a
    /// transaction that keeps a snapshot. Returns the point to take them back to.
    func beginTrial() -> Int {
        trials += 1
        return journal.count
    }

    /// Ends the trial begun at `mark`: its changes stay when `keeping`, else they are taken back.
    func endTrial(at mark: Int, keeping: Bool) {
        trials -= 1
        if !keeping {
            while journal.count > mark, let (key, previous) = journal.popLast() {
                let current = entries.set(previous, forKey: key)
                adjustReserved(removing: current, adding: previous)
            }
        } else if snapshot != nil && trials == 0 && journal.count > mark {
            // The snapshot undoes them with the rest of the transaction.
            journal.removeSubrange(mark...)
        }
    }

    /// A point to undo back to.
    var mark: Int { journal.count }

    /// Undoes every change made after `mark`, newest first; with a snapshot, every change since it.
    func undo(to mark: Int) {
        if let (entries, reservedCount) = snapshot {
            self.entries = entries
            self.reservedCount = reservedCount
            return
        }
        while journal.count > mark, let (key, previous) = journal.popLast() {
            let current = entries.set(previous, forKey: key)
            adjustReserved(removing: current, adding: previous)
        }
    }

    /// Marks the references unresolved now as never to be resolved, to be refused from here on;
    /// after the first round, they were defined by documents since refused.
    func markUnresolvable() {
        let definedByRefused = !unresolvable.isEmpty
        for (slotKey, slot) in entries.all where slot.isReserved { unresolvable[key(slotKey)] = definedByRefused }
    }

    /// Why a reference filed under `key`, marked unresolvable, is refused.
    func unresolvableMessage(_ key: Key) -> String? {
        guard !unresolvable.isEmpty, let definedByRefused = unresolvable[key] else { return nil }
        guard definedByRefused else { return Self.unresolvedMessage(id: key.publicId) }
        if let type = key.type {
            return "links to the \(type) with primary key \(key.value), whose document was refused"
        }
        return "{\"$ref\": \(key.value)} names the document with \"$id\": \(key.value), which was refused"
    }

    /// For a transaction that is only ever undone whole: keeps the entries as they are now, to
    /// restore on rollback, instead of a journal entry per change, which would hold every
    /// reference of a long input until the end. The copy is shared until the first change, and
    /// costs nothing for a scope that starts empty.
    func keepSnapshot() {
        guard snapshot == nil, journal.isEmpty else { return }
        snapshot = (entries, reservedCount)
    }

    /// Drops the undo history once a transaction has committed the changes it records.
    func commit() {
        journal.removeAll(keepingCapacity: true)
        snapshot = nil
    }

    private func adjustReserved(removing old: Slot?, adding new: Slot?) {
        if old?.isReserved == true { reservedCount -= 1 }
        if new?.isReserved == true { reservedCount += 1 }
    }
}
