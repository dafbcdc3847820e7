/// One key path being resolved, component by component, from the type it starts at.
struct KeyPathWalk {
    private typealias Component = PredicateKeyPath.Component
    private typealias End = ResolvedKeyPath.End

    private let components: [Component]
    private let resolver: KeyPathResolver
    /// What messages name the path's start: the queried type, or `$x`.
    private let startName: String
    private var type: ObjectSchema
    private var hops: [ResolvedKeyPath.Hop] = []
    private var index: Int

    init(path: PredicateKeyPath, start: (type: ObjectSchema, variable: String?), resolver: KeyPathResolver) {
        components = path.components
        self.resolver = resolver
        type = start.type
        startName = start.variable.map { "$" + $0 } ?? start.type.name
        index = start.variable == nil ? 0 : 1
    }

    /// The path to the value it ends at.
    mutating func resolve() throws(KuraError) -> ResolvedKeyPath {
        while index < components.count {
            if let end = try step() { return end }
        }
        let last = components[components.count - 1]
        let name = last.kind == .property ? last.name : "name"
        throw resolver.error(
            .invalidKeyPath,
            "\(subject(through: components.count - 1)) leads to objects: follow it to a property (such as \(name).name) or count it with @count",
            last.column)
    }

    /// The path to the objects of a collection, for a SUBQUERY.
    mutating func resolveObjects() throws(KuraError) -> (hops: [ResolvedKeyPath.Hop], type: ObjectSchema, subject: String) {
        while index < components.count {
            if let end = try step() {
                throw resolver.error(
                    .invalidKeyPath, "\(end.subject) is not a list, set, map or linkingObjects of objects: SUBQUERY needs one",
                    components[0].column)
            }
        }
        let subject = subject(through: components.count - 1)
        guard hops.last?.isToMany == true else {
            throw resolver.error(
                .invalidKeyPath, "\(subject) is not a list, set, map or linkingObjects of objects: SUBQUERY needs one", components[0].column)
        }
        return (hops, type, subject)
    }

    /// Takes the component at `index` (and any that belong to it): a hop to the next objects, or the end.
    private mutating func step() throws(KuraError) -> ResolvedKeyPath? {
        let component = components[index]
        switch component.kind {
        case .variable:
            throw resolver.error(.invalidKeyPath, "$\(component.name) can only start a key path", component.column)
        case .key:
            throw resolver.error(.invalidKeyPath, "\(subject(through: index - 1)): ['…'] needs a map before it", component.column)
        case .index:
            throw resolver.error(.invalidKeyPath, "\(subject(through: index - 1)): [\(component.name)] needs a list before it", component.column)
        case .operation:
            if component.name == "links" { return try links() }
            let owner = index == 0 ? startName : subject(through: index - 1)
            throw resolver.error(.invalidKeyPath, "\(owner): @\(component.name) needs a list, set, map or linkingObjects", component.column)
        case .property:
            break
        }
        guard let property = type[property: component.name] else {
            throw resolver.error(.unknownProperty, KeyPathResolver.noPropertyMessage(component.name, in: type), component.column)
        }
        let next = index + 1 < components.count ? components[index + 1] : nil
        if let next, next.kind == .operation, next.name != "values" || !property.type.isMap {
            return try operation(next, on: property)
        }
        if let next, next.kind == .key {
            return try entry(next, of: property)
        }
        if let next, next.kind == .index, next.name != "*" {
            return try item(next, of: property)
        }
        if let next, next.kind == .index, !property.type.isCollection, !property.isComputed {
            throw resolver.error(.invalidKeyPath, "\(subject(through: index)) is not a list: [*] needs one", next.column)
        }
        let skip = next?.kind == .operation || next?.kind == .index ? 2 : 1
        switch property.type {
        case .linkingObjects(let sourceType, let sourceProperty):
            hops.append(.backlink(try resolver.backlink(sourceType, sourceProperty)))
            type = try resolver.objectType(sourceType)
        case .list(let element), .set(let element), .map(let element):
            guard let target = element.objectTypeName else {
                return try finish(
                    .elements(owner: type.name, property: property.name, type: element.nonOptional, keys: false), through: index + skip - 1)
            }
            hops.append(.collection(owner: type.name, property: property.name, target: target))
            type = try resolver.objectType(target)
        default:
            if let target = property.type.objectTypeName {
                if index + 1 == components.count { return try finish(.link(name: property.name, target: target), through: index) }
                hops.append(.toOne(owner: type.name, property: property.name, target: target))
                type = try resolver.objectType(target)
            } else {
                if let next {
                    let kind = property.type == .mixed ? "mixed: key paths cannot go into mixed values" : "\(property.type.nonOptional), not a link"
                    throw resolver.error(.invalidKeyPath, "\(subject(through: index)) is \(kind)", next.column)
                }
                return try finish(.column(name: property.name, type: property.type.nonOptional), through: index)
            }
        }
        index += skip
        return nil
    }

