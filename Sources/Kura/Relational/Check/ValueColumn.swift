/// One column of a realm that holds values of one property type: a property's column in its type's
/// table, the value column of a collection property's table, or the nested mixed containers of
/// `#mixed`. The checks query every such column the same way and name rows in findings through it.
struct ValueColumn {
    /// How findings name the column: `Dog.favoriteToy`, `Person.dogs` or `#mixed`.
    let label: String
    /// The column's type, property and unquoted table.
    let place: CheckFinding.Place
    /// The quoted table.
    let table: String
    /// The column naming the row's owner: `#id`, `#owner` or `#container`.
    let owner: String
    /// The type whose objects own the rows; `nil` for `#mixed`, whose rows belong to containers.
    let ownerType: String?
    /// A list's position column, if the rows have one.
    let position: String?
    /// A map's key column, if the rows have one.
    let key: String?
    /// The value column.
    let value: String
    /// The tag column beside mixed values.
    let tag: String?
    /// The type of the values (a collection's element type).
    let type: PropertyType
    /// The property, for collection and property columns.
    let property: Property?

    /// The column of a non-collection property in its type's table.
    static func column(_ property: Property, of type: String) -> ValueColumn {
        ValueColumn(
            label: "\(type).\(property.name)", place: .init(type: type, property: property.name, table: type),
            table: TableLayout.objectTable(type), owner: TableLayout.idColumn, ownerType: type, position: nil, key: nil,
            value: TableLayout.column(property.name), tag: property.type == .mixed ? TableLayout.tagColumn(property.name) : nil,
            type: property.type, property: property)
    }

    /// The value column of a collection property's own table.
    static func elements(_ property: Property, of type: String) -> ValueColumn? {
        guard let element = property.type.element else { return nil }
        let table = "\(type).\(property.name)"
        var position: String?
        var key: String?
        if case .list = property.type { position = TableLayout.positionColumn }
        if case .map = property.type { key = TableLayout.keyColumn }
        return ValueColumn(
            label: table, place: .init(type: type, property: property.name, table: table),
            table: TableLayout.quote(table), owner: TableLayout.ownerColumn, ownerType: type, position: position, key: key,
            value: TableLayout.valueColumn, tag: element == .mixed ? TableLayout.tagColumn : nil, type: element,
            property: property)
    }

    /// The entries of nested mixed lists (with positions) and maps (with keys).
    static let mixedContainers = ValueColumn(
        label: "#mixed", place: .init(table: "#mixed"), table: TableLayout.mixedTable, owner: TableLayout.mixedContainerColumn,
        ownerType: nil, position: TableLayout.positionColumn, key: TableLayout.keyColumn, value: TableLayout.valueColumn,
        tag: TableLayout.tagColumn, type: .mixed, property: nil)

    /// The column's table as `"s"`, for a query that reads it row by row.
    var source: String { "\(table) AS \"s\"" }

    /// The columns that say where a row is: its owner, its position and its key (`NULL` where the
    /// value column has none), as `"s"`-qualified SQL for a query reading `source`.
    var whereColumns: String {
        [owner, position ?? "NULL", key ?? "NULL"].map { $0 == "NULL" ? $0 : "\"s\".\($0)" }.joined(separator: ", ")
    }

    /// `label: object 3` with ` at [2]` or ` at key "k"`, for a row's owner, position and key.
    func subject(owner: StoredCell, position: StoredCell, key: String?) -> (place: CheckFinding.Place, text: String) {
        var (place, text) = owned(by: owner)
        if case .integer(let position) = position {
            text += " at [\(position)]"
        } else if let key {
            text += " at key \"\(key)\""
        }
        return (place, text)
    }

    /// `object 3` (with the object's id in the place) or, for `#mixed`, `container 3`.
    func owned(by owner: StoredCell) -> (place: CheckFinding.Place, text: String) {
        var place = self.place
        guard ownerType != nil else { return (place, "container \(owner.sqlDescription)") }
        if case .integer(let id) = owner { place.objectId = id }
        return (place, "object \(owner.sqlDescription)")
    }

    /// A value as findings show it: `text "abc"`, `integer 7`, `a blob of 3 bytes`, `null`.
    static func describe(_ value: StoredCell) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): "integer \(number)"
        case .real(let number): "real \(number)"
        case .text(let text): "text \"\(text.count > 40 ? text.prefix(40) + "…" : text)\""
        case .blob(let bytes): "a blob of \(Counted(bytes.count, "byte"))"
        }
    }
}
