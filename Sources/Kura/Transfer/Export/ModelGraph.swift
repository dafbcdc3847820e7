/// Model values as objects by local reference, the way `DocumentAssembler` reads objects: each class
/// instance is one object however often it is linked; each struct value is an object of its own.
final class ModelGraph {
    /// Every object's properties; links to stored (non-embedded) models are `.object` values.
    private(set) var objects: [ObjectRef: [String: Value]] = [:]
    /// The objects of the models given, in order.
    let roots: [ObjectRef]
    private let walk: ModelWalk

    /// Encodes `models` and every model they link to.
    init(_ models: [any KuraObject]) throws {
        let walk = ModelWalk(linksAre: .positive)
        self.walk = walk
        roots = models.map { model in ObjectRef(type: type(of: model).typeName, id: walk.number(model)) }
        try walk.visit { number, model, fields in
            let ref = ObjectRef(type: type(of: model).typeName, id: number)
            guard case .map(let properties) = fields else {
                throw KuraError.store(.typeMismatch, "\(ref.type) does not encode as an object")
            }
            objects[ref] = properties
        }
    }

    /// Whether an object is reached more than once.
    func isShared(_ ref: ObjectRef) -> Bool { walk.isShared(ref.id) }
}
