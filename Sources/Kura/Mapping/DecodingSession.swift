/// Resolves links while model values are decoded from a realm: each stored object becomes one
/// instance, and `Link` properties are filled breadth-first, so cycles and shared objects keep their shape.
final class DecodingSession {
    /// How deep objects may nest inline (links that are not `Link`) before decoding gives up.
    static let maxInlineDepth = 200

    private let load: (ObjectRef) throws -> Value
    private var instances: [ObjectRef: Any] = [:]
    private var inProgress: Set<ObjectRef> = []
    private var pendingLinks: [(ref: ObjectRef, box: any LinkBox)] = []

    /// Makes a session that reads an object's properties (as a `.map`) with `load`.
    init(load: @escaping (ObjectRef) throws -> Value) {
        self.load = load
    }

    /// The instance for a stored object, decoded once.
    func object<T: Decodable>(_ type: T.Type, at ref: ObjectRef, codingPath: [any CodingKey], depth: Int) throws -> T {
        if let existing = instances[ref] {
            if let typed = existing as? T { return typed }
            throw DecodingError.typeMismatch(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "\(ref) was decoded as \(Swift.type(of: existing))"))
        }
        guard !inProgress.contains(ref), depth < Self.maxInlineDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "\(ref) links back into itself or nests too deep: declare this property with @Link"))
        }
        inProgress.insert(ref)
        defer { inProgress.remove(ref) }
        let decoded = try T(from: ValueDecoder(value: try load(ref), codingPath: codingPath, session: self, depth: depth + 1))
        instances[ref] = decoded
        return decoded
    }

    /// Queues a `Link` to be filled with the object at `ref` once the current object is done.
    func fillLater(_ box: any LinkBox, with ref: ObjectRef) {
        if let existing = instances[ref] {
            box.fill(existing)
        } else {
            pendingLinks.append((ref, box))
        }
    }

    /// Fills every queued link, decoding the objects they need (which may queue more).
    func fillLinks() throws {
        var index = 0
        while index < pendingLinks.count {
            let (ref, box) = pendingLinks[index]
            index += 1
            let targetType = Swift.type(of: box).targetType
            box.fill(try decodeTarget(targetType, at: ref))
        }
        pendingLinks.removeAll()
    }

    private func decodeTarget<Target: KuraObject>(_ type: Target.Type, at ref: ObjectRef) throws -> Target {
        try object(type, at: ref, codingPath: [], depth: 0)
    }
}