    /// `property.@operation`: a count, length, aggregate, `@keys` or `@type`.
    private mutating func operation(_ operation: Component, on property: Property) throws(KuraError) -> ResolvedKeyPath {
        let at = index + 1
        let owner = subject(through: index)
        func refuse(_ message: String) -> KuraError { resolver.error(.invalidKeyPath, "\(owner): \(message)", operation.column) }
        let element = property.type.element?.nonOptional
        switch operation.name {
        case "count", "size":
            if case .linkingObjects(let source, let origin) = property.type {
                return try finish(.count(.backlink(try resolver.backlink(source, origin))), through: at)
            }
            if property.type.isCollection { return try finish(.count(.collection(owner: type.name, property: property.name)), through: at) }
            let scalar = property.type.nonOptional
            if scalar == .string || scalar == .data {
                return try finish(.length(name: property.name, type: scalar), through: at)
            }
            throw refuse("@\(operation.name) needs a list, set, map, linkingObjects, string or data, not \(property.type)")
        case "keys":
            guard property.type.isMap else { throw refuse("@keys needs a map, not \(property.type)") }
            return try finish(.elements(owner: type.name, property: property.name, type: .string, keys: true), through: at)
        case "type":
            if let element {
                guard element.objectTypeName == nil else { throw refuse("@type needs values, not objects: follow the link to a property") }
                return try finish(.typeOf(.elements(owner: type.name, property: property.name, type: element, keys: false)), through: at)
            }
            if case .linkingObjects = property.type { throw refuse("@type needs a value, not linkingObjects") }
            if let target = property.type.objectTypeName { return try finish(.typeOf(.link(name: property.name, target: target)), through: at) }
            return try finish(.typeOf(.column(name: property.name, type: property.type.nonOptional)), through: at)
        case "sum", "avg", "min", "max":
            return try aggregate(ResolvedKeyPath.Aggregate(rawValue: operation.name) ?? .sum, operation, of: property)
        default:
            throw resolver.error(
                .unsupportedOperator,
                "\(owner): @\(operation.name) is not an operation (use @count, @size, @sum, @avg, @min, @max, @keys, @values or @type)",
                operation.column)
        }
    }

    /// `values.@sum`, or `objects.@sum.property` over a collection or linkingObjects.
    private mutating func aggregate(_ function: ResolvedKeyPath.Aggregate, _ operation: Component, of property: Property) throws(KuraError)
        -> ResolvedKeyPath
    {
        let owner = subject(through: index)
        if let element = property.type.element, element.objectTypeName == nil {
            let result = try Self.aggregateType(function, element.nonOptional) { message throws(KuraError) in
                throw resolver.error(.typeMismatch, "\(owner): \(message)", operation.column)
            }
            return try finish(.aggregate(function, .values(owner: type.name, property: property.name, element: element.nonOptional), result: result), through: index + 1)
        }
        let hop: ResolvedKeyPath.Hop
        let target: String
        switch property.type {
        case .linkingObjects(let source, let origin):
            hop = .backlink(try resolver.backlink(source, origin))
            target = source
        case .list(let element), .set(let element), .map(let element):
            target = element.objectTypeName ?? ""
            hop = .collection(owner: type.name, property: property.name, target: target)
        default:
            throw resolver.error(.invalidKeyPath, "\(owner): @\(function.rawValue) needs a list, set, map or linkingObjects, not \(property.type)", operation.column)
        }
        let targetType = try resolver.objectType(target)
        guard index + 2 < components.count, components[index + 2].kind == .property else {
            throw resolver.error(
                .invalidKeyPath, "\(owner).@\(function.rawValue) needs a property of \(target) after it, such as \(owner).@\(function.rawValue).age",
                operation.column)
        }
        let named = components[index + 2]
        guard let summed = targetType[property: named.name] else {
            throw resolver.error(.unknownProperty, KeyPathResolver.noPropertyMessage(named.name, in: targetType), named.column)
        }
        let valueType = summed.type.nonOptional
        guard !summed.type.isCollection, summed.type.objectTypeName == nil, !summed.isComputed else {
            throw resolver.error(.typeMismatch, "\(subject(through: index + 2)) is \(summed.type): @\(function.rawValue) needs a number or a date", named.column)
        }
        let result = try Self.aggregateType(function, valueType) { message throws(KuraError) in
            throw resolver.error(.typeMismatch, "\(subject(through: index + 2)): \(message)", named.column)
        }
        return try finish(.aggregate(function, .objects(hop, property: summed.name, type: valueType), result: result), through: index + 2)
    }

