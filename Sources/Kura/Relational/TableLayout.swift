/// The SQL names and column types Kura uses for a schema.
///
/// User names are always quoted; internal names contain `#`, which the name rules
/// forbid in type and property names, so the two can never collide.
enum TableLayout {
    static let idColumn = quote("#id")
    static let ownerColumn = quote("#owner")
    static let positionColumn = quote("#pos")
    static let keyColumn = quote("#key")
    static let valueColumn = quote("#value")
    static let tagColumn = quote("#type")
    static let metaTable = quote("#meta")
    static let typesTable = quote("#types")
    static let mixedTable = quote("#mixed")
    static let mixedContainerColumn = quote("#container")

    /// Quotes an SQL identifier, doubling any `"` inside it.
    static func quote(_ name: String) -> String {
        // Most names hold no quote; skipping Foundation's search for one matters on hot paths.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func objectTable(_ type: String) -> String { quote(type) }

    static func collectionTable(_ type: String, _ property: String) -> String { quote("\(type).\(property)") }

    static func column(_ property: String) -> String { quote(property) }

    /// The tag column beside a mixed property's value column.
    static func tagColumn(_ property: String) -> String { quote("\(property)#type") }

    /// The columns of a type's object table after `#id`, in order: one per non-collection stored
    /// property, a mixed property's tag right after its value; and where each property's value sits.
    static func propertyColumns(of type: ObjectSchema) -> (names: [String], positions: [(property: Property, index: Int)]) {
        var names: [String] = []
        var positions: [(property: Property, index: Int)] = []
        for property in type.storedProperties where !property.type.isCollection {
            positions.append((property, names.count))
            names.append(column(property.name))
            if property.type == .mixed { names.append(tagColumn(property.name)) }
        }
        return (names, positions)
    }

    /// The columns of a collection property's table, in order: owner, then position (lists) or key
    /// (maps), then value, then the tag of mixed elements.
    static func collectionColumns(of type: PropertyType) -> [String] {
        var columns = [ownerColumn]
        switch type {
        case .list: columns.append(positionColumn)
        case .map: columns.append(keyColumn)
        default: break
        }
        columns.append(valueColumn)
        if type.element == .mixed { columns.append(tagColumn) }
        return columns
    }

    /// The column that orders a collection's rows: list position, map key, or insertion order for sets.
    static func orderColumn(for type: PropertyType) -> String {
        switch type {
        case .list: positionColumn
        case .map: keyColumn
        default: "rowid"
        }
    }

    /// The STRICT-table column type that holds values of `type` (a non-collection type).
    ///
    /// Floats and doubles are `ANY` columns holding REAL values: a REAL column writes a whole
    /// number as an integer and reads it back as a double, which turns -0.0 into 0.0.
    static func sqlType(_ type: PropertyType) -> String {
        switch type.nonOptional {
        case .bool, .int, .date, .object: "INTEGER"
        case .string, .decimal: "TEXT"
        case .data, .objectId, .uuid: "BLOB"
        default: "ANY"
        }
    }

    /// The column types a realm may hold values of `type` in: `sqlType`, and `REAL` for floats and
    /// doubles of realms made before those columns became `ANY`.
    static func acceptedSQLTypes(_ type: PropertyType) -> [String] {
        switch type.nonOptional {
        case .float, .double: ["ANY", "REAL"]
        default: [sqlType(type)]
        }
    }
}
