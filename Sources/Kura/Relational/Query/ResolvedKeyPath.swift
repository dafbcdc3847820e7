/// A key path checked against a schema: the links it follows and the value it ends at.
struct ResolvedKeyPath {
    /// One step from an object to the objects it leads to.
    enum Hop {
        /// A to-one link or embedded object: the next object's id is the column's value.
        case toOne(owner: String, property: String, target: String)
        /// A list, set or map of objects: one row per element, the next object's id in `"#value"`.
        case collection(owner: String, property: String, target: String)
        /// linkingObjects or `@links.Type.property`: the objects linking to this one.
        case backlink(Backlink)
        /// `map['key']` in a map of objects: the object stored under `key`, or none.
        case mapEntry(owner: String, property: String, key: String, target: String)
        /// `list[0]`, `list[FIRST]` or `list[LAST]` in a list of objects: the object there, or none.
        case listItem(owner: String, property: String, at: ListPosition, target: String)

        var isToMany: Bool {
            switch self {
            case .toOne, .mapEntry, .listItem: false
            case .collection, .backlink: true
            }
        }
    }

    /// A position in a list: `[0]`, `[FIRST]`, `[LAST]`.
    enum ListPosition {
        case at(Int)
        case last
    }

    /// What a `@count` counts.
    enum CountSource {
        case collection(owner: String, property: String)
        case backlink(Backlink)
        /// `@links.@count`: every link to the object, from every property that can hold one, mixed
        /// values (and the containers nested in them) among them.
        case allLinks([Backlink], mixed: [MixedBacklink])
    }

    /// A place mixed values are stored, and the tag its values carry when they link to the object.
    struct MixedBacklink {
        var place: SchemaCatalog.MixedLinkColumns
        var tag: Int64
    }

    /// The objects of `source` whose `property` links to an object.
    struct Backlink {
        var source: String
        var property: String
        var originIsCollection: Bool
    }

    /// `@sum`, `@avg`, `@min` or `@max`.
    enum Aggregate: String {
        case sum, avg, min, max
    }

    /// What an aggregate reads: the values of a collection of scalars or mixed values, or one
    /// property of the objects of a collection or of the objects linking to this one.
    enum AggregateSource {
        case values(owner: String, property: String, element: PropertyType)
        case objects(Hop, property: String, type: PropertyType)
    }

    /// The value at the end of the path.
    enum End {
        /// A non-collection property (scalar or mixed) of the last object.
        case column(name: String, type: PropertyType)
        /// A to-one link property of the last object.
        case link(name: String, target: String)
        /// The elements (or, for `@keys`, the keys) of a collection of scalars or mixed values.
        case elements(owner: String, property: String, type: PropertyType, keys: Bool)
        case count(CountSource)
        /// `@size` of a string or data property: its length in bytes.
        case length(name: String, type: PropertyType)
        case aggregate(Aggregate, AggregateSource, result: PropertyType)
        /// `map['key']` in a map of scalars or mixed values: the value stored under `key`, or null.
        case mapValue(owner: String, property: String, key: String, type: PropertyType)
        /// `list[0]`, `[FIRST]` or `[LAST]` in a list of scalars or mixed values: the value there, or null.
        case listItem(owner: String, property: String, at: ListPosition, type: PropertyType)
        /// `@type` of a value: what kind of value it holds.
        indirect case typeOf(End)
    }

    var hops: [ResolvedKeyPath.Hop]
    var end: End
    /// `Type.path.as.written`, naming the path in messages.
    var subject: String

    /// Whether the path leads to many values, so that a comparison through it is ANY, ALL or NONE.
    var isToMany: Bool {
        if end.isMany { return true }
        return hops.contains { $0.isToMany }
    }

    /// The type of the compared value: a non-optional scalar type, `.mixed`, `.int` for counts,
    /// the aggregate's type, or `.object` for a link.
    var valueType: PropertyType { end.valueType }
}

extension ResolvedKeyPath.End {
    /// Whether the end ranges over a collection's elements.
    var isMany: Bool {
        switch self {
        case .elements: true
        case .typeOf(let inner): inner.isMany
        default: false
        }
    }

    var valueType: PropertyType {
        switch self {
        case .column(_, let type), .elements(_, _, let type, _), .mapValue(_, _, _, let type), .listItem(_, _, _, let type): type
        case .length: .int
        case .link(_, let target): .object(target)
        case .count: .int
        case .aggregate(_, _, let result): result
        case .typeOf: .string
        }
    }
}
