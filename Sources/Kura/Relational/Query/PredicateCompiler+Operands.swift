/// One side of a comparison, compiled: the SQL of its value (and of a mixed value's tag), its type
/// and its name in messages.
struct Operand {
    var value: String
    var tag: String?
    /// A non-optional scalar type, `.mixed`, `.object` for a link, or the type of a count or aggregate.
    var type: PropertyType
    var subject: String
    /// For `@type`: what tells the kind of value.
    var typeOf: TypeTest.Kind?
    /// Whether the SQL holds a scalar subquery, which SQLite parses deeper.
    var nests = false

    /// For a count: SELECTs that find a row exactly when the count is above zero, so that
    /// `@count == 0` and `@count > 0` can be `NOT EXISTS` and `EXISTS`, which stop at the first row.
    var existence: [String]?
}

extension PredicateCompiler {
    /// The SQL of one side of a comparison; a path through a list, set, map or linkingObjects
    /// opens `subquery` (or joins it, if open).
    func operand(_ expression: PredicateExpression, in context: Context, subquery: inout Subquery?) throws(KuraError) -> Operand {
        switch expression {
        case .keyPath(let path):
            let resolved = try resolver(context).resolve(path, from: root)
            do {
                let position = try follow(resolved.hops, from: try start(of: path, in: context), into: &subquery)
                return try value(resolved.end, at: position, subject: resolved.subject, subquery: &subquery)
            } catch {
                // Too many tables: the comparison that needs one more says where.
                throw error.placed(in: .where, column: path.column)
            }
        case .subquery(let subqueryExpression):
            return try count(subqueryExpression, in: context)
        case .arithmetic(let op, let left, let right, _):
            let a = try term(left, in: context, subquery: &subquery)
            let b = try term(right, in: context, subquery: &subquery)
            let type: PropertyType = a.type == .int && b.type == .int ? .int : .double
            return Operand(
                value: limits.dialect.arithmetic(a.value, op.rawValue, b.value), type: type, subject: "\(a.subject) \(op.rawValue) \(b.subject)",
                nests: a.nests || b.nests)
        case .literal(let literal):
            throw KuraError.query(.syntax, "a value cannot be compared with a value: compare a key path with it", in: .where, column: literal.column)
        case .list(_, let column):
            throw KuraError.query(.syntax, "a list of values goes only after IN or BETWEEN", in: .where, column: column)
        }
    }

    /// One side of an arithmetic operator: a number written in the predicate, or an int, float or
    /// double (a property, a count, an aggregate, or more arithmetic).
    private func term(_ expression: PredicateExpression, in context: Context, subquery: inout Subquery?) throws(KuraError) -> Operand {
        guard case .literal(let literal) = expression else {
            let operand = try operand(expression, in: context, subquery: &subquery)
            guard [.int, .float, .double].contains(operand.type), operand.typeOf == nil else {
                throw KuraError.query(
                    .typeMismatch, "\(operand.subject) is \(operand.typeOf == nil ? operand.type.description : "a type name"): arithmetic takes int, float and double",
                    in: .where, column: expression.column)
            }
            return operand
        }
        guard case .number(let text) = literal.value, let number = Double(text), number.isFinite else {
            throw KuraError.query(.typeMismatch, "arithmetic takes numbers, found \(literal.described)", in: .where, column: literal.column)
        }
        if let integer = Int64(text) { return Operand(value: String(integer), type: .int, subject: text) }
        return Operand(value: limits.dialect.literal(.real(number)), type: .double, subject: text)
    }

    /// A resolver that knows the SUBQUERY variables of `context`.
    func resolver(_ context: Context) throws(KuraError) -> KeyPathResolver {
        var variables: [String: ObjectSchema] = [:]
        for (name, position) in context.variables {
            do {
                variables[name] = try catalog.type(position.type)
            } catch {
                throw KuraError.query(.unknownType, error.message, in: .where)
            }
        }
        return KeyPathResolver(catalog: catalog, source: .where, variables: variables)
    }

    /// Where `path` starts: its SUBQUERY variable's object, or the queried one.
    func start(of path: PredicateKeyPath, in context: Context) throws(KuraError) -> Position {
        guard let first = path.components.first, first.kind == .variable else { return context.root }
        guard let position = context.variables[first.name] else {
            throw KuraError.query(.invalidKeyPath, "$\(first.name) is not a SUBQUERY variable here", in: .where, column: first.column)
        }
        return position
    }

