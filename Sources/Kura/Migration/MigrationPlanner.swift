import Foundation
import GRDB

/// Makes a migration plan: the schema diff, the counts that describe it, and the problems the stored
/// data raises. It only reads, so a dry run can use it on a read-only connection.
struct MigrationPlanner {
    let db: Database
    let stored: Schema
    let requested: Schema
    let columns: ColumnSources

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
            let objects = try MigrationChecks.count(TableLayout.objectTable(old.name), in: db)
            facts.objectCounts[type.name] = objects
            if type.changes.contains(where: { $0.kind == .madeEmbedded }) {
                problems.append(KuraError.migration(
                    .unsupportedChange,
                    "\(type.name): made embedded: migrations do not make types embedded (export the objects and import them under the new schema)"))
            }
            for property in type.properties {
                if let problem = try check(property, of: type, objects: objects, facts: &facts) { problems.append(problem) }
            }
            if let key = type.keyToCheck, let (sql, arguments) = try columns.expression(key, keyBase: 0) {
                do {
                    try MigrationChecks.requireUnique(
                        sql, arguments: arguments, of: TableLayout.objectTable(old.name), keyType: key.new.type,
                        path: "\(type.name).\(key.new.name)", in: db)
                } catch let error as KuraError where error.code.domain == .migration {
                    problems.append(error)
                }
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
            let held = try storedValues(of: old, in: type.name)
            facts.affected[path] = held
            if held > 0 {
                return KuraError.migration(.typeChanged, "\(change): \(Counted(held, "object")) \(held == 1 ? "holds" : "hold") values that only a Swift migration block can convert")
            }
            (lacking, holders) = (objects, "the \(Counted(objects, "existing object"))")
        case (let old?, true):
            guard property.fill != nil else { return nil }
            let nulls = try MigrationChecks.count(
                TableLayout.objectTable(type.name), where: "\(TableLayout.column(old.name)) IS NULL", in: db)
            facts.affected[path] = nulls
            (lacking, holders) = (nulls, "the \(Counted(nulls, "object")) holding null")
        case (nil, _):
            (lacking, holders) = (objects, "the \(Counted(objects, "existing object"))")
        }
        guard lacking > 0, property.fill == .missing else { return nil }
        return KuraError.migration(.missingValues, "\(change): needs a default for \(holders)")
    }

    /// How many objects hold a value (non-null, or a collection element) in an old property.
    private func storedValues(of property: Property, in type: String) throws -> Int {
        if property.type.isCollection {
            return try MigrationChecks.count(TableLayout.collectionTable(type, property.name), in: db)
        }
        return try MigrationChecks.count(
            TableLayout.objectTable(type), where: "\(TableLayout.column(property.name)) IS NOT NULL", in: db)
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
