/// Makes a migration plan: the schema diff, the counts that describe it, and the problems the stored
/// data raises. It only reads, so a dry run can use it on a read-only connection.
struct MigrationPlanner {
    let survey: any MigrationSurvey
    let stored: Schema
    let requested: Schema

    /// The plan and the per-type plans the executor follows; throws when the versions or schemas
    /// cannot be migrated at all.
    func plan() throws -> (plan: MigrationPlan, types: [TypeMigration]) {
        if requested.version < stored.version {
            throw KuraError.store(
                .schemaVersionTooLow, "schema version \(requested.version) is lower than the realm's version \(stored.version)")
        }
        let types = try SchemaDiff(old: stored, new: requested).typePlans()
        try requested.validate()
        var facts = MigrationPlan.Facts()
        var problems: [KuraError] = []
        let changes = types.flatMap(\.changes)
        if let first = changes.first(where: { !$0.isAdditive }), requested.version == stored.version {
            problems.append(KuraError.migration(
                .versionNotBumped, "\(first): bump schemaVersion above \(stored.version) to migrate"))
        }
        for type in types {
            guard let old = type.old, !type.changes.isEmpty else { continue }
            let objects = try survey.objectCount(of: old.name)
            facts.objectCounts[type.name] = objects
            if type.changes.contains(where: { $0.kind == .madeEmbedded }) {
                problems.append(KuraError.migration(
                    .unsupportedChange,
                    "\(type.name): made embedded: migrations do not make types embedded (export the objects and import them under the new schema)"))
            }
            for property in type.properties {
                if let problem = try check(property, of: type, objects: objects, facts: &facts) { problems.append(problem) }
            }
            if let key = type.keyToCheck, let found = try survey.duplicateKeys(key, of: old.name) {
                problems.append(MigrationChecks.duplicateKeys(found, path: "\(type.name).\(key.new.name)"))
            }
        }
        let plan = MigrationPlan(
            oldVersion: stored.version, newVersion: requested.version, changes: changes, facts: facts, problems: problems)
        return (plan, types)
    }

    /// Counts what the property's change touches, and returns the problem its data raises, if any:
    /// values of a changed type that no block converts, objects left without a required value.
    private func check(_ property: PropertyMigration, of type: TypeMigration, objects: Int, facts: inout MigrationPlan.Facts) throws
        -> KuraError?
    {
        let path = "\(type.name).\(property.new.name)"
        guard let change = type.changes.first(where: { $0.property == property.new.name && $0.kind.touchesValues }) else {
            return nil
        }
        let lacking: Int
        let holders: String
        switch (property.old, property.copies) {
        case (let old?, false):
            let held = try survey.heldValues(of: old, in: type.name)
            facts.affected[path] = held
            if held > 0 {
                return KuraError.migration(.typeChanged, "\(change): \(Counted(held, "object")) \(held == 1 ? "holds" : "hold") values that only a Swift migration block can convert")
            }
            (lacking, holders) = (objects, "the \(Counted(objects, "existing object"))")
        case (let old?, true):
            guard property.fill != nil else { return nil }
            let nulls = try survey.nulls(of: old, in: type.name)
            facts.affected[path] = nulls
            (lacking, holders) = (nulls, "the \(Counted(nulls, "object")) holding null")
        case (nil, _):
            (lacking, holders) = (objects, "the \(Counted(objects, "existing object"))")
        }
        guard lacking > 0, property.fill == .missing else { return nil }
        return KuraError.migration(.missingValues, "\(change): needs a default for \(holders)")
    }
}

extension SchemaChange.Kind {
    /// Whether the change decides the values a property holds (as opposed to its attributes).
    var touchesValues: Bool {
        switch self {
        case .propertyAdded, .typeChanged, .madeRequired: true
        default: false
        }
    }
}
