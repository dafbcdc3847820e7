/// Resolves links while model values are decoded from a realm: each stored object becomes one
/// instance, and `Link` and `Backlinks` properties are filled breadth-first, so cycles and shared
/// objects keep their shape.
final class DecodingSession {
    /// How deep objects may nest inline (links that are not `Link`) before decoding gives up.
    static let maxInlineDepth = 200

    private let load: (ObjectRef) throws -> Value
    private let linkingObjects: (ObjectRef, Property) throws -> [ObjectRef]
    /// Per type, its linkingObjects properties by name: computed when a model asks for them.
    private let backlinkProperties: [String: [String: Property]]
    /// Each stored object decoded so far, as its one instance.
    private(set) var instances: [ObjectRef: Any] = [:]
    private var inProgress: Set<ObjectRef> = []
    private var pendingLinks: [(ref: ObjectRef, box: any LinkBox)] = []
    private var pendingBacklinks: [(refs: [ObjectRef], box: any BacklinksBox)] = []
    /// How many plain-array backlinks are being decoded inline, one inside the other.
    private var backlinkDepth = 0
    /// Objects being decoded as stand-in copies (see `object`), with how many copies of each.
    private var copies: [ObjectRef: Int] = [:]

    /// Makes a session that reads an object's stored properties (as a `.map`) with `load`, and the
    /// objects linking to it through one of `schema`'s linkingObjects properties with `linkingObjects`.
    init(
        schema: Schema, load: @escaping (ObjectRef) throws -> Value,
        linkingObjects: @escaping (ObjectRef, Property) throws -> [ObjectRef]
    ) {
        self.load = load
        self.linkingObjects = linkingObjects
        var backlinkProperties: [String: [String: Property]] = [:]
        for type in schema.types {
            for property in type.properties where property.isComputed {
                backlinkProperties[type.name, default: [:]][property.name] = property
            }
        }
        self.backlinkProperties = backlinkProperties
    }

    /// The instance for a stored object, decoded once.
    func object<T: Decodable>(_ type: T.Type, at ref: ObjectRef, codingPath: [any CodingKey], depth: Int) throws -> T {
        if let existing = instances[ref] {
            if let typed = existing as? T { return typed }
            throw DecodingError.typeMismatch(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "\(ref) was decoded as \(Swift.type(of: existing))"))
        }
        if inProgress.contains(ref), backlinkDepth > 0, depth < Self.maxInlineDepth {
            // A backlink read inline leads back to an object still being decoded, which cannot be
            // handed out yet: a copy stands in, its own backlinks empty, so the cycle ends there.
            copies[ref, default: 0] += 1
            defer { copies[ref, default: 1] -= 1 }
            return try T(from: ValueDecoder(value: try load(ref), codingPath: codingPath, session: self, depth: depth + 1, object: ref))
        }
        guard !inProgress.contains(ref), depth < Self.maxInlineDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "\(ref) links back into itself or nests too deep: declare this property with @Link (@Backlinks for a linkingObjects property)"))
        }
        inProgress.insert(ref)
        defer { inProgress.remove(ref) }
        let decoder = ValueDecoder(value: try load(ref), codingPath: codingPath, session: self, depth: depth + 1, object: ref)
        let decoded = try T(from: decoder)
        instances[ref] = decoded
        return decoded
    }

    /// Whether the stored object's type has a linkingObjects property `name`.
    func hasBacklinks(_ ref: ObjectRef, _ name: String) -> Bool {
        backlinkProperties[ref.type]?[name] != nil
    }

    /// The objects linking to `ref` through its linkingObjects property `name`, as a list of links;
    /// `nil` when its type has no such property.
    func backlinks(of ref: ObjectRef, _ name: String) throws -> Value? {
        guard let property = backlinkProperties[ref.type]?[name] else { return nil }
        if copies[ref, default: 0] > 0 { return .list([]) }
        return .list(try linkingObjects(ref, property).map(Value.object))
    }

    /// Decodes a backlink's objects inline: an object it leads back to is then copied, not refused.
    func throughBacklink<T>(_ decode: () throws -> T) throws -> T {
        backlinkDepth += 1
        defer { backlinkDepth -= 1 }
        return try decode()
    }

    /// Queues a `Link` to be filled with the object at `ref` once the current object is done.
    func fillLater(_ box: any LinkBox, with ref: ObjectRef) {
        if let existing = instances[ref] {
            box.fill(existing)
        } else {
            pendingLinks.append((ref, box))
        }
    }

    /// Queues a `Backlinks` to be filled with the objects at `refs` once the current objects are done:
    /// the objects linking here are always reached through a cycle.
    func fillLater(_ box: any BacklinksBox, with refs: [ObjectRef]) {
        pendingBacklinks.append((refs, box))
    }

    /// Fills every queued link and backlink, decoding the objects they need (which may queue more).
    func fillLinks() throws {
        var linkIndex = 0
        var backlinkIndex = 0
        while linkIndex < pendingLinks.count || backlinkIndex < pendingBacklinks.count {
            if linkIndex < pendingLinks.count {
                let (ref, box) = pendingLinks[linkIndex]
                linkIndex += 1
                let targetType = Swift.type(of: box).targetType
                box.fill(try decodeTarget(targetType, at: ref))
            } else {
                let (refs, box) = pendingBacklinks[backlinkIndex]
                backlinkIndex += 1
                let sourceType = Swift.type(of: box).sourceType
                box.fill(try refs.map { try decodeTarget(sourceType, at: $0) as Any })
            }
        }
        pendingLinks.removeAll()
        pendingBacklinks.removeAll()
    }

    private func decodeTarget<Target: KuraObject>(_ type: Target.Type, at ref: ObjectRef) throws -> Target {
        try object(type, at: ref, codingPath: [], depth: 0)
    }
}
