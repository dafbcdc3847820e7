/// What opening a realm needs from its storage, inside one transaction: whether a realm is there,
/// the schema it holds, installing a new one, and bringing a realm an earlier Kura made up to what
/// this one expects.
package protocol SchemaInstalling<Catalog> {
    /// The engine's compiled form of a schema, which writes and reads use.
    associatedtype Catalog

    /// A number that every change to the stored layout raises, whichever connection made it:
    /// whether a schema read before still holds.
    func layoutVersion() throws -> Int64
    /// Forgets what the connection cached about the stored layout: another process may have
    /// changed it since.
    func forgetCachedLayout()
    /// Whether the storage holds a realm.
    func isInstalled() throws -> Bool
    /// Whether the storage holds anything at all, a realm or another program's data.
    func holdsData() throws -> Bool
    /// The schema the realm holds.
    func storedSchema() throws -> Schema
    /// Installs `schema` in storage that holds nothing yet.
    func install(_ schema: Schema) throws
    /// The compiled form of `schema`, the realm's stored schema.
    func catalog(for schema: Schema) throws -> Catalog
    /// Whether a realm with `schema` lacks indexes this version of Kura adds to the realms it
    /// makes (those that serve deletes), so that a writable open should add them.
    func lacksIndexes(for schema: Schema) throws -> Bool
    /// Adds the indexes `lacksIndexes` found missing.
    func addIndexes(for schema: Schema) throws
    /// Whether the realm has its change log (a realm made before change tracking has none).
    func hasChangeLog() throws -> Bool
    /// Adds the change log to a realm without one.
    func installChangeLog() throws
    /// Records in the change log that the schema changed, so that readers read everything again.
    func recordSchemaChange() throws
}
