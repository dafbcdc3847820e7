/// Checks key paths against a schema: property names, where links and collections may be followed,
/// and where `@count`, `@sum`, `@type`, `@links` and `['key']` may stand.
struct KeyPathResolver {
    let catalog: SchemaCatalog
    let source: KuraError.QueryPart
    /// The types of the SUBQUERY variables in scope, by name.
    var variables: [String: ObjectSchema] = [:]

    init(catalog: SchemaCatalog, source: KuraError.QueryPart, variables: [String: ObjectSchema] = [:]) {
        self.catalog = catalog
        self.source = source
        self.variables = variables
    }

    /// Where a path starts: `$x` for a SUBQUERY's variable, the queried type otherwise.
    func start(of path: PredicateKeyPath, root: ObjectSchema) throws(KuraError) -> (type: ObjectSchema, variable: String?) {
        guard let first = path.components.first, first.kind == .variable else { return (root, nil) }
        guard let type = variables[first.name] else {
            throw error(.invalidKeyPath, "$\(first.name) is not a SUBQUERY variable here", first.column)
        }
        return (type, first.name)
    }

    func resolve(_ path: PredicateKeyPath, from root: ObjectSchema) throws(KuraError) -> ResolvedKeyPath {
        var walk = try KeyPathWalk(path: path, start: start(of: path, root: root), resolver: self)
        return try walk.resolve()
    }

    /// The hops of a SUBQUERY's collection: a path that ends at the objects of a list, set, map
    /// or linkingObjects; with the type of those objects.
    func resolveCollection(_ path: PredicateKeyPath, from root: ObjectSchema) throws(KuraError)
        -> (hops: [ResolvedKeyPath.Hop], type: ObjectSchema, subject: String)
    {
        var walk = try KeyPathWalk(path: path, start: start(of: path, root: root), resolver: self)
        return try walk.resolveObjects()
    }

    /// At most this many property names are listed when none is close to a misspelt one.
    static let listedProperties = 20

    /// `Dog has no property 'agee' (did you mean 'age'?)`, or with the type's properties listed
    /// when none is close enough to be a likely typo (see `TypeSuggestion`).
    static func noPropertyMessage(_ name: String, in type: ObjectSchema) -> String {
        let subject = "\(type.name) has no property '\(MessageText.shown(name))'"
        let suggestion = TypeSuggestion(for: name, among: type.properties.map(\.name))
        if let closest = suggestion.closest { return subject + " (did you mean '\(closest)'?)" }
        guard !suggestion.names.isEmpty else { return subject }
        var listing = suggestion.names.prefix(Self.listedProperties).joined(separator: ", ")
        if suggestion.names.count > Self.listedProperties { listing += " and \(suggestion.names.count - Self.listedProperties) more" }
        return subject + " (properties: \(listing))"
    }

    func backlink(_ source: String, _ property: String, to target: String? = nil, column: Int? = nil) throws(KuraError)
        -> ResolvedKeyPath.Backlink
    {
        let sourceType = try objectType(source, column: column)
        guard let origin = sourceType[property: property] else {
            throw error(.unknownProperty, Self.noPropertyMessage(property, in: sourceType), column)
        }
        if let target, origin.type.objectTypeName != target || origin.isComputed {
            throw error(.invalidKeyPath, "\(source).\(property) does not link to \(target): @links needs a property that does", column)
        }
        return ResolvedKeyPath.Backlink(source: source, property: property, originIsCollection: origin.type.isCollection)
    }

    /// Every property of every type that links to `target`, for `@links.@count`.
    func allBacklinks(to target: String) -> [ResolvedKeyPath.Backlink] {
        var links: [ResolvedKeyPath.Backlink] = []
        for type in catalog.schema.types {
            for property in type.properties where !property.isComputed && property.type.objectTypeName == target {
                links.append(ResolvedKeyPath.Backlink(source: type.name, property: property.name, originIsCollection: property.type.isCollection))
            }
        }
        return links
    }

    /// The places mixed values that link to objects of `target` are stored.
    func mixedBacklinks(to target: String) -> [ResolvedKeyPath.MixedBacklink] {
        guard let typeId = catalog.typeIds[target] else { return [] }
        return catalog.mixedLinkColumns.map { ResolvedKeyPath.MixedBacklink(place: $0, tag: MixedTag.linkBase + typeId) }
    }

    func objectType(_ name: String, column: Int? = nil) throws(KuraError) -> ObjectSchema {
        do {
            return try catalog.type(name)
        } catch {
            throw KuraError.query(.unknownType, error.message, in: source, column: column)
        }
    }

    func error(_ code: KuraError.QueryCode, _ message: String, _ column: Int?) -> KuraError {
        KuraError.query(code, message, in: source, column: column)
    }
}

extension PropertyType {
    /// Whether this is a map.
    var isMap: Bool {
        if case .map = self { return true }
        return false
    }
}
