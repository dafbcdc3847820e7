/// The schema compiled once for writing: each type's stored properties in order, their types
/// reduced to what writing needs, link targets resolved to indexes, names pre-rendered.
struct WritePlan {
    /// Every type of the schema, in schema order; links refer to them by index.
    let types: [TypePlan]
    private let indexes: [String: Int]

    init(schema: Schema) {
        var indexes: [String: Int] = [:]
        for (index, type) in schema.types.enumerated() where indexes[type.name] == nil { indexes[type.name] = index }
        types = schema.types.map { TypePlan($0, typeIndexes: indexes) }
        self.indexes = indexes
    }

    /// The plan of the type named `name`.
    subscript(name: String) -> TypePlan? {
        indexes[name].map { types[$0] }
    }
}

/// What the writer needs to know of one object type.
final class TypePlan {
    let name: String
    /// The stored properties, in schema order.
    let fields: [FieldPlan]
    /// Each stored property's position in `fields`, by name.
    let positions: PropertyPositions
    /// The kind of the primary key, which a link by key is written as.
    let primaryKey: FieldShape.Kind?
    let isEmbedded: Bool

    init(_ type: ObjectSchema, typeIndexes: [String: Int]) {
        name = type.name
        fields = type.storedProperties.map { FieldPlan(name: $0.name, type: $0.type, shape: FieldShape($0.type, typeIndexes: typeIndexes)) }
        positions = PropertyPositions(fields.map(\.name))
        primaryKey = type.primaryKeyProperty.map { FieldShape($0.type.nonOptional, typeIndexes: typeIndexes).kind }
        isEmbedded = type.isEmbedded
    }
}

/// One stored property; a class, so that reaching one while writing costs one reference count
/// rather than one for each of its parts.
final class FieldPlan {
    let name: String
    /// The declared type, for error messages.
    let type: PropertyType
    let shape: FieldShape
    /// The name as a JSON string, escaped once rather than for every document.
    let jsonName: [UInt8]
    /// The name as a YAML key (plain or quoted), or nil if it needs the general key path.
    let yamlName: [UInt8]?

    init(name: String, type: PropertyType, shape: FieldShape) {
        self.name = name
        self.type = type
        self.shape = shape
        var jsonName: [UInt8] = []
        JSONTextWriter.appendString(name, to: &jsonName)
        self.jsonName = jsonName
        yamlName = YAMLTextWriter.keyText(name)
    }
}

/// A property type as writing needs it: how values are collected, whether an element may be
/// null, and the element's kind, with a link's target as an index into `WritePlan.types`.
struct FieldShape {
    enum Collection {
        case single, list, map
    }

    /// Raw values are the names of the schema format, for error messages.
    enum Kind: String {
        case bool, int, float, double, string, date, data, decimal, objectId, uuid, mixed, link
        /// A computed property, or a type the schema format does not allow (such as a list of lists).
        case unwritable
    }

    let collection: Collection
    /// Whether an element may be null (an optional scalar or link; mixed values always may).
    let isOptional: Bool
    let kind: Kind
    /// The linked type's index, for `.link`.
    let target: Int

    init(_ type: PropertyType, typeIndexes: [String: Int]) {
        var element = type
        switch type {
        case .list(let inner), .set(let inner):
            collection = .list
            element = inner
        case .map(let inner):
            collection = .map
            element = inner
        default:
            collection = .single
        }
        if case .optional(let inner) = element {
            isOptional = true
            element = inner
        } else {
            isOptional = false
        }
        var target = -1
        switch element {
        case .bool: kind = .bool
        case .int: kind = .int
        case .float: kind = .float
        case .double: kind = .double
        case .string: kind = .string
        case .date: kind = .date
        case .data: kind = .data
        case .decimal: kind = .decimal
        case .objectId: kind = .objectId
        case .uuid: kind = .uuid
        case .mixed: kind = .mixed
        case .object(let name):
            if let index = typeIndexes[name] {
                kind = .link
                target = index
            } else {
                kind = .unwritable
            }
        case .optional, .list, .set, .map, .linkingObjects:
            kind = .unwritable
        }
        self.target = target
    }
}


/// A value that cannot be written, with the path to it built while the error unwinds (so the
/// path costs nothing while writing succeeds).
struct WriteFailure: Error {
    enum Step {
        case key(String)
        case index(Int)
    }

    var code: KuraError.DocumentCode
    var message: String
    /// Innermost step first.
    var steps: [Step] = []

    init(_ code: KuraError.DocumentCode, _ message: String) {
        self.code = code
        self.message = message
    }

    static let tooDeep = WriteFailure(.depthLimit, "documents nest deeper than \(DocumentNesting.maxDepth) levels")

    static let notANumber = WriteFailure(.unwritableValue, "NaN has no document form")

    func inside(_ step: Step) -> WriteFailure {
        var failure = self
        failure.steps.append(step)
        return failure
    }

    /// The path from `root`, such as `$[3].dogs[1].age`.
    func path(from root: String) -> String {
        var path = root
        for step in steps.reversed() {
            switch step {
            case .key(let key): path += "." + key
            case .index(let index): path += "[\(index)]"
            }
        }
        return path
    }
}
