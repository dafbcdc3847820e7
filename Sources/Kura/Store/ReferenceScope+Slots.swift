/// The compact form of a scope's entries. A pending reference is held until its target comes, so
/// a long input may hold hundreds of thousands at once: a type is an index into the scope's type
/// names rather than a string, and a position is packed; messages are built from them only when
/// an entry is read.
extension ReferenceScope {
    /// A `Key` as the scope files it: the type as an index into `typeNames`, -1 for an `"$id"`.
    struct SlotKey: Hashable {
        private let stored: StoredValue
        let typeIndex: Int32

        init(value: Value, typeIndex: Int32) {
            switch value {
            case .int(let number): stored = .int(number)
            case .string(let text): stored = .string(text)
            default: stored = .other(ValueBox(value))
            }
            self.typeIndex = typeIndex
        }

        var value: Value {
            switch stored {
            case .int(let number): .int(number)
            case .string(let text): .string(text)
            case .other(let box): box.value
            }
        }

        /// By the value's exact bytes, as `Key` compares.
        static func == (lhs: SlotKey, rhs: SlotKey) -> Bool {
            lhs.typeIndex == rhs.typeIndex && ExactValue(lhs.value) == ExactValue(rhs.value)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(typeIndex)
            hasher.combine(ExactValue(value))
        }

        /// The usual keys (integers and strings) inline, at a fraction of a `Value`'s size; any
        /// other value boxed.
        private enum StoredValue {
            case int(Int64)
            case string(String)
            case other(ValueBox)
        }

        private final class ValueBox {
            let value: Value
            init(_ value: Value) { self.value = value }
        }
    }

    /// An `Entry` as the scope keeps it.
    struct Slot {
        let objectId: Int64
        let path: String
        /// The position's offset, line and column, when `state` says there is one; a line of
        /// `UInt32.max` sends to `widePositions`.
        let offset: Int
        let line: UInt32
        let column: UInt32
        let typeIndex: Int32
        let state: State

        enum State: UInt8 {
            case defined, reserved, reservedAt
        }

        var isReserved: Bool { state != .defined }
    }

    static let idTypeIndex: Int32 = -1

    /// The slot key for `key`, adding its type to the names if new.
    func slotKey(_ key: Key) -> SlotKey {
        SlotKey(value: key.value, typeIndex: key.type.map(typeIndex) ?? Self.idTypeIndex)
    }

    /// The slot key for `key` if an entry can exist under it: none names a type never seen.
    func existingSlotKey(_ key: Key) -> SlotKey? {
        guard let type = key.type else { return SlotKey(value: key.value, typeIndex: Self.idTypeIndex) }
        guard let index = typeIndices[type] else { return nil }
        return SlotKey(value: key.value, typeIndex: index)
    }

    /// The key a slot key stands for.
    func key(_ slotKey: SlotKey) -> Key {
        guard slotKey.typeIndex != Self.idTypeIndex else { return Key(id: slotKey.value) }
        return Key(type: typeNames[Int(slotKey.typeIndex)], key: slotKey.value)
    }

    func slot(_ entry: Entry) -> Slot {
        switch entry {
        case .defined(let ref, let path):
            return Slot(objectId: ref.id, path: path, offset: 0, line: 0, column: 0, typeIndex: typeIndex(ref.type), state: .defined)
        case .reserved(let ref, let path, nil):
            return Slot(objectId: ref.id, path: path, offset: 0, line: 0, column: 0, typeIndex: typeIndex(ref.type), state: .reserved)
        case .reserved(let ref, let path, let position?):
            var line = UInt32.max
            var column: UInt32 = 0
            if let narrowLine = UInt32(exactly: position.line), narrowLine != .max, let narrowColumn = UInt32(exactly: position.column) {
                line = narrowLine
                column = narrowColumn
            } else {
                widePositions[position.offset] = position
            }
            return Slot(
                objectId: ref.id, path: path, offset: position.offset, line: line, column: column, typeIndex: typeIndex(ref.type),
                state: .reservedAt)
        }
    }

    func entry(_ slot: Slot) -> Entry {
        let ref = ObjectRef(type: typeNames[Int(slot.typeIndex)], id: slot.objectId)
        switch slot.state {
        case .defined:
            return .defined(ref, path: slot.path)
        case .reserved:
            return .reserved(ref, path: slot.path, position: nil)
        case .reservedAt:
            let position = slot.line == .max
                ? widePositions[slot.offset]
                : TextPosition(line: Int(slot.line), column: Int(slot.column), offset: slot.offset)
            return .reserved(ref, path: slot.path, position: position)
        }
    }

    private func typeIndex(_ name: String) -> Int32 {
        if let index = typeIndices[name] { return index }
        let index = Int32(typeNames.count)
        typeNames.append(name)
        typeIndices[name] = index
        return index
    }
}
