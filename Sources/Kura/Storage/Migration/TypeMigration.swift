/// What a migration does to one object type: the type's changes and where each property's values come from.
package struct TypeMigration {
    package let name: String
    /// The type in the stored schema; `nil` for an added type.
    package let old: ObjectSchema?
    /// The type in the new schema; `nil` for a removed type.
    package let new: ObjectSchema?
    /// The new type's stored properties, in order.
    package var properties: [PropertyMigration] = []
    package var changes: [SchemaChange] = []

    package init(name: String, old: ObjectSchema?, new: ObjectSchema?, changes: [SchemaChange] = []) {
        self.name = name
        self.old = old
        self.new = new
        self.changes = changes
    }

    /// The plan of the new property `name`.
    package func property(_ name: String) -> PropertyMigration? { properties.first { $0.new.name == name } }

    /// The new primary key's plan when its values must be checked for duplicates: it is a new key whose
    /// values come from stored data or a fixed default rather than a generator.
    package var keyToCheck: PropertyMigration? {
        guard old != nil, let key = new?.primaryKey, let plan = property(key) else { return nil }
        let wasKey = plan.old.map { $0.name == old?.primaryKey } ?? false
        if wasKey && plan.fill == nil { return nil }
        if !plan.copies && (plan.fill == .uuid || plan.fill == .autoIncrement) { return nil }
        return plan
    }
}
