/// The rows a deletion changes and the links a write counts or moves: to-one links, collection
/// elements and links held in mixed values (whose ids are stored as their decimal text,
/// `PostgresLayout.storedMixed`), each found through its index.
extension PostgresWriter {
    func deleteRow(of ref: ObjectRef) throws {
        try session.execute("DELETE FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = $1", [.integer(ref.id)])
    }

    /// Clears the object's collections and nested mixed containers; returns its embedded children.
    func releaseOwned(by ref: ObjectRef, _ type: ObjectSchema) throws -> [ObjectRef] {
        var children: [ObjectRef] = []
        for property in type.storedProperties {
            if property.type.isCollection {
                children += try removeCollection(of: ref, property)
                continue
            }
            let embeddedTarget = property.type.objectTypeName.flatMap { catalog.isEmbedded($0) ? $0 : nil }
            guard embeddedTarget != nil || property.type == .mixed else { continue }
            let stored = try storedColumn(of: ref, property)
            if let embeddedTarget, case .integer(let child) = stored.value {
                children.append(ObjectRef(type: embeddedTarget, id: child))
            } else {
                try PostgresMixedContainers.deleteContainer(tag: stored.tag, value: stored.value, in: session)
            }
        }
        return children
    }

    func removeCollection(of ref: ObjectRef, _ property: Property) throws -> [ObjectRef] {
        let session = try self.session
        let table = TableLayout.collectionTable(ref.type, property.name)
        let owner = TableLayout.ownerColumn
        let value = TableLayout.valueColumn
        var children: [ObjectRef] = []
        if let target = property.type.objectTypeName, catalog.isEmbedded(target) {
            // A map of optional embedded objects may hold nulls: no child there.
            for row in try session.rows("SELECT \(value) FROM \(table) WHERE \(owner) = $1 AND \(value) IS NOT NULL", [.integer(ref.id)]) {
                if case .integer(let id)? = row.first { children.append(ObjectRef(type: target, id: id)) }
            }
        }
        if property.type.element == .mixed {
            let rows = try session.rows("""
                SELECT \(TableLayout.tagColumn), \(value) FROM \(table)
                WHERE \(owner) = $1 AND \(TableLayout.tagColumn) IN (\(MixedTag.list), \(MixedTag.map))
                """, [.integer(ref.id)])
            for row in rows {
                guard row.count == 2, case .integer(let tag) = row[0] else { continue }
                try PostgresMixedContainers.deleteContainer(tag: tag, value: try PostgresLayout.readMixed(row[1], tag: tag), in: session)
            }
        }
        try session.execute("DELETE FROM \(table) WHERE \(owner) = $1", [.integer(ref.id)])
        return children
    }

    func unlinkIncoming(_ ref: ObjectRef) throws {
        let id: [StoredCell] = [.integer(ref.id)]
        for link in catalog.incoming[ref.type] ?? [] {
            let name = link.property.name
            let collection = TableLayout.collectionTable(link.ownerType, name)
            switch link.property.type {
            case .list:
                try removeFromList(table: collection, owner: TableLayout.ownerColumn, match: "\(TableLayout.valueColumn) = $1", id)
            case .set, .map:
                try session.execute("DELETE FROM \(collection) WHERE \(TableLayout.valueColumn) = $1", id)
            default:
                let column = TableLayout.column(name)
                try session.execute("UPDATE \(TableLayout.objectTable(link.ownerType)) SET \(column) = NULL WHERE \(column) = $1", id)
            }
        }
    }

    func unlinkMixed(tag: Int64, id: Int64?) throws {
        let arguments: [StoredCell] = [.integer(tag)] + (id.map { [PostgresLayout.storedMixed(.integer($0))] } ?? [])
        for place in catalog.mixedLinkColumns {
            let match = place.linkCondition(tag: "$1", id: id == nil ? nil : "$2")
            switch place.property?.type {
            case nil:
                try removeFromList(table: place.table, owner: TableLayout.mixedContainerColumn, match: match, arguments)
            case .list?:
                try removeFromList(table: place.table, owner: TableLayout.ownerColumn, match: match, arguments)
            case .set?, .map?:
                try session.execute("DELETE FROM \(place.table) WHERE \(match)", arguments)
            default:
                try session.execute(
                    "UPDATE \(place.table) SET \(place.value) = NULL, \(place.tag) = \(MixedTag.null) WHERE \(match)", arguments)
            }
        }
    }

