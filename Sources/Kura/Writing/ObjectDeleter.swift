import GRDB

/// Deletes objects as Realm does: links to them become null, they leave every list,
/// set and map, and their embedded objects and nested mixed containers go with them.
struct ObjectDeleter {
    let transaction: WriteTransaction
    /// The statements that unlink one object from mixed values, made once per deleter.
    private let mixedLinks: [MixedLinkStatement]

    init(transaction: WriteTransaction) {
        self.transaction = transaction
        mixedLinks = Self.mixedLinkStatements(transaction.catalog, matchingId: true)
    }

    private var db: Database { get throws { try transaction.db } }
    private var catalog: SchemaCatalog { transaction.catalog }

    /// Deletes `ref` and everything it owns; throws `objectDeleted` if it is not stored.
    func delete(_ ref: ObjectRef) throws {
        try ObjectReader(db: db, catalog: catalog).requireExists(ref)
        var pending = [ref]
        while let current = pending.popLast() {
            let stored = try catalog.storedType(current.type)
            let type = stored.schema
            pending.append(contentsOf: try releaseOwned(current, type))
            try unlinkIncoming(current)
            try unlinkMixed(current)
            try db.cachedStatement(
                sql: "DELETE FROM \(TableLayout.objectTable(type.name)) WHERE \(TableLayout.idColumn) = ?"
            ).execute(arguments: [current.id])
            transaction.count(stored, .deleted)
        }
    }

    /// Clears the object's collections and mixed containers; returns its embedded children.
    private func releaseOwned(_ ref: ObjectRef, _ type: ObjectSchema) throws -> [ObjectRef] {
        var children: [ObjectRef] = []
        let reader = ObjectReader(db: try db, catalog: catalog)
        for property in type.storedProperties {
            if property.type.isCollection {
                children += try Self.removeCollectionRows(of: ref, property, catalog: catalog, in: db)
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

    /// Deletes every row of one collection property of `ref`, with the nested mixed containers its
    /// elements hold; returns the embedded objects the rows owned, for the caller to delete.
    static func removeCollectionRows(of ref: ObjectRef, _ property: Property, catalog: SchemaCatalog, in db: Database) throws
        -> [ObjectRef]
    {
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

    /// Nullifies to-one links to `ref` and removes it from lists, sets and maps.
    private func unlinkIncoming(_ ref: ObjectRef) throws {
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

    /// Removes links to `ref` held in mixed values: properties, collection elements and nested containers.
    private func unlinkMixed(_ ref: ObjectRef) throws {
        // A mixed value never links an embedded object, so deleting one has nothing to look for.
        guard !catalog.isEmbedded(ref.type), let typeId = catalog.typeIds[ref.type] else { return }
        try unlinkMixed(tag: MixedTag.linkBase + typeId, id: ref.id)
    }

    /// Removes the mixed values tagged `tag` (links to one type), only those holding `id` when given:
    /// properties become null, collection elements and nested container entries are removed.
    func unlinkMixed(tag: Int64, id: Int64?) throws {
        let arguments: StatementArguments = id.map { [tag, $0] } ?? [tag]
        for statement in id == nil ? Self.mixedLinkStatements(catalog, matchingId: false) : mixedLinks {
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

    /// What unlinking does at one place mixed values are stored, and the condition that finds the
    /// links there: a link's tag (`?`), then its object id (`?`) when `matchingId`.
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
    }

    /// The places to unlink, each with a condition that a link index (`SchemaInstaller.linkIndexSQL`)
    /// serves, so deleting an object costs a lookup per place rather than a scan of every row there.
    static func mixedLinkStatements(_ catalog: SchemaCatalog, matchingId: Bool) -> [MixedLinkStatement] {
        catalog.mixedLinkColumns.map { place in
            let match = "\(place.tag) = ? AND \(MixedTag.linkTerm(place.tag))" + (matchingId ? " AND \(place.value) = ?" : "")
            let kind: MixedLinkStatement.Kind
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

    /// Deletes matching elements and renumbers the positions of the lists they were in, keeping them dense.
    private func removeFromList(table: String, owner: String, match: String, arguments: StatementArguments) throws {
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
}
