/// Compares the schema a realm stores with the one it is opened with.
struct SchemaComparison {
    let stored: Schema
    let requested: Schema

    /// Throws unless the two schemas describe the same types.
    func check() throws(StoreError) {
        if requested.version < stored.version {
            throw StoreError(
                .schemaVersionTooLow,
                "schema version \(requested.version) is lower than the realm's version \(stored.version)")
        }
        for type in requested.types {
            guard let old = stored[type: type.name] else {
                throw StoreError(.schemaMismatch, "\(type.name): type added: needs a migration")
            }
            if old.primaryKey != type.primaryKey {
                throw StoreError(.schemaMismatch, "\(type.name).\(type.primaryKey ?? old.primaryKey ?? ""): primary key changed: needs a migration")
            }
            for property in type.properties where old[property: property.name] != property {
                throw StoreError(.schemaMismatch, "\(type.name).\(property.name): property added or changed: needs a migration")
            }
            for property in old.properties where type[property: property.name] == nil {
                throw StoreError(.schemaMismatch, "\(type.name).\(property.name): property removed: needs a migration")
            }
        }
        for type in stored.types where requested[type: type.name] == nil {
            throw StoreError(.schemaMismatch, "\(type.name): type removed: needs a migration")
        }
        if requested != stored {
            throw StoreError(.schemaMismatch, "the schema differs from the realm's: needs a migration")
        }
    }
}
