/// Where the old schema's objects are during a migration: tables that are replaced or removed are set
/// aside under `#old` names until the migration ends; the others keep their names.
struct OldLayout: Sendable {
    static let suffix = "#old"
    /// Names (unquoted) of the tables set aside.
    let setAside: Set<String>

    /// The tables the migration planned by `plans` replaces or removes.
    init(_ plans: [TypeMigration]) {
        var names: Set<String> = []
        for plan in plans {
            guard let old = plan.old else { continue }
            if plan.new == nil || plan.rebuildsObjectTable { names.insert(old.name) }
            let collections = plan.new == nil ? old.storedProperties.filter(\.type.isCollection) : plan.replacedCollections
            for property in collections { names.insert("\(old.name).\(property.name)") }
        }
        setAside = names
    }

    func objectTable(_ type: String) -> String { table(type) }

    func collectionTable(_ type: String, _ property: String) -> String { table("\(type).\(property)") }

    private func table(_ name: String) -> String {
        TableLayout.quote(setAside.contains(name) ? name + Self.suffix : name)
    }
}