    /// `SUBQUERY(collection, $x, predicate).@count`: the number of objects of the collection
    /// for which the predicate holds, `$x` standing for each.
    private func count(_ subquery: PredicateSubquery, in context: Context) throws(KuraError) -> Operand {
        if context.variables[subquery.variable] != nil {
            throw KuraError.query(
                .invalidKeyPath, "$\(subquery.variable) is already the variable of an enclosing SUBQUERY: name this one differently",
                in: .where, column: subquery.column)
        }
        let collection = try resolver(context).resolveCollection(subquery.collection, from: root)
        var rows: Subquery?
        let element: Position
        do {
            element = try follow(collection.hops, from: try start(of: subquery.collection, in: context), into: &rows)
        } catch {
            throw error.placed(in: .where, column: subquery.collection.column)
        }
        guard let rows else {
            throw KuraError.query(.invalidKeyPath, "\(collection.subject): SUBQUERY needs a list, set, map or linkingObjects", in: .where, column: subquery.column)
        }
        var inner = context
        inner.variables[subquery.variable] = element
        // The condition stands inside the count, which a test may write twice: it binds nothing.
        let bound = constants
        constants = QueryConstants(dialect: limits.dialect, inline: true)
        defer { constants = bound }
        let condition = try self.condition(subquery.predicate, negated: false, in: inner)
        return Operand(
            value: "(SELECT count(*) \(rows.scope.fromClause) WHERE \(rows.correlation) AND \(condition.sql))", type: .int,
            subject: "SUBQUERY(\(collection.subject), $\(subquery.variable), …).@count", nests: true)
    }

    /// Follows the hops from `start`: to-one links as joins in the current scope, to-many steps
    /// as tables of the comparison's subquery (opened by the first of them).
    func follow(_ hops: [ResolvedKeyPath.Hop], from start: Position, into subquery: inout Subquery?) throws(KuraError) -> Position {
        var position = start
        for hop in hops {
            switch hop {
            case .toOne(let owner, let property, let target):
                let alias = try position.scope.objectAlias(type: owner, idExpression: position.id)
                position = Position(type: target, id: "\(alias).\(TableLayout.column(property))", scope: position.scope)
            case .mapEntry(let owner, let property, let key, let target):
                try countSubqueryTable()
                let id = entrySQL(owner, property, key: key, column: TableLayout.valueColumn, of: position.id)
                position = Position(type: target, id: id, scope: position.scope)
            case .listItem(let owner, let property, let at, let target):
                try countSubqueryTable()
                let id = itemSQL(owner, property, at: at, column: TableLayout.valueColumn, of: position.id)
                position = Position(type: target, id: id, scope: position.scope)
            case .collection(let owner, let property, let target):
                let alias = names.make()
                let condition = "\(alias).\(TableLayout.ownerColumn) = \(position.id)"
                let rows = try enter(TableLayout.collectionTable(owner, property), alias, condition, &subquery)
                position = Position(type: target, id: "\(alias).\(TableLayout.valueColumn)", scope: rows)
            case .backlink(let link) where link.originIsCollection:
                let alias = names.make()
                let condition = "\(alias).\(TableLayout.valueColumn) = \(position.id)"
                let rows = try enter(TableLayout.collectionTable(link.source, link.property), alias, condition, &subquery)
                position = Position(type: link.source, id: "\(alias).\(TableLayout.ownerColumn)", scope: rows)
            case .backlink(let link):
                let alias = names.make()
                let condition = "\(alias).\(TableLayout.column(link.property)) = \(position.id)"
                let rows = try enter(TableLayout.objectTable(link.source), alias, condition, &subquery)
                let id = "\(alias).\(TableLayout.idColumn)"
                rows.register(alias: alias, forObjectId: id)
                position = Position(type: link.source, id: id, scope: rows)
            }
        }
        return position
    }

