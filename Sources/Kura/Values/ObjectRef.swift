/// The identity of a stored object: its type and its internal object id.
public struct ObjectRef: Sendable, Hashable, CustomStringConvertible {
    /// The object type's name.
    public let type: String
    /// The internal object id, unique within the type and never reused.
    public let id: Int64

    /// Makes a reference to object `id` of `type`.
    public init(type: String, id: Int64) {
        self.type = type
        self.id = id
    }

    public var description: String { "\(type)#\(id)" }
}
