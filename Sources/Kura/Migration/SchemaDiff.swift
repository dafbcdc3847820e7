/// Compares a realm's stored schema with the schema it is migrated to, type by type.
struct SchemaDiff {
    let old: Schema
    let new: Schema

    /// The plan of every type: the new schema's types in order, then the removed ones.
    func typePlans() throws(KuraError) -> [TypeMigration] {
        var plans: [TypeMigration] = []
        for type in new.types {
            guard let previous = old[type: type.name] else {
                plans.append(TypeMigration(name: type.name, old: nil, new: type, changes: [SchemaChange(type: type.name, .typeAdded)]))
                continue
            }
            plans.append(try plan(from: previous, to: type))
        }
        for type in old.types where new[type: type.name] == nil {
            for owner in new.types {
                for property in owner.storedProperties where property.type.objectTypeName == type.name {
                    throw KuraError.migration(
                        .linkedTypeRemoved, "\(type.name): type removed, but \(owner.name).\(property.name) still links to it")
                }
            }
            plans.append(TypeMigration(name: type.name, old: type, new: nil, changes: [SchemaChange(type: type.name, .typeRemoved)]))
        }
        return plans
    }

    private func plan(from old: ObjectSchema, to new: ObjectSchema) throws(KuraError) -> TypeMigration {
        var plan = TypeMigration(name: new.name, old: old, new: new)
        var sources: [String: String] = [:]
        for property in new.storedProperties {
            let source = try source(of: property, in: old, new, claimed: sources)
            if let source { sources[source.name] = property.name }
            plan.properties.append(propertyPlan(property, from: source, in: new))
        }
        if old.isEmbedded != new.isEmbedded {
            plan.changes.append(SchemaChange(type: new.name, new.isEmbedded ? .madeEmbedded : .madeTopLevel))
        }
        if old.isAsymmetric != new.isAsymmetric {
            plan.changes.append(SchemaChange(type: new.name, new.isAsymmetric ? .madeAsymmetric : .madeQueryable))
        }
        if let change = keyChange(old, new, plan) { plan.changes.append(change) }
        for property in new.properties {
            plan.changes += changes(of: property, old: old, new: new, plan: plan)
        }
        for property in old.properties where property.isComputed ? new[property: property.name]?.isComputed != true
            : sources[property.name] == nil
        {
            plan.changes.append(SchemaChange(
                type: new.name, property: property.name, property.isComputed ? .linkingObjectsChanged : .propertyRemoved))
        }
        return plan
    }

    /// The old property a new one takes its values from: the one of the same name, else the one it
    /// names in `renamedFrom` when the new schema has no property of that name.
    private func source(of property: Property, in old: ObjectSchema, _ new: ObjectSchema, claimed: [String: String])
        throws(KuraError) -> Property?
    {
        if let same = old[property: property.name], !same.isComputed { return same }
        guard let previous = property.renamedFrom, let renamed = old[property: previous], !renamed.isComputed else { return nil }
        let path = "\(new.name).\(property.name)"
        if new[property: previous] != nil {
            throw KuraError.migration(.invalidRename, "\(path): renamedFrom '\(previous)', but \(new.name).\(previous) is still in the schema")
        }
        if let other = claimed[previous] {
            throw KuraError.migration(.invalidRename, "\(path): renamedFrom '\(previous)', which \(new.name).\(other) takes already")
        }
        return renamed
    }

    private func propertyPlan(_ property: Property, from source: Property?, in type: ObjectSchema) -> PropertyMigration {
        let fill = Self.fill(for: property, in: type)
        guard let source else { return PropertyMigration(new: property, old: nil, copies: false, fill: fill) }
        switch Self.carry(from: source.type, to: property.type) {
        case .same, .loosened: return PropertyMigration(new: property, old: source, copies: true, fill: nil)
        case .tightened: return PropertyMigration(new: property, old: source, copies: true, fill: fill)
        case .incompatible: return PropertyMigration(new: property, old: source, copies: false, fill: fill)
        }
    }

    private func keyChange(_ old: ObjectSchema, _ new: ObjectSchema, _ plan: TypeMigration) -> SchemaChange? {
        switch (old.primaryKey, new.primaryKey) {
        case (nil, let key?):
            return SchemaChange(type: new.name, property: key, .primaryKeyAdded)
        case (let previous?, nil):
            return SchemaChange(type: new.name, property: previous, .primaryKeyRemoved)
        case (let previous?, let key?) where plan.property(key)?.old?.name != previous:
            return SchemaChange(type: new.name, property: key, .primaryKeyChanged(from: previous))
        default:
            return nil
        }
    }

    private func changes(of property: Property, old: ObjectSchema, new: ObjectSchema, plan: TypeMigration) -> [SchemaChange] {
        func change(_ kind: SchemaChange.Kind) -> SchemaChange { SchemaChange(type: new.name, property: property.name, kind) }
        if property.isComputed {
            return old[property: property.name] == property ? [] : [change(.linkingObjectsChanged)]
        }
        guard let item = plan.property(property.name) else { return [] }
        guard let source = item.old else { return [change(.propertyAdded(item.fill ?? .null))] }
        var changes: [SchemaChange] = []
        if source.name != property.name { changes.append(change(.propertyRenamed(from: source.name))) }
        switch Self.carry(from: source.type, to: property.type) {
        case .same: break
        case .loosened where !property.type.isCollection: changes.append(change(.madeOptional))
        case .tightened where item.fill != nil: changes.append(change(.madeRequired(item.fill ?? .missing)))
        default: changes.append(change(.typeChanged(from: source.type, to: property.type)))
        }
        if source.isIndexed != property.isIndexed { changes.append(change(property.isIndexed ? .indexAdded : .indexRemoved)) }
        if source.isAutoIncrement != property.isAutoIncrement {
            changes.append(change(property.isAutoIncrement ? .autoIncrementAdded : .autoIncrementRemoved))
        }
        // A property made required shows the default that fills its nulls already.
        if source.defaultValue != property.defaultValue && !(item.copies && item.fill != nil) {
            changes.append(change(.defaultChanged))
        }
        return changes
    }

    /// What existing objects get in `property` when no value is carried over to it.
    static func fill(for property: Property, in type: ObjectSchema) -> SchemaChange.Fill {
        if property.type.isCollection { return .empty }
        if property.name == type.primaryKey && property.isAutoIncrement { return .autoIncrement }
        switch property.defaultValue {
        case .value(let value)?: return value.isNull ? .null : .value(value)
        case .now?: return .now
        case .uuid?: return .uuid
        case nil: return property.type.isNullable ? .null : .missing
        }
    }

    /// How values of one type carry over to another.
    enum Carry { case same, loosened, tightened, incompatible }

    static func carry(from old: PropertyType, to new: PropertyType) -> Carry {
        if old == new { return .same }
        switch (old, new) {
        case (.list(let from), .list(let to)), (.set(let from), .set(let to)), (.map(let from), .map(let to)):
            return to == .optional(from) ? .loosened : .incompatible
        default:
            if new == .optional(old) { return .loosened }
            if old == .optional(new) { return .tightened }
            return .incompatible
        }
    }
}