    /// The SQL of the value a path ends at (and of its mixed tag), on the object at `position`.
    private func value(_ end: ResolvedKeyPath.End, at position: Position, subject: String, subquery: inout Subquery?) throws(KuraError)
        -> Operand
    {
        switch end {
        case .column(let name, let type):
            let alias = try position.scope.objectAlias(type: position.type, idExpression: position.id)
            let tag = type == .mixed ? "\(alias).\(TableLayout.tagColumn(name))" : nil
            return Operand(value: "\(alias).\(TableLayout.column(name))", tag: tag, type: type, subject: subject)
        case .link(let name, let target):
            let alias = try position.scope.objectAlias(type: position.type, idExpression: position.id)
            return Operand(value: "\(alias).\(TableLayout.column(name))", type: .object(target), subject: subject)
        case .elements(let owner, let property, let type, let keys):
            let alias = names.make()
            let condition = "\(alias).\(TableLayout.ownerColumn) = \(position.id)"
            _ = try enter(TableLayout.collectionTable(owner, property), alias, condition, &subquery)
            let tag = type == .mixed && !keys ? "\(alias).\(TableLayout.tagColumn)" : nil
            return Operand(value: "\(alias).\(keys ? TableLayout.keyColumn : TableLayout.valueColumn)", tag: tag, type: type, subject: subject)
        case .count(let source):
            try countSubqueryTable()
            return Operand(
                value: Self.count(source, of: position.id, limits.dialect), type: .int, subject: subject, nests: true,
                existence: Self.rows(source, of: position.id, limits.dialect))
        case .length(let name, _):
            let alias = try position.scope.objectAlias(type: position.type, idExpression: position.id)
            return Operand(value: limits.dialect.byteLength("\(alias).\(TableLayout.column(name))"), type: .int, subject: subject)
        case .aggregate(let function, let source, let result):
            try countSubqueryTable()
            return Operand(value: aggregate(function, source, of: position.id), type: result, subject: subject, nests: true)
        case .mapValue(let owner, let property, let key, let type):
            try countSubqueryTable()
            let value = entrySQL(owner, property, key: key, column: TableLayout.valueColumn, of: position.id)
            let tag = type == .mixed ? entrySQL(owner, property, key: key, column: TableLayout.tagColumn, of: position.id) : nil
            return Operand(value: value, tag: tag, type: type, subject: subject, nests: true)
        case .listItem(let owner, let property, let at, let type):
            try countSubqueryTable()
            let value = itemSQL(owner, property, at: at, column: TableLayout.valueColumn, of: position.id)
            let tag = type == .mixed ? itemSQL(owner, property, at: at, column: TableLayout.tagColumn, of: position.id) : nil
            return Operand(value: value, tag: tag, type: type, subject: subject, nests: true)
        case .typeOf(let inner):
            var operand = try value(inner, at: position, subject: subject, subquery: &subquery)
            operand.typeOf = operand.tag.map(TypeTest.Kind.tag) ?? .fixed(operand.type)
            operand.type = .string
            return operand
        }
    }

    /// `(SELECT column FROM map WHERE owner = id AND key = ?)`: a map's entry under `key`.
    private func entrySQL(_ owner: String, _ property: String, key: String, column: String, of id: String) -> String {
        let alias = names.make()
        let key = limits.dialect.literal(.text(key))
        return "(SELECT \(alias).\(column) FROM \(TableLayout.collectionTable(owner, property)) AS \(alias) "
            + "WHERE \(alias).\(TableLayout.ownerColumn) = \(id) AND \(alias).\(TableLayout.keyColumn) = \(key))"
    }

    /// `(SELECT column FROM list WHERE owner = id AND position = n)`: a list's element at a position, or its last.
    private func itemSQL(_ owner: String, _ property: String, at: ResolvedKeyPath.ListPosition, column: String, of id: String) -> String {
        let alias = names.make()
        let rows = "SELECT \(alias).\(column) FROM \(TableLayout.collectionTable(owner, property)) AS \(alias) WHERE \(alias).\(TableLayout.ownerColumn) = \(id)"
        switch at {
        case .at(let position): return "(\(rows) AND \(alias).\(TableLayout.positionColumn) = \(position))"
        case .last: return "(\(rows) ORDER BY \(alias).\(TableLayout.positionColumn) DESC LIMIT 1)"
        }
    }

