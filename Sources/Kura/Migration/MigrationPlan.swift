/// What migrating a realm to a new schema does, type by type, and what in its data stops it.
///
/// `Realm.migrationPlan(for:)` makes one without writing; `description` is the plan `kura migrate`
/// prints: each changed type with its object count, then one line per change.
public struct MigrationPlan: Sendable, CustomStringConvertible {
    /// Counts read from the old data that the plan's lines report.
    struct Facts: Sendable {
        /// Objects per type of the stored schema that changes.
        var objectCounts: [String: Int] = [:]
        /// By `Type.property`: nulls a property made required fills, or values a type change drops.
        var affected: [String: Int] = [:]
    }

    /// The schema version the realm stores.
    public let oldVersion: Int64
    /// The version of the schema it is migrated to.
    public let newVersion: Int64
    /// Every change: the new schema's types in order (type, primary key, then property changes),
    /// then the removed types.
    public let changes: [SchemaChange]
    /// What stops the migration: duplicate keys, values missing for required properties, types that
    /// need converting, a version that was not raised. Empty when it can run.
    public let problems: [KuraError]
    let facts: Facts

    init(oldVersion: Int64, newVersion: Int64, changes: [SchemaChange], facts: Facts, problems: [KuraError]) {
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.changes = changes
        self.facts = facts
        self.problems = problems
    }

    /// Whether there is nothing to do: the same schema at the same version.
    public var isEmpty: Bool { changes.isEmpty && oldVersion == newVersion }

    /// Whether some change is not additive, so that only a migration (not opening) applies it.
    public var needsMigration: Bool { changes.contains { !$0.isAdditive } }

    /// The number of objects of `type` in the realm before the migration (types that change only).
    public func objectCount(of type: String) -> Int? { facts.objectCounts[type] }

    /// Throws the first problem, if there is one.
    public func check() throws(KuraError) {
        if let first = problems.first { throw first }
    }

    /// The plan, one line per change under a line per type.
    public var description: String {
        var lines = ["schema version \(oldVersion) -> \(newVersion)"]
        var current: String?
        for change in changes {
            switch change.kind {
            case .typeAdded:
                lines.append("\(change.type): type added")
            case .typeRemoved:
                lines.append("\(change.type): type removed, its \(Counted(facts.objectCounts[change.type] ?? 0, "object")) deleted")
            default:
                if current != change.type {
                    lines.append("\(change.type) (\(Counted(facts.objectCounts[change.type] ?? 0, "object")))")
                }
                lines.append("  " + line(for: change))
            }
            current = change.type
        }
        return lines.joined(separator: "\n")
    }

    private func line(for change: SchemaChange) -> String {
        let name = change.property ?? ""
        let affected = facts.affected[change.path] ?? 0
        switch change.kind {
        case .primaryKeyAdded: return "primary key added: \(name)"
        case .primaryKeyChanged(let from): return "primary key changed: \(from) -> \(name)"
        case .primaryKeyRemoved: return "primary key removed: \(name)"
        case .propertyAdded(let fill): return "+ \(name): added, \(describe(fill, objects: facts.objectCounts[change.type] ?? 0))"
        case .propertyRemoved: return "- \(name): removed, its values are dropped"
        case .propertyRenamed(let from): return "~ \(name): renamed from \(from), values kept"
        case .typeChanged(let from, let to):
            if SchemaDiff.carry(from: from, to: to) == .loosened { return "~ \(name): \(from) -> \(to), values kept" }
            return "~ \(name): \(from) -> \(to), \(Counted(affected, "stored value")) not converted (a Swift migration block converts them)"
        case .madeRequired(let fill):
            return "~ \(name): optional -> required, " + (affected == 0 ? "no nulls" : "\(Counted(affected, "null")): \(describe(fill, objects: affected))")
        case .madeOptional: return "~ \(name): required -> optional, values kept"
        case .linkingObjectsChanged: return "~ \(name): linkingObjects changed (computed, no stored data changes)"
        default: return (name.isEmpty ? "" : "~ \(name): ") + change.summary
        }
    }

    private func describe(_ fill: SchemaChange.Fill, objects: Int) -> String {
        switch fill {
        case .null: "null in existing objects"
        case .empty: "empty in existing objects"
        case .value(let value): "existing objects get \(value)"
        case .now: "existing objects get the time of the migration"
        case .uuid: "each existing object gets a fresh uuid"
        case .autoIncrement: "existing objects are numbered in creation order"
        case .missing: objects == 0 ? "no existing objects" : "no default for \(Counted(objects, "existing object")): needs one"
        }
    }
}
