/// Writes a graph of model values in two passes: every object first (breadth-first, each class
/// instance once), then the links between them, so cycles and shared objects keep their shape.
final class ModelWriteSession {
    private let transaction: WriteTransaction
    private let policy: UpdatePolicy
    /// Links to models not written yet hold their number negated: a placeholder.
    private let walk = ModelWalk(linksAre: .negative)
    /// By type and exact key bytes, as the realm's unique index tells keys apart.
    private var keyedLocals: [ExactValue: Int64] = [:]
    private var refs: [Int64: ObjectRef] = [:]
    private var deferredLinks: [(local: Int64, fields: [String: Value])] = []

    /// Class instances already stored, written back in place under `.modified` and `.update`.
    private let identities: ManagedIdentities?
    /// The class instances written, each with its number, to be remembered as managed.
    private var instances: [(object: AnyObject, local: Int64)] = []

    init(transaction: WriteTransaction, policy: UpdatePolicy, identities: ManagedIdentities? = nil) {
        self.transaction = transaction
        self.policy = policy
        self.identities = identities
    }

    /// Writes `root` and every object it reaches; returns the root's reference.
    func write(_ root: any KuraObject) throws -> ObjectRef {
        let rootLocal = walk.number(root)
        let writer = ObjectWriter(transaction: transaction)
        try walk.visit { local, model, encoded in
            if identities != nil, Swift.type(of: model) is AnyClass { instances.append((model as AnyObject, local)) }
            let type = try transaction.catalog.type(Swift.type(of: model).typeName)
            var fields = try writer.fields(of: encoded, type, path: type.name)
            for property in type.storedProperties where fields[property.name] == nil {
                // A nil optional in a model means null, not "leave as stored"; generated values keep their defaults.
                if property.defaultValue == nil && !property.isAutoIncrement { fields[property.name] = .null }
            }
            if let key = type.primaryKey, let value = fields[key], !value.isNull {
                let identity = ExactValue(.list([.string(type.name), value]))
                if let earlier = keyedLocals[identity], let ref = refs[earlier] {
                    refs[local] = ref
                    return
                }
                keyedLocals[identity] = local
            }
            let links = fields.filter { Self.holdsPlaceholder($0.value) }
            for name in links.keys { fields[name] = nil }
            if let ref = try storedRef(of: model, type: type.name) {
                try writer.update(ref, fields, policy: policy, path: type.name, depth: 0)
                refs[local] = ref
            } else {
                refs[local] = try writer.create(type.name, .map(fields), policy: policy, path: type.name)
            }
            if !links.isEmpty { deferredLinks.append((local, links)) }
        }
        let counts = transaction.counts
        for (local, fields) in deferredLinks {
            guard let ref = refs[local] else { continue }
            let resolved = try fields.mapValues(resolve)
            try writer.update(
                ref, resolved, policy: policy == .modified ? .modified : .update,
                path: ref.type, depth: 0)
        }
        transaction.counts = counts  // linking pass changes no object's status
        guard let rootRef = refs[rootLocal] else { throw KuraError.store(.database, "the model was not written") }
        if let identities {
            for (object, local) in instances { if let ref = refs[local] { identities.record(object, ref) } }
        }
        return rootRef
    }

    /// The stored object a class instance was read as, when the policy updates objects and it still exists.
    private func storedRef(of model: any KuraObject, type: String) throws -> ObjectRef? {
        guard policy != .error, let identities, Swift.type(of: model) is AnyClass,
            let ref = identities.ref(of: model as AnyObject), ref.type == type,
            try transaction.storage.objectExists(ref)
        else { return nil }
        return ref
    }

    /// Placeholders are links with negative ids: the local number of an object not yet written.
    private static func holdsPlaceholder(_ value: Value) -> Bool {
        switch value {
        case .object(let ref): ref.id < 0
        case .list(let items): items.contains(where: holdsPlaceholder)
        case .map(let entries): entries.values.contains(where: holdsPlaceholder)
        default: false
        }
    }

    private func resolve(_ value: Value) throws -> Value {
        switch value {
        case .object(let ref) where ref.id < 0:
            guard let written = refs[-ref.id] else { throw KuraError.store(.database, "a linked model was not written") }
            return .object(written)
        case .list(let items): return .list(try items.map(resolve))
        case .map(let entries): return .map(try entries.mapValues(resolve))
        default: return value
        }
    }
}
