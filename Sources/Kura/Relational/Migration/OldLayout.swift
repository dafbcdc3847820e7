/// Where the old schema's objects are during a migration: tables that are replaced or removed are set
/// aside under other names until the migration ends; the others keep their names.
struct OldLayout: Sendable {
    /// The tables set aside (unquoted names), in the order of their names, each with the name it
    /// takes meanwhile.
    let setAside: [(name: String, aside: String)]
    private let asideNames: [String: String]

    /// The tables the migration planned by `plans` replaces or removes, as the engine's `layout`
    /// tells; `naming` gives the name a table takes aside, from its name and its place among them.
    init(_ plans: [TypeMigration], layout: some MigrationTableLayout, naming: (_ name: String, _ number: Int) -> String) {
        var names: Set<String> = []
        for plan in plans {
            guard let old = plan.old else { continue }
            if plan.new == nil || plan.rebuildsObjectTable(in: layout) { names.insert(old.name) }
            let collections = plan.new == nil ? old.storedProperties.filter(\.type.isCollection) : plan.replacedCollections(in: layout)
            for property in collections { names.insert("\(old.name).\(property.name)") }
        }
        setAside = names.sorted().enumerated().map { number, name in (name, naming(name, number + 1)) }
        asideNames = Dictionary(uniqueKeysWithValues: setAside.map { ($0.name, $0.aside) })
    }

    /// The quoted name of the table holding the old objects of `type`.
    func objectTable(_ type: String) -> String { table(type) }

    /// The quoted name of the table holding the old elements of `type`'s collection `property`.
    func collectionTable(_ type: String, _ property: String) -> String { table("\(type).\(property)") }

    private func table(_ name: String) -> String {
        TableLayout.quote(asideNames[name] ?? name)
    }
}
