/// How one stored property of the new schema gets its values in a migration.
package struct PropertyMigration {
    /// The property in the new schema.
    package let new: Property
    /// The old property whose values it takes: the one of the same name, or the one it is
    /// `renamedFrom`; `nil` for an added property.
    package let old: Property?
    /// Whether the old values are carried over (same type, or one differing only in being optional).
    package let copies: Bool
    /// What objects get where nothing is carried over: for every object when nothing is copied, for
    /// the stored nulls of a property made required; `nil` when the copied values stand as they are.
    package let fill: SchemaChange.Fill?

    package init(new: Property, old: Property?, copies: Bool, fill: SchemaChange.Fill?) {
        self.new = new
        self.old = old
        self.copies = copies
        self.fill = fill
    }

    /// Whether the values are copied as they are into a property of the same name.
    package var isUnchangedColumn: Bool { copies && fill == nil && old?.name == new.name }
}
