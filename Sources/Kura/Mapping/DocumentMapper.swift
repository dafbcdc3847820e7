/// Maps parsed documents to object values with the strict type rules of docs/documents.md (after Realm's rules
/// for creating objects from JSON): types must match exactly, dates and data are never inferred from
/// strings, required properties may not be null or missing, and unknown keys are ignored and counted.
public struct DocumentMapper: Sendable {
    /// The schema documents are mapped against.
    public let schema: Schema
    /// The options beyond the fixed rules.
    public let options: MappingOptions
    /// The input's name, for error messages.
    public let file: String
    /// The schema's types, each boxed once: mapping looks a link's target up for every nested
    /// object, and copying an `ObjectSchema` out of `schema` retained and released each of its parts.
    private let boxes: [ObjectSchemaBox]

    /// Makes a mapper.
    public init(schema: Schema, options: MappingOptions = MappingOptions(), file: String) {
        self.schema = schema
        self.options = options
        self.file = file
        boxes = schema.types.map(ObjectSchemaBox.init)
    }

    /// The type named `name`, boxed.
    func type(named name: String) -> ObjectSchemaBox? {
        for box in boxes where box.schema.name == name { return box }
        return nil
    }

    /// Maps one document to the properties of a `typeName` object (a `.map` for `Realm.create`), or
    /// throws every error the document has, up to `options.maxErrors`.
    public func map(_ node: DocumentNode, as typeName: String, path: String = "$") throws(KuraError) -> MappedDocument {
        try map(node, as: typeName, path: path, anchors: nil)
    }

    /// Maps one document as `map(_:as:path:)` does; its aliases may name the `anchors` of the
    /// documents before it in the same YAML document, and its own are added to them.
    func map(_ node: DocumentNode, as typeName: String, path: String, anchors: SharedAnchors?) throws(KuraError) -> MappedDocument {
        let context = MappingContext(mapper: self)
        if let anchors {
            // Moved, not shared, so that adding to them copies nothing.
            swap(&context.anchors, &anchors.values)
            swap(&context.linkAnchors, &anchors.links)
        }
        defer {
            if let anchors {
                swap(&context.anchors, &anchors.values)
                swap(&context.linkAnchors, &anchors.links)
            }
        }
        guard let box = type(named: typeName) else {
            context.registerAnchors(in: node)
            context.fail(.invalidValue, node, path, schema.noTypeMessage(typeName, in: "the schema"))
            throw context.errors()
        }
        var root = node
        var anchor: String?
        if case .anchored(let name, let inner) = node.value {
            // An anchored top-level document (`--- &name`) is what aliases and `$ref`s to `name` link to.
            root = inner
            anchor = name
            context.anchors[name] = inner
            context.linkAnchors.insert(name)
            context.openAnchors[name] = true
        }
        var object = context.mapObject(root, box, path: path, depth: 0)
        if let anchor { context.openAnchors[anchor] = nil }
        if let anchor { object?.id = .string(anchor) }
        guard context.found.isEmpty, let object else { throw context.errors() }
        return MappedDocument(object: object, unknownKeys: context.unknownKeys)
    }
}

extension DocumentMapper {
    /// The type a document names with `"$type"`, as documents of a whole-realm input do.
    public static func declaredType(of node: DocumentNode) -> String? {
        guard case .string(let name)? = typeTag(of: node)?.value else { return nil }
        return name
    }

    /// The value of a document's `"$type"` member, whatever it holds; nil without one.
    static func typeTag(of node: DocumentNode) -> DocumentNode? {
        var node = node
        if case .anchored(_, let inner) = node.value { node = inner }
        guard case .object(let members) = node.value, let member = members.first(where: { $0.key == "$type" }) else { return nil }
        return member.value
    }
}

/// One mapped document: its properties and how many unknown keys it had.
public struct MappedDocument: Sendable, Equatable {
    /// The object, its values by property position (what the importer writes).
    let object: MappedObject
    /// Keys the schema does not define, which were ignored.
    public var unknownKeys: Int

    /// The object's properties, nested documents as maps.
    public var value: Value { object.value }

    public static func == (lhs: MappedDocument, rhs: MappedDocument) -> Bool {
        lhs.value == rhs.value && lhs.unknownKeys == rhs.unknownKeys
    }
}

