/// The backlinks of the objects of one input without a realm (`DocumentDecoder`): per linkingObjects
/// property a model asks for, one index from each object to the objects linking to it, built once.
final class GraphBacklinks {
    private let objects: [ObjectRef: [String: Value]]
    /// By `Type.property` of the link mirrored: each linked object's sources, in input order.
    private var indexes: [String: [ObjectRef: [ObjectRef]]] = [:]

    init(objects: [ObjectRef: [String: Value]]) {
        self.objects = objects
    }

    /// The objects whose link named by `property` (a linkingObjects property) reaches `ref`, once each.
    func linkingObjects(of ref: ObjectRef, _ property: Property) -> [ObjectRef] {
        guard case .linkingObjects(let sourceType, let sourceProperty) = property.type else { return [] }
        let name = "\(sourceType).\(sourceProperty)"
        if let index = indexes[name] { return index[ref] ?? [] }
        let index = makeIndex(sourceType, sourceProperty)
        indexes[name] = index
        return index[ref] ?? []
    }

    private func makeIndex(_ sourceType: String, _ sourceProperty: String) -> [ObjectRef: [ObjectRef]] {
        var index: [ObjectRef: [ObjectRef]] = [:]
        // Local ids grow in input order, as object ids do in a realm.
        let sources = objects.keys.filter { $0.type == sourceType }.sorted { $0.id < $1.id }
        for source in sources {
            var seen = Set<ObjectRef>()
            for target in Self.links(in: objects[source]?[sourceProperty]) where seen.insert(target).inserted {
                index[target, default: []].append(source)
            }
        }
        return index
    }

    /// The objects a link, a list or set of links, or a map of links holds.
    private static func links(in value: Value?) -> [ObjectRef] {
        switch value {
        case .object(let ref): return [ref]
        case .list(let items): return items.compactMap(\.objectRef)
        case .map(let entries): return entries.values.compactMap(\.objectRef)
        default: return []
        }
    }
}

extension Value {
    /// The object of a link value, or `nil`.
    fileprivate var objectRef: ObjectRef? {
        if case .object(let ref) = self { return ref }
        return nil
    }
}
