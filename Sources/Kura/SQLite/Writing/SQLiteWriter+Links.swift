import GRDB

/// The rows a deletion changes and the links a write counts or moves: to-one links, collection
/// elements and links held in mixed values, each found through its index.
extension SQLiteWriter {
    func deleteRow(of ref: ObjectRef) throws {
        try db.cachedStatement(
            sql: "DELETE FROM \(TableLayout.objectTable(ref.type)) WHERE \(TableLayout.idColumn) = ?"
        ).execute(arguments: [ref.id])
    }

    /// Clears the object's collections and nested mixed containers; returns its embedded children.
    func releaseOwned(by ref: ObjectRef, _ type: ObjectSchema) throws -> [ObjectRef] {
        var children: [ObjectRef] = []
        let reader = ObjectReader(db: try db, catalog: catalog)
        for property in type.storedProperties {
            if property.type.isCollection {
                children += try removeCollection(of: ref, property)
                continue
            }
            let embeddedTarget = property.type.objectTypeName.flatMap { catalog.isEmbedded($0) ? $0 : nil }
            guard embeddedTarget != nil || property.type == .mixed else { continue }
            let stored = try reader.storedColumn(of: ref, property)
            if let embeddedTarget, case .int64(let child) = stored.value.storage {
                children.append(ObjectRef(type: embeddedTarget, id: child))
            } else {
                try MixedContainers.deleteContainer(tag: stored.tag, value: stored.value, in: db)
            }
        }
        return children
    }

