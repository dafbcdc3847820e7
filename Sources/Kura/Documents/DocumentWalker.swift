import Foundation

/// Walks a document value as the mapper produces it, directed by the schema, and feeds its parts
/// to an emitter: properties in schema order with `$id` first, map entries sorted by key, links
/// as nested documents, references or primary keys.
///
/// Depth is counted as the mapper counts it, and refused where the mapper would refuse it, so
/// whatever is written reads back.
struct DocumentWalker<Emitter: DocumentEmitter> {
    /// A present property: its position in the type's fields, and where its value was put.
    private struct PresentField {
        var position: Int
        var slot: Int
    }

    var emitter: Emitter
    let plan: WritePlan
    /// The `"$url"` of an object without a primary key written nested in another (see
    /// `DocumentWriter.nestedObjectURL`); `nil` writes none.
    var nestedObjectURL: ((ObjectRef) -> String?)?

    /// Writes the properties of one top-level object of type `type`, led by `"$type"` when `tagged`
    /// (as documents of a whole-realm export are).
    mutating func writeDocument(_ value: Value, _ type: TypePlan, tagged: Bool = false) throws(WriteFailure) {
        guard case .map(let fields) = value else {
            throw WriteFailure(.unwritableValue, "expected a map of \(type.name) properties, found \(value.kindName)")
        }
        emitter.beginDocument()
        // Top-level documents are never anchored: YAML anchors are document-scoped and a node's
        // anchor becomes usable only once the node is complete, so no alias could refer to it.
        try writeObject(fields, type, depth: 0, anchorable: false, typeTag: tagged ? type.name : nil)
        emitter.endDocument()
    }

    /// Writes the realm document of a whole-realm export: `{"$realm": {"autoIncrement": {T: n}}}`,
    /// the highest autoIncrement key ever used per type, where deletions left it above the keys present.
    mutating func writeRealmDocument(autoIncrement: [(type: String, last: Int64)]) throws(WriteFailure) {
        emitter.beginDocument()
        emitter.beginObject(count: 1, anchor: nil)
        try emitter.key(RealmDocument.key)
        emitter.beginObject(count: 1, anchor: nil)
        try emitter.key(RealmDocument.autoIncrementKey)
        emitter.beginObject(count: autoIncrement.count, anchor: nil)
        for (type, last) in autoIncrement {
            try emitter.key(type)
            emitter.int(last)
        }
        emitter.endObject(anchor: nil)
        emitter.endObject(anchor: nil)
        emitter.endObject(anchor: nil)
        emitter.endDocument()
    }

    mutating func writeObject(
        _ fields: [String: Value], _ type: TypePlan, depth: Int, anchorable: Bool, typeTag: String? = nil
    ) throws(WriteFailure) {
        guard depth < DocumentNesting.maxDepth else { throw WriteFailure.tooDeep }
        // Scratch space for ordering the fields, on the stack for the usual small documents.
        try withUnsafeTemporaryAllocation(of: Value.self, capacity: fields.count) { (values) throws(WriteFailure) in
            try withUnsafeTemporaryAllocation(of: PresentField.self, capacity: fields.count) { (present) throws(WriteFailure) in
                try writeObject(
                    fields, type, depth: depth, anchorable: anchorable, typeTag: typeTag, values: values, present: present)
            }
        }
    }

    /// Orders the present fields by schema position (one lookup per field, where looking up every
    /// property would cost one per property), then writes `$id` and the fields.
    private mutating func writeObject(
        _ fields: [String: Value], _ type: TypePlan, depth: Int, anchorable: Bool, typeTag: String?,
        values: UnsafeMutableBufferPointer<Value>, present: UnsafeMutableBufferPointer<PresentField>
    ) throws(WriteFailure) {
        var count = 0
        // `present` holds plain integers; only the values need deinitializing, however this ends.
        defer { values.baseAddress?.deinitialize(count: count) }
        var id: Value?
        for (key, value) in fields {
            if let position = type.positions[key] {
                values.initializeElement(at: count, to: value)
                present.initializeElement(at: count, to: PresentField(position: position, slot: count))
                count += 1
            } else if key == "$id" {
                id = value
            } else {
                throw Self.unknownKeys(fields, type)
            }
        }
        let ordered = UnsafeMutableBufferPointer(rebasing: present[0..<count])
        Self.sortByPosition(ordered)
        let anchor = try beginObject(properties: count, id: id, anchorable: anchorable, typeTag: typeTag, depth: depth)
        for field in ordered {
            let property = type.fields[field.position]
            try emitter.propertyKey(property)
            do { try writeProperty(values[field.slot], property, depth: depth + 1) } catch { throw error.inside(.key(property.name)) }
        }
        emitter.endObject(anchor: anchor)
    }

