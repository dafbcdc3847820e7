/// Which of a type's tables a migration makes anew: the SQL layout decides, so the engine does.
extension TypeMigration {
    /// Whether the object table is made anew: its columns, indexes or values change.
    var rebuildsObjectTable: Bool {
        guard let old, let new else { return new != nil }
        if SchemaInstaller.objectTableSQL(for: old) != SchemaInstaller.objectTableSQL(for: new) { return true }
        return properties.contains { !$0.new.type.isCollection && !$0.isUnchangedColumn }
    }

    /// Whether a collection property's table stays as it is (same name, same layout, same values).
    func keepsCollectionTable(of plan: PropertyMigration) -> Bool {
        guard plan.isUnchangedColumn, let old = plan.old else { return false }
        return SchemaInstaller.collectionTableSQL(name, old) == SchemaInstaller.collectionTableSQL(name, plan.new)
    }

    /// The old collection properties whose tables do not stay: removed, renamed or retyped.
    var replacedCollections: [Property] {
        guard let old else { return [] }
        let kept = Set(properties.filter { keepsCollectionTable(of: $0) }.compactMap { $0.old?.name })
        return old.storedProperties.filter { $0.type.isCollection && !kept.contains($0.name) }
    }
}