/// The state of mapping one document: the errors found so far and the unknown keys counted.
final class MappingContext {
    let mapper: DocumentMapper
    var found: [KuraError] = []
    var truncated = false
    var unknownKeys = 0
    /// YAML anchors seen so far in the document, for aliases in value positions.
    var anchors: [String: DocumentNode] = [:]
    /// The anchors on link documents, which carry `"$id"`: an alias to one links to the same object.
    var linkAnchors: Set<String> = []
    /// The anchors whose nodes are being mapped, each the latest of its name: an alias to one is
    /// inside the node it names, a cycle. The value says whether the node is a link document
    /// (which gets `"$id"`), the only kind such an alias may name.
    var openAnchors: [String: Bool] = [:]
    /// The alias through which the values being mapped are reached, if any: the outermost one,
    /// which is where the document holds them.
    var aliasUse: (name: String, position: TextPosition)?
    /// Values the aliases of this document have expanded to so far (see `expand(alias:_:path:)`).
    var expandedValues = 0
    /// Set once `expandedValues` passes `options.maxAliasExpansion`: every later alias fails quietly.
    var expansionExceeded = false
    /// The value of a positional document being mapped, which errors in it name: a path says
    /// `.age` where the document wrote its second value.
    var positionalItem: (position: Int, type: ObjectSchemaBox)?

    init(mapper: DocumentMapper) { self.mapper = mapper }

    var options: MappingOptions { mapper.options }

    func fail(_ code: KuraError.MappingCode, _ node: DocumentNode, _ path: @autoclosure () -> String, _ message: String) {
        fail(code, at: node.position, path(), message)
    }

    func fail(_ code: KuraError.MappingCode, at position: TextPosition, _ path: @autoclosure () -> String, _ message: String) {
        guard found.count < max(options.maxErrors, 1) else {
            truncated = true
            return
        }
        found.append(error(code, at: position, path(), message))
    }

    /// An error at `position`, told as the document holds it: inside a positional document, which
    /// value it is; reached through an alias, at the alias, naming where the value is written.
    func error(_ code: KuraError.MappingCode, at position: TextPosition, _ path: String, _ message: String) -> KuraError {
        var message = message
        var position = position
        if let item = positionalItem {
            message += " (value \(item.position + 1) of a positional \(item.type.schema.name) document)"
        }
        if let use = aliasUse {
            message += " (through alias *\(MessageText.shown(use.name)), from \(position))"
            position = use.position
        }
        return KuraError.mapping(code, file: mapper.file, position: position, path: path, message)
    }

    /// `body`'s result, its values reached through the alias `node` (named `name`).
    func throughAlias<Mapped>(_ name: String, _ node: DocumentNode, _ body: () -> Mapped) -> Mapped {
        guard aliasUse == nil else { return body() }
        aliasUse = (name, node.position)
        defer { aliasUse = nil }
        return body()
    }

    /// Refuses an alias inside the node it names, where that cannot be a link: a value holding
    /// itself. True when `name` is such an anchor.
    func refusesCycle(_ name: String, _ node: DocumentNode, _ path: @autoclosure () -> String) -> Bool {
        guard openAnchors[name] != nil else { return false }
        fail(.invalidValue, node, path(), "YAML alias '*\(MessageText.shown(name))' is inside the node it names: only a link to an object can make such a cycle")
        return true
    }

    func errors() -> KuraError { KuraError.documentErrors(found, truncated: truncated) }

    func mismatch(_ node: DocumentNode, _ path: @autoclosure () -> String, expected: String) {
        fail(.typeMismatch, node, path(), "expected \(expected), found \(Self.describe(node.value))")
    }