    /// Deletes matching elements and renumbers the positions of the lists they were in, keeping them dense.
    private func removeFromList(table: String, owner: String, match: String, _ arguments: [StoredCell]) throws {
        let session = try self.session
        let owners = try session.rows("SELECT DISTINCT \(owner) FROM \(table) WHERE \(match)", arguments).compactMap(\.first)
        guard !owners.isEmpty else { return }
        try session.execute("DELETE FROM \(table) WHERE \(match)", arguments)
        let position = TableLayout.positionColumn
        for ownerId in owners {
            let positions = try session.rows(
                "SELECT \(position) FROM \(table) WHERE \(owner) = $1 AND \(position) IS NOT NULL ORDER BY \(position)", [ownerId])
            // Moving each row down to its index in order never collides: every lower slot is already settled.
            for (index, row) in positions.enumerated() {
                guard case .integer(let old)? = row.first, old != Int64(index) else { continue }
                try session.execute(
                    "UPDATE \(table) SET \(position) = $1 WHERE \(owner) = $2 AND \(position) = $3",
                    [.integer(Int64(index)), ownerId, .integer(old)])
            }
        }
    }

    func linkCount(to ref: ObjectRef, upTo limit: Int) throws -> Int {
        let session = try self.session
        var places = 0
        for link in catalog.incoming[ref.type] ?? [] {
            let (table, column) = link.property.type.isCollection
                ? (TableLayout.collectionTable(link.ownerType, link.property.name), TableLayout.valueColumn)
                : (TableLayout.objectTable(link.ownerType), TableLayout.column(link.property.name))
            places += try count(
                "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(column) = $1 LIMIT $2) AS found",
                [.integer(ref.id), .integer(Int64(limit))], in: session)
            if places >= limit { return places }
        }
        let tag = MixedTag.linkBase + (try catalog.typeId(ref.type))
        for place in catalog.mixedLinkColumns {
            places += try count(
                "SELECT count(*) FROM (SELECT 1 FROM \(place.table) WHERE \(place.linkCondition(tag: "$1", id: "$2")) LIMIT $3) AS found",
                [.integer(tag), PostgresLayout.storedMixed(.integer(ref.id)), .integer(Int64(limit))], in: session)
            if places >= limit { return places }
        }
        return places
    }

    /// The count `sql` selects.
    private func count(_ sql: String, _ arguments: [StoredCell], in session: PostgresSession) throws(KuraError) -> Int {
        guard case .integer(let count)? = try session.value(sql, arguments) else { return 0 }
        return Int(count)
    }

    func relink(from old: ObjectRef, to new: ObjectRef) throws {
        let session = try self.session
        for link in catalog.incoming[old.type] ?? [] {
            let (table, column) = link.property.type.isCollection
                ? (TableLayout.collectionTable(link.ownerType, link.property.name), TableLayout.valueColumn)
                : (TableLayout.objectTable(link.ownerType), TableLayout.column(link.property.name))
            try session.execute("UPDATE \(table) SET \(column) = $1 WHERE \(column) = $2", [.integer(new.id), .integer(old.id)])
        }
        let tag = MixedTag.linkBase + (try catalog.typeId(old.type))
        for place in catalog.mixedLinkColumns {
            try session.execute(
                "UPDATE \(place.table) SET \(place.value) = $1 WHERE \(place.linkCondition(tag: "$2", id: "$3"))",
                [PostgresLayout.storedMixed(.integer(new.id)), .integer(tag), PostgresLayout.storedMixed(.integer(old.id))])
        }
    }
}
