/// Links inside mixed values (see `MixedLink`): `{"$type": T, "$key": k}`, `{"$type": T, "$ref": id}`,
/// or `{"$type": T, …properties}`.
extension DocumentWalker {
    mutating func writeMixedLink(_ link: MixedLink, depth: Int) throws(WriteFailure) {
        let target = try mixedLinkTarget(link.typeName)
        switch link.link {
        case .map(let fields):
            if fields.count == 1, let id = fields["$ref"] {
                emitter.beginObject(count: 2, anchor: nil)
                try writeTypeTag(target)
                try emitter.key("$ref")
                do { try writeMixed(id, depth: depth + 1) } catch { throw error.inside(.key("$ref")) }
                emitter.endObject(anchor: nil)
            } else {
                // `$id` stays a key: an alias in a mixed position would copy the value, not link it.
                try writeObject(fields, target, depth: depth, anchorable: false, typeTag: target.name)
            }
        case .object(let ref):
            throw Self.storedObject(ref)
        case .null:
            throw WriteFailure(.unwritableValue, "expected a \(target.name) link, found null")
        default:
            guard let key = target.primaryKey else {
                throw WriteFailure(.unwritableValue, "expected a nested \(target.name) document, found \(link.link.kindName)")
            }
            emitter.beginObject(count: 2, anchor: nil)
            try writeTypeTag(target)
            try emitter.key(MixedLink.primaryKeyKey)
            do { try writeScalar(link.link, key) } catch { throw error.inside(.key(MixedLink.primaryKeyKey)) }
            emitter.endObject(anchor: nil)
        }
    }

    /// The plan of a type a mixed value links to: a top-level type of the schema.
    func mixedLinkTarget(_ typeName: String) throws(WriteFailure) -> TypePlan {
        guard let target = plan[typeName], !target.isEmbedded else {
            throw WriteFailure(.unwritableValue, "a mixed value cannot link to '\(typeName)': not a top-level type of the schema")
        }
        return target
    }

    private mutating func writeTypeTag(_ target: TypePlan) throws(WriteFailure) {
        try emitter.key(MixedLink.typeKey)
        try emitter.string(target.name)
    }
}
