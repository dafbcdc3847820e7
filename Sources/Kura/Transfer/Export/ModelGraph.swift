/// Model values as objects by local reference, the way `DocumentAssembler` reads objects: each class
/// instance is one object however often it is linked; each struct value is an object of its own.
final class ModelGraph {
    /// Every object's properties; links to stored (non-embedded) models are `.object` values.
    private(set) var objects: [ObjectRef: [String: Value]] = [:]
    /// The objects of the models given, in order.
    private(set) var roots: [ObjectRef] = []
    /// How many times each object is reached: once as a root, once per link to it.
    private var reached: [ObjectRef: Int] = [:]
    private var instances: [ObjectIdentifier: ObjectRef] = [:]
    private var queue: [(ref: ObjectRef, model: any KuraObject)] = []

    /// Encodes `models` and every model they link to.
    init(_ models: [any KuraObject]) throws {
        roots = models.map { reference(to: $0) }
        var index = 0
        while index < queue.count {
            let (ref, model) = queue[index]
            index += 1
            let encoder = ValueEncoder { [unowned self] target in .object(self.reference(to: target)) }
            guard case .map(let fields) = try encoder.encodeFields(of: model) else {
                throw KuraError.store(.typeMismatch, "\(ref.type) does not encode as an object")
            }
            objects[ref] = fields
        }
    }

    /// Whether an object is reached more than once.
    func isShared(_ ref: ObjectRef) -> Bool { (reached[ref] ?? 0) > 1 }

    /// The reference for a model, counting the link; a class instance met before keeps its reference.
    private func reference(to model: any KuraObject) -> ObjectRef {
        let typeName = type(of: model).typeName
        if type(of: model) is AnyClass {
            let identity = ObjectIdentifier(model as AnyObject)
            if let ref = instances[identity] {
                reached[ref, default: 0] += 1
                return ref
            }
            let ref = ObjectRef(type: typeName, id: Int64(queue.count + 1))
            instances[identity] = ref
            return enqueue(ref, model)
        }
        return enqueue(ObjectRef(type: typeName, id: Int64(queue.count + 1)), model)
    }

    private func enqueue(_ ref: ObjectRef, _ model: any KuraObject) -> ObjectRef {
        queue.append((ref, model))
        reached[ref] = 1
        return ref
    }
}
