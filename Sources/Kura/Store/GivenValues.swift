/// The values given for an object's stored properties, by position, and its `"$id"`: the writer
/// goes through a `.map` value's keys once, rather than hashing each property's name to find it.
/// Positions hold where each value is in the map, in scratch space on the stack: copying the values
/// out and freeing an array of them for every object was about a tenth of the writing thread's
/// instructions.
struct GivenValues {
    typealias Fields = [String: Value]

    private let fields: Fields
    private let slots: UnsafeMutableBufferPointer<Fields.Index?>
    /// The document's `"$id"`, if it has one.
    let id: Value?

    /// Runs `body` with the values of `fields` for `type`; keys that name no stored property are
    /// left out, as they always were.
    static func with<Result>(_ fields: Fields, of type: StoredType, _ body: (GivenValues) throws -> Result) throws -> Result {
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
            return try body(GivenValues(fields: fields, slots: slots, id: id))
        }
    }

    private init(fields: Fields, slots: UnsafeMutableBufferPointer<Fields.Index?>, id: Value?) {
        self.fields = fields
        self.slots = slots
        self.id = id
    }

    /// The value given for `property`, if any.
    subscript(property: StoredProperty) -> Value? {
        guard let index = slots[property.position] else { return nil }
        return fields.values[index]
    }
}