    func removeCollection(of ref: ObjectRef, _ property: Property) throws -> [ObjectRef] {
        let db = try self.db
        let table = TableLayout.collectionTable(ref.type, property.name)
        let owner = TableLayout.ownerColumn
        var children: [ObjectRef] = []
        if let target = property.type.objectTypeName, catalog.isEmbedded(target) {
            // A map of optional embedded objects may hold nulls: no child there.
            let value = TableLayout.valueColumn
            children = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT \(value) FROM \(table) WHERE \(owner) = ? AND \(value) IS NOT NULL"), arguments: [ref.id]
            ).map { ObjectRef(type: target, id: $0) }
        }
        if property.type.element == .mixed {
            let rows = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(TableLayout.tagColumn), \(TableLayout.valueColumn) FROM \(table) WHERE \(owner) = ?"),
                arguments: [ref.id])
            for row in rows { try MixedContainers.deleteContainer(tag: row[0] ?? 0, value: row[1], in: db) }
        }
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(owner) = ?").execute(arguments: [ref.id])
        return children
    }

    func unlinkIncoming(_ ref: ObjectRef) throws {
        for link in catalog.incoming[ref.type] ?? [] {
            let name = link.property.name
            switch link.property.type {
            case .list:
                try removeFromList(
                    table: TableLayout.collectionTable(link.ownerType, name), owner: TableLayout.ownerColumn,
                    match: "\(TableLayout.valueColumn) = ?", arguments: [ref.id])
            case .set, .map:
                try db.cachedStatement(
                    sql: "DELETE FROM \(TableLayout.collectionTable(link.ownerType, name)) WHERE \(TableLayout.valueColumn) = ?"
                ).execute(arguments: [ref.id])
            default:
                let column = TableLayout.column(name)
                try db.cachedStatement(
                    sql: "UPDATE \(TableLayout.objectTable(link.ownerType)) SET \(column) = NULL WHERE \(column) = ?"
                ).execute(arguments: [ref.id])
            }
        }
    }

    func unlinkMixed(tag: Int64, id: Int64?) throws {
        let arguments: StatementArguments = id.map { [tag, $0] } ?? [tag]
        for statement in id == nil ? MixedLinkStatement.all(catalog, matchingId: false) : mixedLinksByObject {
            switch statement.kind {
            case .list(let table, let owner):
                try removeFromList(table: table, owner: owner, match: statement.match, arguments: arguments)
            case .delete(let table):
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(statement.match)").execute(arguments: arguments)
            case .nullify(let table, let column, let tagColumn) where id != nil:
                // Row by row: SQLite gives an UPDATE that may touch several rows and may abort (the
                // tag column is NOT NULL) a statement journal, and releasing one truncates the
                // in-memory sub-journal by walking it from its start; under the savepoint of
                // `Realm.delete(_:where:)` that journal holds every page the delete changed so far.
                let rows = try Int64.fetchAll(
                    db.cachedStatement(sql: "SELECT \(TableLayout.idColumn) FROM \(table) WHERE \(statement.match)"), arguments: arguments)
                let nullify = try db.cachedStatement(sql: """
                    UPDATE \(table) SET \(column) = NULL, \(tagColumn) = \(MixedTag.null) WHERE \(TableLayout.idColumn) = ?
                    """)
                for row in rows { try nullify.execute(arguments: [row]) }
            case .nullify(let table, let column, let tagColumn):
                try db.cachedStatement(sql: """
                    UPDATE \(table) SET \(column) = NULL, \(tagColumn) = \(MixedTag.null) WHERE \(statement.match)
                    """).execute(arguments: arguments)
            }
        }
    }

    /// Deletes matching elements and renumbers the positions of the lists they were in, keeping them dense.
    private func removeFromList(table: String, owner: String, match: String, arguments: StatementArguments) throws {
        let db = try self.db
        let owners = try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT DISTINCT \(owner) FROM \(table) WHERE \(match)"), arguments: arguments)
        guard !owners.isEmpty else { return }
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(match)").execute(arguments: arguments)
        let position = TableLayout.positionColumn
        let positions = try db.cachedStatement(
            sql: "SELECT \(position) FROM \(table) WHERE \(owner) = ? AND \(position) IS NOT NULL ORDER BY \(position)")
        let renumber = try db.cachedStatement(sql: "UPDATE \(table) SET \(position) = ? WHERE \(owner) = ? AND \(position) = ?")
        for ownerId in owners {
            // Moving each row down to its index in order never collides: every lower slot is already settled.
            for (index, old) in try Int64.fetchAll(positions, arguments: [ownerId]).enumerated() where old != index {
                try renumber.execute(arguments: [index, ownerId, old])
            }
        }
    }

    func linkCount(to ref: ObjectRef, upTo limit: Int) throws -> Int {
        let db = try self.db
        var places = 0
        for link in catalog.incoming[ref.type] ?? [] {
            let (table, column) = link.property.type.isCollection
                ? (TableLayout.collectionTable(link.ownerType, link.property.name), TableLayout.valueColumn)
                : (TableLayout.objectTable(link.ownerType), TableLayout.column(link.property.name))
            places += try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(column) = ? LIMIT ?)"),
                arguments: [ref.id, limit]) ?? 0
            if places >= limit { return places }
        }
        let tag = MixedTag.linkBase + (try catalog.typeId(ref.type))
        for place in catalog.mixedLinkColumns {
            places += try Int.fetchOne(
                db.cachedStatement(sql: """
                    SELECT count(*) FROM (SELECT 1 FROM \(place.table)
                    WHERE \(place.tag) = ? AND \(MixedTag.linkTerm(place.tag)) AND \(place.value) = ? LIMIT ?)
                    """),
                arguments: [tag, ref.id, limit]) ?? 0
            if places >= limit { return places }
        }
        return places
    }

    func relink(from old: ObjectRef, to new: ObjectRef) throws {
        let db = try self.db
        for link in catalog.incoming[old.type] ?? [] {
            let (table, column) = link.property.type.isCollection
                ? (TableLayout.collectionTable(link.ownerType, link.property.name), TableLayout.valueColumn)
                : (TableLayout.objectTable(link.ownerType), TableLayout.column(link.property.name))
            try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE \(column) = ?", arguments: [new.id, old.id])
        }
        let tag = MixedTag.linkBase + (try catalog.typeId(old.type))
        for place in catalog.mixedLinkColumns {
            try db.execute(
                sql: "UPDATE \(place.table) SET \(place.value) = ? WHERE \(place.tag) = ? AND \(MixedTag.linkTerm(place.tag)) AND \(place.value) = ?",
                arguments: [new.id, tag, old.id])
        }
    }

    func noteModified(_ ref: ObjectRef) throws {
        try ChangeTracker.noteModified(ref.type, id: ref.id, in: db)
    }
}

/// What unlinking does at one place mixed values are stored, and the condition that finds the
/// links there: a link's tag (`?`), then its object id (`?`) when matching an id.
struct MixedLinkStatement {
    enum Kind {
        /// List elements: removed, and the lists they were in renumbered.
        case list(table: String, owner: String)
        /// Set or map elements: removed.
        case delete(table: String)
        /// A mixed property: set to null.
        case nullify(table: String, column: String, tagColumn: String)
    }

    let kind: Kind
    let table: String
    let match: String

    /// The places to unlink, each with a condition that a link index (`SchemaInstaller.linkIndexSQL`)
    /// serves, so deleting an object costs a lookup per place rather than a scan of every row there.
    static func all(_ catalog: SchemaCatalog, matchingId: Bool) -> [MixedLinkStatement] {
        catalog.mixedLinkColumns.map { place in
            let match = place.linkCondition(tag: "?", id: matchingId ? "?" : nil)
            let kind: Kind
            switch place.property?.type {
            case nil:
                kind = .list(table: place.table, owner: TableLayout.mixedContainerColumn)
            case .list?:
                kind = .list(table: place.table, owner: TableLayout.ownerColumn)
            case .set?, .map?:
                kind = .delete(table: place.table)
            default:
                kind = .nullify(table: place.table, column: place.value, tagColumn: place.tag)
            }
            return MixedLinkStatement(kind: kind, table: place.table, match: match)
        }
    }
}
