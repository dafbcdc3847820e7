/// The compact form of a scope's entries. A pending reference is held until its target comes, so
/// a long input may hold hundreds of thousands at once: a type is an index into the scope's type
/// names rather than a string, a path a code into its `paths`, and a position is packed; messages
/// are built from them only when an entry is read.
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

    /// An `Entry` as the scope keeps it, in 32 bytes: the path as a code into `paths`, the
    /// position packed, the type and the state in one word.
    struct Slot {
        let objectId: Int64
        /// With a position that fits (see `line`), its offset in the low 40 bits and its column
        /// in the high 24; otherwise the whole offset, the key into `widePositions`.
        let place: UInt64
        /// The position's line; `UInt32.max` when it does not fit, or there is none.
        let line: UInt32
        let path: ReferencePaths.Code
        /// The index into `typeNames` shifted left by two, and the state in the low two bits.
        let typeAndState: UInt32

        enum State: UInt32 {
            case defined, reserved, reservedAt
        }

        init(objectId: Int64, place: UInt64, line: UInt32, path: ReferencePaths.Code, typeIndex: Int32, state: State) {
            self.objectId = objectId
            self.place = place
            self.line = line
            self.path = path
            typeAndState = UInt32(truncatingIfNeeded: typeIndex) << 2 | state.rawValue
        }

        var typeIndex: Int { Int(typeAndState >> 2) }
        var state: State { State(rawValue: typeAndState & 3) ?? .defined }
        var isReserved: Bool { state != .defined }
    }

    /// The bits of a packed position: 40 for the offset (a terabyte), 24 for the column.
    private static let offsetBits: UInt64 = 40
    private static let offsetMask: UInt64 = 1 << offsetBits - 1
    private static let columnLimit = 1 << 24

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
            return Slot(objectId: ref.id, place: 0, line: .max, path: paths.code(path), typeIndex: typeIndex(ref.type), state: .defined)
        case .reserved(let ref, let path, nil):
            return Slot(objectId: ref.id, place: 0, line: .max, path: paths.code(path), typeIndex: typeIndex(ref.type), state: .reserved)
        case .reserved(let ref, let path, let position?):
            let place: UInt64
            let line: UInt32
            if let narrowLine = UInt32(exactly: position.line), narrowLine != .max, (0..<Self.columnLimit).contains(position.column),
                let offset = position.offset.flatMap({ UInt64(exactly: $0) }), offset <= Self.offsetMask
            {
                place = offset | UInt64(position.column) << Self.offsetBits
                line = narrowLine
            } else {
                // Document readers always count offsets; a position without one is kept under -1.
                let key = position.offset ?? -1
                widePositions[key] = position
                place = UInt64(truncatingIfNeeded: key)
                line = .max
            }
            return Slot(objectId: ref.id, place: place, line: line, path: paths.code(path), typeIndex: typeIndex(ref.type), state: .reservedAt)
        }
    }

    func entry(_ slot: Slot) -> Entry {
        let ref = objectRef(slot)
        let path = paths.path(slot.path)
        switch slot.state {
        case .defined:
            return .defined(ref, path: path)
        case .reserved:
            return .reserved(ref, path: path, position: nil)
        case .reservedAt:
            guard slot.line != .max else {
                return .reserved(ref, path: path, position: widePositions[Int(truncatingIfNeeded: slot.place)])
            }
            let position = TextPosition(
                line: Int(slot.line), column: Int(slot.place >> Self.offsetBits), offset: Int(slot.place & Self.offsetMask))
            return .reserved(ref, path: path, position: position)
        }
    }

    /// The object a slot holds, without rebuilding its path.
    func objectRef(_ slot: Slot) -> ObjectRef {
        ObjectRef(type: typeNames.indices.contains(slot.typeIndex) ? typeNames[slot.typeIndex] : "", id: slot.objectId)
    }

    private func typeIndex(_ name: String) -> Int32 {
        if let index = typeIndices[name] { return index }
        let index = Int32(typeNames.count)
        typeNames.append(name)
        typeIndices[name] = index
        return index
    }
}
