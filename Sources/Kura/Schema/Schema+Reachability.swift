extension Schema {
    /// The types whose objects an object of `type` can reach: those it links to, transitively;
    /// every type when a mixed property is among them, since a mixed value may link to any type.
    func typesReachable(from type: String) -> [String] {
        var reached: [String] = [type]
        var pending = [type]
        while let name = pending.popLast() {
            for property in self[type: name]?.storedProperties ?? [] {
                if property.type == .mixed || property.type.element == .mixed { return types.map(\.name) }
                if let target = property.type.objectTypeName, !reached.contains(target) {
                    reached.append(target)
                    pending.append(target)
                }
            }
        }
        return reached
    }
}
