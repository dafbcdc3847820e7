/// The object writer's input: the values given for an object's stored properties, by position, and
/// its `"$id"`, taken from an object the mapper laid out by position or from a `.map` value's keys,
/// gone through once rather than hashing each property's name to find it. For a map, positions hold
/// where each value is, in scratch space on the stack: copying the values out and freeing an array
/// of them for every object was about a tenth of the writing thread's instructions.
struct ObjectWriteInput {
    typealias Fields = [String: Value]

    // Both sources as plain stored properties, not an enum: binding an enum's payload to read a
    // value copied it, a retain and a release for every property of every object.
    /// A `.map`'s properties, and where each stored property's value is among them.
    private let fields: Fields
    private let fieldSlots: UnsafeMutableBufferPointer<Fields.Index?>
    /// A mapped object's slots, by stored position.
    private let mapped: [MappedValue?]
    private let isMapped: Bool
    /// The document's `"$id"`, if it has one.
    let id: Value?

    /// Runs `body` with the values of `fields` for `type`; keys that name no stored property are
    /// left out, as they always were.
    static func with<Result>(_ fields: Fields, of type: StoredType, _ body: (ObjectWriteInput) throws -> Result) throws -> Result {
        try withUnsafeTemporaryAllocation(of: Fields.Index?.self, capacity: type.properties.count) { slots in
            slots.initialize(repeating: nil)
            var id: Value?
            var index = fields.startIndex
            while index != fields.endIndex {
                let key = fields.keys[index]
                if let position = type.positions[key] {
                    slots[position] = index
                } else if key == "$id" {
                    id = fields.values[index]
                }
                fields.formIndex(after: &index)
            }
            return try body(ObjectWriteInput(fields: fields, fieldSlots: slots, mapped: [], isMapped: false, id: id))
        }
    }

    /// Runs `body` with the values of a mapped object for `type`. They are taken by position when the
    /// mapper's type lays its properties out as `type` does, as it does unless the realm's schema
    /// changed after the mapper read it; by name otherwise.
    static func with<Result>(
        _ object: MappedObject, of type: StoredType, in transaction: WriteTransaction, _ body: (ObjectWriteInput) throws -> Result
    ) throws -> Result {
        guard transaction.sharesLayout(object.type, type) else { return try with(object.fields, of: type, body) }
        let noSlots = UnsafeMutableBufferPointer<Fields.Index?>(start: nil, count: 0)
        return try body(ObjectWriteInput(fields: [:], fieldSlots: noSlots, mapped: object.slots, isMapped: true, id: object.id))
    }

    private init(
        fields: Fields, fieldSlots: UnsafeMutableBufferPointer<Fields.Index?>, mapped: [MappedValue?], isMapped: Bool, id: Value?
    ) {
        self.fields = fields
        self.fieldSlots = fieldSlots
        self.mapped = mapped
        self.isMapped = isMapped
        self.id = id
    }

    /// The value given for `property`, if any.
    subscript(property: StoredProperty) -> MappedValue? {
        if isMapped { return mapped[property.position] }
        guard let index = fieldSlots[property.position] else { return nil }
        return .plain(fields.values[index])
    }
}
