/// Facts derived once from a realm's schema: stable type ids and who links to whom.
struct SchemaCatalog: Sendable {
    /// A property elsewhere that links to a type.
    struct IncomingLink: Sendable {
        let ownerType: String
        let property: Property
    }

    /// A property that holds mixed values (and so may hold links to any type).
    struct MixedSite: Sendable {
        let ownerType: String
        let property: Property
    }

    let schema: Schema
    let typeIds: [String: Int64]
    /// What the engine's SQL can hold, which queries on this catalog keep within.
    let limits: QueryLimits
    let typeNames: [Int64: String]
    let incoming: [String: [IncomingLink]]
    let mixedSites: [MixedSite]
    private let typesByName: [String: ObjectSchema]
    /// Per type, the query reading every non-collection column of one object, and where each
    /// property's value (and a mixed property's tag, next to it) sits in the row.
    let rowQueries: [String: RowQuery]
    /// Per type, the statements that insert its objects and elements and find them by key.
    let writeStatements: [String: WriteStatements]
    /// How many write statements there are, for a transaction's array of prepared ones.
    let writeStatementCount: Int
    /// How many bulk inserts there are, for a transaction's array of row buffers.
    let bulkInsertCount: Int
    /// Every type as the writer uses it, in schema order.
    let storedTypes: [StoredType]
    private let storedTypeIndexes: [String: Int]

    /// A table and columns where mixed values (and so links to any type) are stored.
    struct MixedLinkColumns: Sendable {
        /// The type whose objects hold the values; `nil` for nested mixed containers.
        let ownerType: String?
        /// The mixed property or collection whose values these are; `nil` for nested mixed containers.
        let property: Property?
        let table: String
        let tag: String
        let value: String

        /// The condition that a value here links to an object whose type's link tag is `tag`
        /// (and whose id is `id`, when given): SQL expressions or `?`. It holds the term of the
        /// place's partial link index (`MixedTag.linkTerm`), so that SQLite searches that index.
        func linkCondition(tag linkTag: String, id: String?) -> String {
            "\(tag) = \(linkTag) AND \(MixedTag.linkTerm(tag))" + (id.map { " AND \(value) = \($0)" } ?? "")
        }
    }

    /// Every place a mixed value is stored: mixed properties, mixed collection elements, and the
    /// nested containers of `#mixed`.
    var mixedLinkColumns: [MixedLinkColumns] {
        var places = mixedSites.map { site in
            let name = site.property.name
            return site.property.type.isCollection
                ? MixedLinkColumns(
                    ownerType: site.ownerType, property: site.property, table: TableLayout.collectionTable(site.ownerType, name),
                    tag: TableLayout.tagColumn, value: TableLayout.valueColumn)
                : MixedLinkColumns(
                    ownerType: site.ownerType, property: site.property, table: TableLayout.objectTable(site.ownerType),
                    tag: TableLayout.tagColumn(name), value: TableLayout.column(name))
        }
        places.append(MixedLinkColumns(
            ownerType: nil, property: nil, table: TableLayout.mixedTable, tag: TableLayout.tagColumn, value: TableLayout.valueColumn))
        return places
    }

    struct RowQuery: Sendable {
        let sql: String
        let columns: [(property: Property, index: Int)]
    }

    init(schema: Schema, typeIds: [String: Int64], limits: QueryLimits) {
        self.schema = schema
        self.typeIds = typeIds
        self.limits = limits
        var names: [Int64: String] = [:]
        for (name, id) in typeIds { names[id] = name }
        self.typeNames = names
        var incoming: [String: [IncomingLink]] = [:]
        var mixedSites: [MixedSite] = []
        var byName: [String: ObjectSchema] = [:]
        for type in schema.types {
            byName[type.name] = type
            for property in type.storedProperties {
                if let target = property.type.objectTypeName {
                    incoming[target, default: []].append(IncomingLink(ownerType: type.name, property: property))
                }
                if property.type == .mixed || property.type.element == .mixed {
                    mixedSites.append(MixedSite(ownerType: type.name, property: property))
                }
            }
        }
        self.incoming = incoming
        self.mixedSites = mixedSites
        self.typesByName = byName
        var rowQueries: [String: RowQuery] = [:]
        for type in schema.types {
            let (columns, singles) = TableLayout.propertyColumns(of: type)
            let selected = columns.isEmpty ? "1" : columns.joined(separator: ", ")
            rowQueries[type.name] = RowQuery(
                sql: "SELECT \(selected) FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.idColumn) = ?",
                columns: singles)
        }
        self.rowQueries = rowQueries
        (writeStatements, writeStatementCount, bulkInsertCount) = WriteStatements.make(for: schema)
        // Numbered in schema order, the first type of a name only (a valid schema has no other).
        var indexes: [String: Int] = [:]
        var numbered: [(ObjectSchema, WriteStatements)] = []
        for type in schema.types where indexes[type.name] == nil {
            guard let statements = writeStatements[type.name] else { continue }
            indexes[type.name] = numbered.count
            numbered.append((type, statements))
        }
        storedTypes = numbered.enumerated().map { index, entry in
            StoredType(entry.0, index: index, statements: entry.1, typeIndexes: indexes)
        }
        storedTypeIndexes = indexes
    }

    /// Type `name` as the writer uses it, or an `unknownType` error.
    func storedType(_ name: String) throws(KuraError) -> StoredType {
        guard let index = storedTypeIndexes[name], index < storedTypes.count else {
            throw KuraError.store(.unknownType, schema.noTypeMessage(name))
        }
        return storedTypes[index]
    }

    /// The write statements of type `name`, or an `unknownType` error.
    func statements(for name: String) throws(KuraError) -> WriteStatements {
        guard let statements = writeStatements[name] else {
            throw KuraError.store(.unknownType, schema.noTypeMessage(name))
        }
        return statements
    }

    /// The schema of type `name`, or an `unknownType` error.
    func type(_ name: String) throws(KuraError) -> ObjectSchema {
        guard let type = typesByName[name] else {
            throw KuraError.store(.unknownType, schema.noTypeMessage(name))
        }
        return type
    }

    /// The property `name` of `type`, or an `unknownProperty` error.
    func property(_ name: String, of type: ObjectSchema) throws(KuraError) -> Property {
        guard let property = type[property: name] else {
            throw KuraError.store(.unknownProperty, "\(type.name) has no property '\(name)'")
        }
        return property
    }

    func typeId(_ name: String) throws(KuraError) -> Int64 {
        guard let id = typeIds[name] else { throw KuraError.store(.unknownType, schema.noTypeMessage(name)) }
        return id
    }

    func isEmbedded(_ name: String) -> Bool { typesByName[name]?.isEmbedded ?? false }
}
