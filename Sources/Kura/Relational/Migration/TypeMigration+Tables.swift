/// The statements an engine makes a type's tables with: a migration compares the old type's with
/// the new one's to tell which tables it makes anew.
protocol MigrationTableLayout {
    /// The statements creating the object table of `type` and its indexes.
    func objectTableStatements(for type: ObjectSchema) -> [String]
    /// The statements creating the table of the collection `property` of the type `typeName`.
    func collectionTableStatements(_ typeName: String, _ property: Property) -> [String]
}

/// Which of a type's tables a migration makes anew: the engine's SQL layout decides.
extension TypeMigration {
    /// Whether the object table is made anew: its columns, indexes or values change.
    func rebuildsObjectTable(in layout: some MigrationTableLayout) -> Bool {
        guard let old, let new else { return new != nil }
        if layout.objectTableStatements(for: old) != layout.objectTableStatements(for: new) { return true }
        return properties.contains { !$0.new.type.isCollection && !$0.isUnchangedColumn }
    }

    /// Whether a collection property's table stays as it is (same name, same layout, same values).
    func keepsCollectionTable(of plan: PropertyMigration, in layout: some MigrationTableLayout) -> Bool {
        guard plan.isUnchangedColumn, let old = plan.old else { return false }
        return layout.collectionTableStatements(name, old) == layout.collectionTableStatements(name, plan.new)
    }

    /// The old collection properties whose tables do not stay: removed, renamed or retyped.
    func replacedCollections(in layout: some MigrationTableLayout) -> [Property] {
        guard let old else { return [] }
        let kept = Set(properties.filter { keepsCollectionTable(of: $0, in: layout) }.compactMap { $0.old?.name })
        return old.storedProperties.filter { $0.type.isCollection && !kept.contains($0.name) }
    }
}
