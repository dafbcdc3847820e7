extension Schema {
    /// The types whose objects `type`'s objects can reach through links, `type` first.
    ///
    /// A mixed value may link to any type, so a mixed property reaches every type (in schema order)
    /// unless `mixedTargets` names the types that the stored mixed values link to.
    public func typesReachable(from type: String, mixedTargets: Set<String>? = nil) -> [String] {
        let targetsOfMixed = mixedTargets?.sorted()
        var reached: [String] = [type]
        var pending = [type]
        while let name = pending.popLast() {
            for property in self[type: name]?.storedProperties ?? [] {
                let targets: [String]
                if property.type == .mixed || property.type.element == .mixed {
                    guard let targetsOfMixed else { return types.map(\.name) }
                    targets = targetsOfMixed
                } else {
                    targets = property.type.objectTypeName.map { [$0] } ?? []
                }
                for target in targets where !reached.contains(target) {
                    reached.append(target)
                    pending.append(target)
                }
            }
        }
        return reached
    }
}
