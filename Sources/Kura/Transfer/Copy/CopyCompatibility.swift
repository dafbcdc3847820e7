/// Whether a destination schema can hold objects of a source schema's types, checked before a copy
/// writes anything: every copied type and stored property must exist with the same type, flags and
/// primary key, and the destination may add only properties a copied object can leave out.
struct CopyCompatibility {
    /// Throws, naming every problem, when `destination` cannot hold objects of `source`'s `types`.
    static func check(_ source: Schema, into destination: Schema, types: [String]) throws(KuraError) {
        let problems = CopyCompatibility(source: source, destination: destination).problems(for: types)
        guard problems.isEmpty else {
            throw KuraError.transfer(.schemaMismatch, "the destination schema cannot hold the copy: " + problems.joined(separator: "; "))
        }
    }

    let source: Schema
    let destination: Schema

    /// What stops objects of `types` from being copied, one line each; empty when nothing does.
    func problems(for types: [String]) -> [String] {
        var problems: [String] = []
        for name in types {
            guard let from = source[type: name] else { continue }
            guard let to = destination[type: name] else {
                problems.append("the destination has no type '\(name)'")
                continue
            }
            problems += flagProblems(from, to)
            for property in from.storedProperties {
                guard let target = to[property: property.name], !target.isComputed else {
                    problems.append("\(name).\(property.name) (\(property.type)): the destination has no such property")
                    continue
                }
                if target.type != property.type {
                    problems.append("\(name).\(property.name): \(property.type) in the source, \(target.type) in the destination")
                }
            }
            for property in to.storedProperties where from[property: property.name] == nil && to.requiresValue(for: property) {
                problems.append("\(name).\(property.name) (\(property.type)): required in the destination, absent in the source")
            }
        }
        return problems
    }

    private func flagProblems(_ from: ObjectSchema, _ to: ObjectSchema) -> [String] {
        var problems: [String] = []
        if from.isEmbedded != to.isEmbedded {
            problems.append("\(from.name): \(from.isEmbedded ? "embedded" : "not embedded") in the source, "
                + "\(to.isEmbedded ? "embedded" : "not embedded") in the destination")
        }
        if from.primaryKey != to.primaryKey {
            problems.append("\(from.name): primary key \(from.primaryKey ?? "none") in the source, "
                + "\(to.primaryKey ?? "none") in the destination")
        }
        return problems
    }
}

extension Schema {
    /// Checks, before a copy writes anything, that a realm of schema `destination` can hold
    /// objects of this schema's `types`: each must exist there with the same properties, types,
    /// primary key and embedding. Throws a `.transfer(.schemaMismatch)` error naming every problem.
    public func checkCopy(of types: [String], into destination: Schema) throws(KuraError) {
        try CopyCompatibility.check(self, into: destination, types: types)
    }
}