    /// Opens an object of `properties` properties, led by `"$type"` when `typeTag` is given, by
    /// its `"$id"` (a key, or a YAML anchor where `anchorable`) and by its `"$url"` when `url` is
    /// given. Returns the anchor for `endObject`.
    mutating func beginObject(
        properties: Int, id: Value?, anchorable: Bool, typeTag: String?, url: String? = nil, depth: Int
    ) throws(WriteFailure) -> String? {
        var anchor: String?
        if let id, anchorable { anchor = emitter.anchorName(for: id) }
        let members = properties + (id != nil && anchor == nil ? 1 : 0) + (typeTag == nil ? 0 : 1) + (url == nil ? 0 : 1)
        emitter.beginObject(count: members, anchor: anchor)
        if let typeTag {
            try emitter.key("$type")
            try emitter.string(typeTag)
        }
        if let id, anchor == nil {
            try emitter.key("$id")
            do { try writeMixed(id, depth: depth + 1) } catch { throw error.inside(.key("$id")) }
        }
        if let url {
            try emitter.key(DocumentWriter.urlKey)
            try emitter.string(url)
        }
        return anchor
    }

    /// Insertion sort for the usual few fields (no closure calls), the standard sort for many.
    private static func sortByPosition(_ fields: UnsafeMutableBufferPointer<PresentField>) {
        guard fields.count <= 32 else {
            var all = fields
            all.sort { $0.position < $1.position }
            return
        }
        for next in fields.indices.dropFirst() {
            let field = fields[next]
            var slot = next
            while slot > 0 && fields[slot - 1].position > field.position {
                fields[slot] = fields[slot - 1]
                slot -= 1
            }
            fields[slot] = field
        }
    }

    /// Names the first key (in sorted order, so the message does not depend on hashing) that is
    /// neither a stored property nor `$id`.
    private static func unknownKeys(_ fields: [String: Value], _ type: TypePlan) -> WriteFailure {
        let unknown = fields.keys.filter { $0 != "$id" && type.positions[$0] == nil }.sorted()
        return WriteFailure(.unwritableValue, "'\(unknown.first ?? "")' is not a stored property of \(type.name)")
    }

    mutating func writeProperty(_ value: Value, _ property: FieldPlan, depth: Int) throws(WriteFailure) {
        let shape = property.shape
        switch shape.collection {
        case .single:
            try writeElement(value, shape, depth: depth)
        case .list:
            guard case .list(let items) = value else { throw Self.mismatch(property.type.description, value) }
            emitter.beginArray(count: items.count)
            for (index, item) in items.enumerated() {
                do { try writeElement(item, shape, depth: depth + 1) } catch { throw error.inside(.index(index)) }
            }
            emitter.endArray()
        case .map:
            guard case .map(let entries) = value else { throw Self.mismatch(property.type.description, value) }
            emitter.beginObject(count: entries.count, anchor: nil)
            for (key, entry) in try Self.sortedEntries(entries) {
                try emitter.key(key)
                do { try writeElement(entry, shape, depth: depth + 1) } catch { throw error.inside(.key(key)) }
            }
            emitter.endObject(anchor: nil)
        }
    }

    /// A single value, a list element or a map value.
    mutating func writeElement(_ value: Value, _ shape: FieldShape, depth: Int) throws(WriteFailure) {
        if shape.isOptional, case .null = value {
            emitter.null()
            return
        }
        switch shape.kind {
        case .mixed: try writeMixed(value, depth: depth)
        case .link: try writeLink(value, to: plan.types[shape.target], depth: depth)
        case .unwritable: throw WriteFailure(.unwritableValue, "a computed or unsupported property cannot be written")
        default: try writeScalar(value, shape.kind)
        }
    }

    /// A nested document, a `{"$ref": id}` reference, or the target's primary key.
    mutating func writeLink(_ value: Value, to target: TypePlan, depth: Int) throws(WriteFailure) {
        switch value {
        case .map(let fields):
            if fields.count == 1, let id = fields["$ref"] {
                guard !target.isEmbedded else {
                    throw WriteFailure(
                        .unwritableValue, "a reference cannot stand for embedded \(target.name): an embedded object has one parent")
                }
                try writeReference(to: id, depth: depth)
            } else {
                try writeObject(fields, target, depth: depth, anchorable: !target.isEmbedded)
            }
        case .object(let ref):
            throw Self.storedObject(ref)
        case .null:
            throw WriteFailure(.unwritableValue, "expected a \(target.name) document or primary key, found null")
        default:
            guard !target.isEmbedded, let key = target.primaryKey else {
                throw WriteFailure(.unwritableValue, "expected a nested \(target.name) document, found \(value.kindName)")
            }
            try writeScalar(value, key)
        }
    }

