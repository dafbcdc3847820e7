/// The check that a schema's tables, indexes and columns keep distinct names in PostgreSQL, which
/// cuts every name to its first 63 bytes: a type or property name fits (`Identifier.maxBytes`),
/// but the names Kura derives from two of them (`Type.property`, `property#type`, …) may not, and
/// two cut to the same bytes would be one.
enum PostgresNames {
    /// The most bytes of a name PostgreSQL keeps (its `NAMEDATALEN` less one).
    static let maxBytes = 63
    /// The most columns a PostgreSQL table holds.
    static let maxColumns = 1600

    /// Throws when two relations of the realm, or two columns of one table, would get the same
    /// name in PostgreSQL, or a type needs more columns than a table holds.
    static func check(_ schema: Schema) throws(KuraError) {
        var relations: [String: String] = [:]
        for name in ["#meta", "#types", "#mixed", "#mixed#container", "#mixed#link", "#changes", "#changed"] {
            relations[name] = name
        }
        for type in schema.types {
            try claim(type.name, in: &relations, what: "tables and indexes")
            var columns: [String: String] = ["#id": "#id"]
            for property in type.storedProperties {
                let prefix = "\(type.name).\(property.name)"
                if property.type.isCollection {
                    try claim(prefix, in: &relations, what: "tables and indexes")
                    if case .set = property.type { try claim(prefix + "#owner", in: &relations, what: "tables and indexes") }
                    if property.type.element?.objectTypeName != nil { try claim(prefix + "#value", in: &relations, what: "tables and indexes") }
                    if property.type.element == .mixed { try claim(prefix + "#link", in: &relations, what: "tables and indexes") }
                    continue
                }
                try claim(property.name, in: &columns, what: "columns of table '\(type.name)'")
                if property.type == .mixed {
                    try claim(property.name + "#type", in: &columns, what: "columns of table '\(type.name)'")
                    try claim(prefix + "#link", in: &relations, what: "tables and indexes")
                }
                if property.name == type.primaryKey || property.isIndexed || property.type.objectTypeName != nil {
                    try claim(prefix + "#index", in: &relations, what: "tables and indexes")
                }
            }
            if columns.count > maxColumns {
                throw KuraError.schema(
                    .tooManyColumns, "\(type.name) needs \(columns.count) columns, more than the \(maxColumns) a PostgreSQL table holds")
            }
        }
    }

    /// `name` as PostgreSQL keeps it: its first 63 bytes, cut before a character that would not fit whole.
    static func truncated(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard bytes.count > maxBytes else { return name }
        var end = maxBytes
        // A UTF-8 continuation byte (10xxxxxx) belongs to the character that starts before it.
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// Records `name` among `taken` (by its truncated form); throws when another name has that form.
    private static func claim(_ name: String, in taken: inout [String: String], what: String) throws(KuraError) {
        let kept = truncated(name)
        if let other = taken[kept], other != name {
            throw KuraError.schema(
                .duplicateName,
                "'\(name)' and '\(other)' would both be named '\(kept)' among the \(what) in PostgreSQL, which keeps 63 bytes of a name")
        }
        taken[kept] = name
    }
}