    /// Adds a table of rows reached through a to-many step: the first one opens the comparison's
    /// subquery (correlated to the outer row by `condition`); later ones are joined into it.
    func enter(
        _ table: String, _ alias: String, _ condition: String, _ subquery: inout Subquery?
    ) throws(KuraError) -> QueryScope {
        try countSubqueryTable()
        if let open = subquery {
            try open.scope.join(table, alias: alias, on: condition)
            return open.scope
        }
        let opened = QueryScope(table: table, alias: alias, names: names, limits: limits)
        subquery = (opened, condition)
        return opened
    }

    /// Counts one more table read in a subquery; refuses one past `maxSubqueryTables` (the caller
    /// places the error at its comparison or sort key).
    func countSubqueryTable() throws(KuraError) {
        subqueryTables += 1
        guard subqueryTables > Self.maxSubqueryTables else { return }
        throw KuraError.query(
            .tooComplex,
            "the query reads lists, sets, maps, linkingObjects and @count in more than \(Self.maxSubqueryTables) places, "
                + "more than SQLite reads well for every object: compare several values at once, as in ANY tags IN {'a', 'b'}")
    }

    /// The number of elements, entries or (distinct) linking objects of the object whose id is `id`.
    static func count(_ source: ResolvedKeyPath.CountSource, of id: String, _ dialect: any QueryDialect) -> String {
        switch source {
        case .collection(let owner, let property):
            return "(SELECT count(*) FROM \(TableLayout.collectionTable(owner, property)) WHERE \(TableLayout.ownerColumn) = \(id))"
        case .backlink(let link):
            return count(link, of: id)
        case .allLinks(let links, let mixed):
            let counts = links.map { count($0, of: id) } + mixed.map { count($0, of: id, dialect) }
            return counts.isEmpty ? "0" : "(" + counts.joined(separator: " + ") + ")"
        }
    }

    /// A SELECT for each table the count reads, finding a row exactly when it counts one.
    private static func rows(_ source: ResolvedKeyPath.CountSource, of id: String, _ dialect: any QueryDialect) -> [String] {
        switch source {
        case .collection(let owner, let property):
            return ["SELECT 1 FROM \(TableLayout.collectionTable(owner, property)) WHERE \(TableLayout.ownerColumn) = \(id)"]
        case .backlink(let link):
            return [rows(link, of: id)]
        case .allLinks(let links, let mixed):
            return links.map { rows($0, of: id) } + mixed.map { rows($0, of: id, dialect) }
        }
    }

    private static func rows(_ link: ResolvedKeyPath.Backlink, of id: String) -> String {
        if link.originIsCollection {
            return "SELECT 1 FROM \(TableLayout.collectionTable(link.source, link.property)) WHERE \(TableLayout.valueColumn) = \(id)"
        }
        return "SELECT 1 FROM \(TableLayout.objectTable(link.source)) WHERE \(TableLayout.column(link.property)) = \(id)"
    }

    private static func rows(_ link: ResolvedKeyPath.MixedBacklink, of id: String, _ dialect: any QueryDialect) -> String {
        "SELECT 1 FROM \(link.place.table) WHERE \(link.place.linkCondition(tag: String(link.tag), id: dialect.mixedLink(id)))"
    }

    /// Mixed values linking to the object; in a list or set of one object, each object once.
    private static func count(_ link: ResolvedKeyPath.MixedBacklink, of id: String, _ dialect: any QueryDialect) -> String {
        let place = link.place
        let counted = place.property?.type.isCollection == true ? "DISTINCT \(TableLayout.ownerColumn)" : "*"
        return "(SELECT count(\(counted)) FROM \(place.table) WHERE \(place.linkCondition(tag: String(link.tag), id: dialect.mixedLink(id))))"
    }

    private static func count(_ link: ResolvedKeyPath.Backlink, of id: String) -> String {
        if link.originIsCollection {
            // An object listed twice in one list still links once, as linkingObjects reads it.
            return "(SELECT count(DISTINCT \(TableLayout.ownerColumn)) FROM \(TableLayout.collectionTable(link.source, link.property)) WHERE \(TableLayout.valueColumn) = \(id))"
        }
        return "(SELECT count(*) FROM \(TableLayout.objectTable(link.source)) WHERE \(TableLayout.column(link.property)) = \(id))"
    }
}