    /// The type an aggregate of values of `type` gives, or the refusal.
    private static func aggregateType(
        _ function: ResolvedKeyPath.Aggregate, _ type: PropertyType, refuse: (String) throws(KuraError) -> Never
    ) throws(KuraError) -> PropertyType {
        switch (function, type) {
        case (.sum, .int): return .int
        case (.sum, .float), (.sum, .double), (.avg, .int), (.avg, .float), (.avg, .double), (_, .mixed): return .double
        case (.sum, .decimal), (.avg, .decimal): return .decimal
        case (.min, .int), (.max, .int), (.min, .float), (.max, .float), (.min, .double), (.max, .double),
            (.min, .decimal), (.max, .decimal), (.min, .date), (.max, .date):
            return type
        default:
            let what = function == .min || function == .max ? "numbers or dates" : "numbers"
            try refuse("@\(function.rawValue) needs \(what), not \(type)")
        }
    }

    /// `map['key']`: the value stored under the key, or a hop to the object stored there.
    private mutating func entry(_ key: Component, of property: Property) throws(KuraError) -> ResolvedKeyPath? {
        guard case .map(let element) = property.type else {
            throw resolver.error(.invalidKeyPath, "\(subject(through: index)) is not a map: ['…'] needs one", key.column)
        }
        if let target = element.objectTypeName {
            hops.append(.mapEntry(owner: type.name, property: property.name, key: key.name, target: target))
            type = try resolver.objectType(target)
            index += 2
            if index < components.count, components[index].kind == .key {
                throw resolver.error(.invalidKeyPath, "\(subject(through: index - 1)) is an object, not a map", components[index].column)
            }
            return nil
        }
        return try finishValue(.mapValue(owner: type.name, property: property.name, key: key.name, type: element.nonOptional), through: index + 1)
    }

    /// `list[0]`, `[FIRST]`, `[LAST]`: the value or object at that position; `[SIZE]`: the count.
    private mutating func item(_ position: Component, of property: Property) throws(KuraError) -> ResolvedKeyPath? {
        guard case .list(let element) = property.type else {
            throw resolver.error(.invalidKeyPath, "\(subject(through: index)) is not a list: [\(position.name)] needs one", position.column)
        }
        let at: ResolvedKeyPath.ListPosition
        switch position.name {
        case "SIZE": return try finish(.count(.collection(owner: type.name, property: property.name)), through: index + 1)
        case "FIRST": at = .at(0)
        case "LAST": at = .last
        default: at = .at(Int(position.name) ?? 0)
        }
        guard let target = element.objectTypeName else {
            return try finishValue(.listItem(owner: type.name, property: property.name, at: at, type: element.nonOptional), through: index + 1)
        }
        hops.append(.listItem(owner: type.name, property: property.name, at: at, target: target))
        type = try resolver.objectType(target)
        index += 2
        return nil
    }

    /// `@links.Type.property` (a hop to the objects linking here through it), its `@count`, or
    /// `@links.@count` (every link to the object).
    private mutating func links() throws(KuraError) -> ResolvedKeyPath? {
        let at = components[index]
        let here = type.name
        if index + 1 < components.count, components[index + 1].kind == .operation,
            components[index + 1].name == "count" || components[index + 1].name == "size"
        {
            return try finish(.count(.allLinks(resolver.allBacklinks(to: here), mixed: resolver.mixedBacklinks(to: here))), through: index + 1)
        }
        guard index + 2 < components.count, components[index + 1].kind == .property, components[index + 2].kind == .property else {
            throw resolver.error(
                .invalidKeyPath, "@links needs a type and a property that links here, such as @links.Person.dogs, or @count", at.column)
        }
        let sourceName = components[index + 1].name
        let propertyName = components[index + 2].name
        let link = try resolver.backlink(sourceName, propertyName, to: here, column: components[index + 1].column)
        if index + 3 < components.count, components[index + 3].kind == .operation,
            components[index + 3].name == "count" || components[index + 3].name == "size"
        {
            return try finish(.count(.backlink(link)), through: index + 3)
        }
        hops.append(.backlink(link))
        type = try resolver.objectType(sourceName)
        index += 3
        return nil
    }

    /// A value at the component at `last`, or its `@type` when that follows.
    private func finishValue(_ end: End, through last: Int) throws(KuraError) -> ResolvedKeyPath {
        if last + 1 < components.count, components[last + 1].kind == .operation, components[last + 1].name == "type" {
            return try finish(.typeOf(end), through: last + 1)
        }
        return try finish(end, through: last)
    }

    /// The resolved path ending at `end` with the component at `last`; refuses components after it.
    private func finish(_ end: End, through last: Int) throws(KuraError) -> ResolvedKeyPath {
        if last + 1 < components.count {
            let next = components[last + 1]
            throw resolver.error(.invalidKeyPath, "\(subject(through: last)) cannot be followed by '\(next.kind == .key || next.kind == .index ? "" : ".")\(next.text)'", next.column)
        }
        return ResolvedKeyPath(hops: hops, end: end, subject: subject(through: last))
    }

    /// The path's start and its components through `last`, as written.
    private func subject(through last: Int) -> String {
        var text = startName
        var position = startName.hasPrefix("$") ? 1 : 0
        while position <= last && position < components.count {
            let component = components[position]
            text += (component.kind == .key || component.kind == .index ? "" : ".") + component.text
            position += 1
        }
        return text
    }
}
