/// A key path checked against a schema: the links it follows and the value it ends at.
struct ResolvedKeyPath {
    /// One step from an object to the objects it leads to.
    enum Hop {
        /// A to-one link or embedded object: the next object's id is the column's value.
        case toOne(owner: String, property: String, target: String)
        /// A list, set or map of objects: one row per element, the next object's id in `"#value"`.
        case collection(owner: String, property: String, target: String)
        /// linkingObjects: the objects of `source` whose `property` links to this one.
        case backlink(source: String, property: String, originIsCollection: Bool)

        var isToMany: Bool {
            if case .toOne = self { return false }
            return true
        }
    }

    /// What a `@count` counts.
    enum CountSource {
        case collection(owner: String, property: String)
        case backlink(source: String, property: String, originIsCollection: Bool)
    }

    /// The value at the end of the path.
    enum End {
        /// A non-collection property (scalar or mixed) of the last object.
        case column(name: String, type: PropertyType)
        /// A to-one link property of the last object, which can only be compared with nil.
        case link(name: String)
        /// The elements (or, for `@keys`, the keys) of a collection of scalars or mixed values.
        case elements(owner: String, property: String, type: PropertyType, keys: Bool)
        case count(CountSource)
    }

    var hops: [ResolvedKeyPath.Hop]
    var end: End
    /// `Type.path.as.written`, naming the path in messages.
    var subject: String

    /// Whether the path leads to many values, so that a comparison through it is ANY, ALL or NONE.
    var isToMany: Bool {
        if case .elements = end { return true }
        return hops.contains { $0.isToMany }
    }

    /// The type of the compared value: a non-optional scalar type, `.mixed`, `.int` for counts,
    /// or `.object` for a link.
    var valueType: PropertyType {
        switch end {
        case .column(_, let type), .elements(_, _, let type, _): type
        case .link(let name): .object(name)
        case .count: .int
        }
    }
}

/// Checks key paths against a schema: property names, where links and collections may be followed,
/// and where `@count` may stand.
struct KeyPathResolver {
    let catalog: SchemaCatalog
    let source: KuraError.QueryPart

    func resolve(_ path: PredicateKeyPath, from root: ObjectSchema) throws(KuraError) -> ResolvedKeyPath {
        var hops: [ResolvedKeyPath.Hop] = []
        var type = root
        var index = 0
        let components = path.components
        func subject(through last: Int) -> String {
            ([root.name] + components[0...last].map { ($0.isAggregate ? "@" : "") + $0.name }).joined(separator: ".")
        }
        func finish(_ end: ResolvedKeyPath.End, through last: Int) throws(KuraError) -> ResolvedKeyPath {
            if last + 1 < components.count {
                let next = components[last + 1]
                throw error(.invalidKeyPath, "\(subject(through: last)) cannot be followed by '.\(next.isAggregate ? "@" : "")\(next.name)'", next.column)
            }
            return ResolvedKeyPath(hops: hops, end: end, subject: subject(through: last))
        }
        while index < components.count {
            let component = components[index]
            if component.isAggregate {
                let owner = index == 0 ? root.name : subject(through: index - 1)
                throw error(.invalidKeyPath, "\(owner): @\(component.name) needs a list, set, map or linkingObjects", component.column)
            }
            guard let property = type[property: component.name] else {
                throw error(.unknownProperty, Self.noPropertyMessage(component.name, in: type), component.column)
            }
            let aggregate = index + 1 < components.count && components[index + 1].isAggregate ? components[index + 1] : nil
            if let aggregate {
                guard property.type.isCollection || property.isComputed else {
                    throw error(
                        .invalidKeyPath,
                        "\(subject(through: index)): @\(aggregate.name) needs a list, set, map or linkingObjects, not \(property.type)",
                        aggregate.column)
                }
                switch aggregate.name {
                case "count", "size":
                    return try finish(.count(try countSource(type.name, property)), through: index + 1)
                case "keys" where property.type.isMap:
                    return try finish(.elements(owner: type.name, property: property.name, type: .string, keys: true), through: index + 1)
                case "values" where property.type.isMap:
                    break
                default:
                    throw error(
                        .unsupportedOperator, "\(subject(through: index)): @\(aggregate.name) is not supported here (use @count)",
                        aggregate.column)
                }
            }
            let skip = aggregate?.name == "values" ? 2 : 1
            switch property.type {
            case .linkingObjects(let sourceType, let sourceProperty):
                let origin = try originIsCollection(sourceType, sourceProperty)
                hops.append(.backlink(source: sourceType, property: sourceProperty, originIsCollection: origin))
                type = try objectType(sourceType)
            case .list(let element), .set(let element), .map(let element):
                guard let target = element.objectTypeName else {
                    return try finish(
                        .elements(owner: type.name, property: property.name, type: element.nonOptional, keys: false),
                        through: index + skip - 1)
                }
                hops.append(.collection(owner: type.name, property: property.name, target: target))
                type = try objectType(target)
            default:
                if let target = property.type.objectTypeName {
                    if index + 1 == components.count { return try finish(.link(name: property.name), through: index) }
                    hops.append(.toOne(owner: type.name, property: property.name, target: target))
                    type = try objectType(target)
                } else {
                    if index + 1 < components.count {
                        let next = components[index + 1]
                        let kind = property.type == .mixed ? "mixed: key paths cannot go into mixed values" : "\(property.type.nonOptional), not a link"
                        throw error(.invalidKeyPath, "\(subject(through: index)) is \(kind)", next.column)
                    }
                    return try finish(.column(name: property.name, type: property.type.nonOptional), through: index)
                }
            }
            index += skip
        }
        let last = components[components.count - 1]
        throw error(
            .invalidKeyPath,
            "\(subject(through: components.count - 1)) leads to objects: follow it to a property (such as \(last.name).name) or count it with @count",
            last.column)
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

    private func countSource(_ owner: String, _ property: Property) throws(KuraError) -> ResolvedKeyPath.CountSource {
        if case .linkingObjects(let source, let origin) = property.type {
            return .backlink(source: source, property: origin, originIsCollection: try originIsCollection(source, origin))
        }
        return .collection(owner: owner, property: property.name)
    }

    private func originIsCollection(_ source: String, _ property: String) throws(KuraError) -> Bool {
        guard let origin = try objectType(source)[property: property] else {
            throw error(.unknownProperty, "\(source) has no property '\(property)'", nil)
        }
        return origin.type.isCollection
    }

    private func objectType(_ name: String) throws(KuraError) -> ObjectSchema {
        do {
            return try catalog.type(name)
        } catch {
            throw KuraError.query(.unknownType, error.message, in: source)
        }
    }

    private func error(_ code: KuraError.QueryCode, _ message: String, _ column: Int?) -> KuraError {
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