    /// An alias where the anchor is complete in the same YAML document, an explicit `$ref` otherwise.
    mutating func writeReference(to id: Value, depth: Int) throws(WriteFailure) {
        if let name = emitter.aliasName(for: id) {
            emitter.alias(name)
            return
        }
        emitter.beginObject(count: 1, anchor: nil)
        try emitter.key("$ref")
        do { try writeMixed(id, depth: depth + 1) } catch { throw error.inside(.key("$ref")) }
        emitter.endObject(anchor: nil)
    }

    mutating func writeScalar(_ value: Value, _ kind: FieldShape.Kind) throws(WriteFailure) {
        switch (kind, value) {
        case (.string, .string(let text)): try emitter.string(text)
        case (.bool, .bool(let flag)): emitter.bool(flag)
        case (.int, .int(let number)): emitter.int(number)
        case (.float, .float(let number)):
            if number.isNaN { throw WriteFailure.notANumber }
            if number.isInfinite { emitter.infinity(negative: number < 0) } else { emitter.float(number) }
        case (.double, .double(let number)): try writeDouble(number)
        case (.date, .date(let date)): emitter.date(milliseconds: try Self.milliseconds(date))
        case (.data, .data(let bytes)): emitter.data(bytes)
        case (.decimal, .decimal(let number)): emitter.decimal(number)
        case (.objectId, .objectId(let id)): emitter.objectId(id)
        case (.uuid, .uuid(let id)): emitter.uuid(id, tagged: false)
        case (_, .object(let ref)): throw Self.storedObject(ref)
        default: throw Self.mismatch(kind.rawValue, value)
        }
    }

    private mutating func writeDouble(_ number: Double) throws(WriteFailure) {
        if number.isNaN { throw WriteFailure.notANumber }
        if number.isInfinite { emitter.infinity(negative: number < 0) } else { emitter.double(number) }
    }

    /// Any value of a mixed property. A `.float` is written as a double and reads back as one.
    mutating func writeMixed(_ value: Value, depth: Int) throws(WriteFailure) {
        guard depth < DocumentNesting.maxDepth else { throw WriteFailure.tooDeep }
        switch value {
        case .null: emitter.null()
        case .bool(let flag): emitter.bool(flag)
        case .int(let number): emitter.int(number)
        case .float(let number): try writeDouble(Double(number))
        case .double(let number): try writeDouble(number)
        case .string(let text): try emitter.string(text)
        case .date(let date): emitter.date(milliseconds: try Self.milliseconds(date))
        case .data(let bytes): emitter.data(bytes)
        case .decimal(let number): emitter.decimal(number)
        case .objectId(let id): emitter.objectId(id)
        case .uuid(let id): emitter.uuid(id, tagged: true)
        case .list(let items):
            emitter.beginArray(count: items.count)
            for (index, item) in items.enumerated() {
                do { try writeMixed(item, depth: depth + 1) } catch { throw error.inside(.index(index)) }
            }
            emitter.endArray()
        case .map(let entries):
            if let link = MixedLink(entries) {
                try writeMixedLink(link, depth: depth)
                return
            }
            emitter.beginObject(count: entries.count, anchor: nil)
            for (key, entry) in try Self.sortedEntries(entries) {
                try emitter.key(key)
                do { try writeMixed(entry, depth: depth + 1) } catch { throw error.inside(.key(key)) }
            }
            emitter.endObject(anchor: nil)
        case .object(let ref):
            throw Self.storedObject(ref)
        }
    }

    /// A map's entries sorted by key, so output is deterministic; keys the mapper refuses (a
    /// leading `$`, which would also read back as a typed wrapper, or a `.`) are refused here.
    static func sortedEntries(_ entries: [String: Value]) throws(WriteFailure) -> [(key: String, value: Value)] {
        let sorted = entries.sorted { $0.key < $1.key }
        for (key, _) in sorted {
            if key.utf8.first == UInt8(ascii: "$") {
                throw WriteFailure(.unwritableValue, "map key '\(key)' starts with '$'")
            }
            if key.utf8.contains(UInt8(ascii: ".")) {
                throw WriteFailure(.unwritableValue, "map key '\(key)' contains '.'")
            }
        }
        return sorted
    }

    /// A date's milliseconds, refused beyond the range a date holds rather than clamped to it.
    static func milliseconds(_ date: Date) throws(WriteFailure) -> Int64 {
        guard let millis = DateFormatting.storedMilliseconds(date) else {
            throw WriteFailure(.unwritableValue, "expected a date within \(DateFormatting.rangeText), found date \(Value.date(date))")
        }
        return millis
    }

    static func mismatch(_ expected: String, _ value: Value) -> WriteFailure {
        WriteFailure(.unwritableValue, "expected \(expected), found \(value.kindName)")
    }

    static func storedObject(_ ref: ObjectRef) -> WriteFailure {
        WriteFailure(.unwritableValue, "cannot write the stored object reference \(ref); convert links to documents, references or keys first")
    }
}