    /// How a found value is named in messages: `string "three"`, `number 1.5`, `bool true`, `null`.
    static func describe(_ value: DocumentValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "bool \(flag)"
        case .number(let number): return "number \(MessageText.shown(number.text))"
        case .string(let text): return "string \"\(MessageText.shown(text))\""
        case .array: return "array"
        case .object: return "object"
        case .timestamp, .binary, .alias: return value.kindName
        case .anchored(_, let inner): return describe(inner.value)
        }
    }

    // MARK: Objects

    /// A document of `box`'s type: an object by property name, or an array of values in schema order
    /// (a positional document, which messages call so).
    func mapObject(_ node: DocumentNode, _ box: ObjectSchemaBox, path: @autoclosure () -> String, depth: Int) -> MappedObject? {
        guard depth < DocumentNesting.maxDepth else {
            fail(.nestingTooDeep, node, path(), "documents nest deeper than \(DocumentNesting.maxDepth) levels")
            return nil
        }
        let type = box.schema
        // One pass in document order: each value mapped as its key is met, the properties given
        // marked in a bit set (no array to allocate for the usual few dozen properties).
        var isGiven = PropertyFlags(count: type.properties.count)
        var object = MappedObject(type: box)
        var isPositional = false
        // A document inside a positional one: its own errors are not the outer value's.
        let outerItem = positionalItem
        defer { if outerItem != nil { positionalItem = outerItem } }
        switch node.value {
        case .object(let members):
            if outerItem != nil { positionalItem = nil }
            var otherKeys = KeyIndexTable()  // keys that name no property, checked for duplicates too
            // By index, reading the members in place: a copy of each cost reference counts for its
            // key and value.
            for position in members.indices {
                guard let index = type.propertyIndex(members[position].key), box.storedPositions[index] >= 0 else {
                    let member = members[position]
                    guard otherKeys.existing(member.key, keyAt: { members[$0].key }) == nil else {
                        fail(.duplicateKey, at: member.keyPosition, path(), "duplicate key '\(MessageText.shown(member.key))'")
                        continue
                    }
                    otherKeys.record(member.key, as: position) { members[$0].key }
                    mapOtherMember(member, of: type, path: path(), depth: depth, into: &object)
                    continue
                }
                guard isGiven.insert(index) else {
                    let member = members[position]
                    fail(.duplicateKey, at: member.keyPosition, path(), "duplicate key '\(MessageText.shown(member.key))'")
                    continue
                }
                object[box.storedPositions[index]] = mapValue(
                    members[position].value, box.propertyTypes[index], path: "\(path()).\(type.properties[index].name)",
                    depth: depth + 1)
            }
        case .array(let items):
            positionalItem = nil
            isPositional = true
            let stored = type.storedProperties
            if items.count > stored.count {
                fail(.tooManyValues, items[stored.count], path(),
                     "expected at most \(Counted(stored.count, "value")) for a positional \(type.name) document, found \(items.count)")
            }
            for (position, (property, item)) in zip(stored, items).enumerated() {
                guard let index = type.propertyIndex(property.name) else { continue }
                _ = isGiven.insert(index)
                positionalItem = (position, box)
                object[position] = mapValue(item, property.type, path: "\(path()).\(property.name)", depth: depth + 1)
            }
            positionalItem = nil
        default:
            mismatch(node, path(), expected: "a \(type.name) document")
            return nil
        }
        if isGiven.count < type.storedProperties.count {
            let defers = (depth == 0 && options.documentIsForExistingObject) || defersMissing(of: object, box, given: isGiven)
            for (index, property) in type.properties.enumerated() where !isGiven.contains(index) && !property.isComputed {
                if type.requiresValue(for: property) {
                    var message = "missing required property '\(property.name)' (\(property.type))"
                    if isPositional { message += ", value \(box.storedPositions[index] + 1) of a positional \(type.name) document" }
                    if defers {
                        object[box.storedPositions[index]] = .omitted(error(.missingProperty, at: node.position, path(), message))
                    } else {
                        fail(.missingProperty, node, path(), message)
                    }
                }
            }
        }
        return object
    }

    /// Whether the required properties `object` leaves out are left to the writer: under a mode that
    /// keeps stored values, when the document may be for an existing object. That is one giving a
    /// primary key, or an embedded one, which the writer updates in place when its parent has one
    /// already; a document of a keyed type without its key can only be for a new object.
    private func defersMissing(of object: MappedObject, _ box: ObjectSchemaBox, given: PropertyFlags) -> Bool {
        let type = box.schema
        guard options.defersMissingProperties else { return false }
        if type.isEmbedded { return true }
        guard let key = type.primaryKey, let index = type.propertyIndex(key), given.contains(index) else { return false }
        guard let value = object[box.storedPositions[index]] else { return false }
        return !value.isNull
    }

    /// A member whose key names no stored property: a document's `$type`, `$id` or a rejects file's
    /// `$errors`, a server's `$url` (an object's address, not part of it), or an unknown key
    /// (counted, and an error when unknown keys are rejected).
    private func mapOtherMember(
        _ member: DocumentMember, of type: ObjectSchema, path: @autoclosure () -> String, depth: Int, into object: inout MappedObject
    ) {
        if member.key == "$errors" && depth == 0 { return }  // a rejects file's note on the document
        if member.key == DocumentWriter.urlKey { return }
        if member.key == "$type" {
            // A whole-realm input names each document's type; it must be the one mapped.
            if case .string(let name) = member.value.value, name == type.name { return }
            fail(.typeMismatch, member.value, "\(path()).$type", "expected \"\(type.name)\", found \(Self.describe(member.value.value))")
            return
        }
        if member.key == "$id" {
            // Kept for the import layer, which resolves `{"$ref": id}` links to this document.
            if let id = mapMixed(member.value, path: "\(path()).$id", depth: depth + 1) { object.id = id }
            return
        }
        // Anchors under an ignored key may still be aliased later in the document.
        registerAnchors(in: member.value)
        unknownKeys += 1
        if options.rejectUnknownKeys {
            fail(.unknownProperty, at: member.keyPosition, path(), "unknown property '\(MessageText.shown(member.key))' for \(type.name)")
        }
    }

    // MARK: Values

    func mapValue(_ node: DocumentNode, _ type: PropertyType, path: @autoclosure () -> String, depth: Int) -> MappedValue? {
        switch node.value {
        case .anchored(let name, let inner):
            // Defined where it starts, as YAML defines anchors: an alias inside the node names it
            // (a cycle, which a link document makes as `$id` and `$ref` do).
            let isLink = isObjectLink(type) && Self.isDocument(inner)
            anchors[name] = inner
            openAnchors[name] = isLink
            // An anchored object document is what aliases link to, as `$id` is for `$ref`.
            if isLink { linkAnchors.insert(name) } else { linkAnchors.remove(name) }
            let value = mapValue(inner, type, path: path(), depth: depth)
            openAnchors[name] = nil
            if isLink, case .object(var object)? = value {
                object.id = .string(name)
                return .object(object)
            }
            return value
        case .alias(let name):
            if isObjectLink(type) && (openAnchors[name] ?? linkAnchors.contains(name)) {
                return .plain(.map(["$ref": .string(name)]))
            }
            if let embedded = embeddedTarget(type) {
                fail(.invalidValue, node, path(), "expected a nested \(embedded) document, found alias *\(name) (\(Self.oneParent))")
                return nil
            }
            guard !refusesCycle(name, node, path()), let target = expand(alias: name, node, path: path()) else { return nil }
            return throughAlias(name, node) { mapValue(target, type, path: path(), depth: depth) }
        default:
            break
        }
        switch type {
        case .optional(let wrapped):
            if case .null = node.value { return .plain(.null) }
            return mapValue(node, wrapped, path: path(), depth: depth)
        case .mixed:
            return mapMixedValue(node, path: path(), depth: depth)
        case .list(let element), .set(let element):
            switch node.value {
            case .null: return .plain(.list([]))
            case .array(let items):
                if let checked = checkedElements(.items(items), element, path: path(), depth: depth) { return .checked(checked) }
                // Elements that may be nested documents or mixed maps stay mapped values; others plain values.
                if Self.holdsObjects(element) || element.nonOptional == .mixed {
                    return .list(mapItems(items, element, path: path(), depth: depth) { $0 })
                }
                return .plain(.list(mapItems(items, element, path: path(), depth: depth) { $0.value }))
            default:
                mismatch(node, path(), expected: type.description)
                return nil
            }
        case .map(let element):
            switch node.value {
            case .null: return .plain(.map([:]))
            case .object(let members):
                if let checked = checkedElements(.members(members), element, path: path(), depth: depth) { return .checked(checked) }
                return .map(mapEntries(members, element, path: path(), depth: depth))
            default:
                mismatch(node, path(), expected: type.description)
                return nil
            }
        case .object(let target):
            return mapLink(node, target: target, path: path(), depth: depth)
        case .linkingObjects:
            return nil
        default:
            return ScalarMapping(context: self).map(node, type, path: path()).map(MappedValue.plain)
        }
    }

    static let oneParent = "an embedded object cannot be shared by two parents"

    static func isDocument(_ node: DocumentNode) -> Bool {
        switch node.value {
        case .object, .array: true
        default: false
        }
    }

    /// Whether values of `element` may be nested documents (links, embedded or not).
    static func holdsObjects(_ element: PropertyType) -> Bool {
        if case .object = element.nonOptional { return true }
        return false
    }

    /// The embedded type that values of `type` are nested documents of, if it is one.
    private func embeddedTarget(_ type: PropertyType) -> String? {
        guard case .object(let target) = type.nonOptional, mapper.type(named: target)?.schema.isEmbedded == true else { return nil }
        return target
    }

    /// Whether values of `type` link to stored objects of a type that is not embedded.
    private func isObjectLink(_ type: PropertyType) -> Bool {
        guard case .object(let target) = type.nonOptional else { return false }
        return !(mapper.type(named: target)?.schema.isEmbedded ?? true)
    }

    /// The elements of a list or set, each made an `Element` by `make`; elements that fail are left out.
    private func mapItems<Element>(
        _ items: [DocumentNode], _ element: PropertyType, path: @autoclosure () -> String, depth: Int, _ make: (MappedValue) -> Element
    ) -> [Element] {
        var values: [Element] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if let value = mapValue(item, element, path: "\(path())[\(index)]", depth: depth + 1) { values.append(make(value)) }
        }
        return values
    }

    /// The entries of a map in document order; entries that fail are left out, and a key given
    /// again is refused (duplicates found by `KeyIndexTable`, which holds no copy of the keys).
    private func mapEntries(_ members: [DocumentMember], _ element: PropertyType, path: @autoclosure () -> String, depth: Int) -> [MapEntry] {
        var entries: [MapEntry] = []
        entries.reserveCapacity(members.count)
        var keys = KeyIndexTable()
        for position in members.indices {
            guard let key = mapKey(members[position], path: path()) else { continue }
            guard keys.existing(key, keyAt: { entries[$0].key }) == nil else {
                let member = members[position]
                fail(.duplicateKey, at: member.keyPosition, path(), "duplicate key '\(MessageText.shown(member.key))'")
                continue
            }
            if let value = mapValue(members[position].value, element, path: "\(path()).\(MessageText.shown(key))", depth: depth + 1) {
                keys.record(key, as: entries.count) { entries[$0].key }
                entries.append(MapEntry(key: key, value: value))
            }
        }
        return entries
    }

    /// A map key, refused or percent-encoded when it contains `.` or starts with `$`.
    func mapKey(_ member: DocumentMember, path: @autoclosure () -> String) -> String? {
        let key = member.key
        let bytes = key.utf8
        guard bytes.first == UInt8(ascii: "$") || bytes.contains(UInt8(ascii: "."))
            || (options.percentEncodeMapKeys && bytes.contains(UInt8(ascii: "%")))
        else { return key }
        if options.percentEncodeMapKeys { return MapKeyEncoding.encode(key) }
        let problem = key.hasPrefix("$") ? "starts with '$'" : "contains '.'"
        fail(.invalidMapKey, at: member.keyPosition, path(), "map key '\(MessageText.shown(key))' \(problem) (percent-encode map keys to store it)")
        return nil
    }

    private func mapLink(_ node: DocumentNode, target: String, path: @autoclosure () -> String, depth: Int) -> MappedValue? {
        guard let targetBox = mapper.type(named: target) else { return nil }
        let targetType = targetBox.schema
        if case .object(let members) = node.value, members.count == 1, members[0].key == "$ref" {
            if targetType.isEmbedded {
                fail(.invalidValue, node, path(), "expected a nested \(target) document, found a $ref (\(Self.oneParent))")
                return nil
            }
            guard let id = mapMixed(members[0].value, path: "\(path()).$ref", depth: depth + 1) else { return nil }
            return .plain(.map(["$ref": id]))
        }
        if case .object(let members) = node.value {
            // A typed wrapper ({"$oid": …}, {"$uuid": …}) is a primary key value, not a document.
            if members.count == 1, ScalarMapping.wrapperKeys.contains(members[0].key), !targetType.isEmbedded,
                let key = targetType.primaryKeyProperty
            {
                return ScalarMapping(context: self).map(node, key.type, path: path()).map(MappedValue.plain)
            }
            return mapObject(node, targetBox, path: path(), depth: depth).map(MappedValue.object)
        }
        if case .array = node.value {
            return mapObject(node, targetBox, path: path(), depth: depth).map(MappedValue.object)
        }
        guard !targetType.isEmbedded, let key = targetType.primaryKeyProperty else {
            mismatch(node, path(), expected: "a nested \(target) document")
            return nil
        }
        if case .null = node.value {
            mismatch(node, path(), expected: "a \(target) document or primary key")
            return nil
        }
        return ScalarMapping(context: self).map(node, key.type, path: path()).map(MappedValue.plain)
    }
}

/// Percent-encoding of map keys: `%` → `%25`, `.` → `%2E`, a leading `$` → `%24`.
public enum MapKeyEncoding {
    /// The encoded key.
    public static func encode(_ key: String) -> String {
        var out = ""
        for (index, character) in key.enumerated() {
            switch character {
            case "%": out += "%25"
            case ".": out += "%2E"
            case "$" where index == 0: out += "%24"
            default: out.append(character)
            }
        }
        return out
    }

    /// The original key of an encoded one.
    public static func decode(_ key: String) -> String {
        key.replacingOccurrences(of: "%2E", with: ".").replacingOccurrences(of: "%24", with: "$")
            .replacingOccurrences(of: "%25", with: "%")
    }
}
