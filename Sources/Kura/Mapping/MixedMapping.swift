/// Maps any document value to a mixed value: nested arrays and objects become nested lists and maps.
extension MappingContext {
    /// The mixed value of `node`, as a plain value (a document's `$id`, a `$ref`).
    func mapMixed(_ node: DocumentNode, path: @autoclosure () -> String, depth: Int) -> Value? {
        mapMixedValue(node, path: path(), depth: depth)?.value
    }

    /// The mixed value of `node` as the writer takes it: a list a `.list`, a map a `.map` of its
    /// entries (keys once each, the last value given winning), anything else a plain value.
    func mapMixedValue(_ node: DocumentNode, path: @autoclosure () -> String, depth: Int) -> MappedValue? {
        guard depth < DocumentNesting.maxDepth else {
            fail(.nestingTooDeep, node, path(), "documents nest deeper than \(DocumentNesting.maxDepth) levels")
            return nil
        }
        switch node.value {
        case .null: return .plain(.null)
        case .bool(let flag): return .plain(.bool(flag))
        case .number(let number):
            if let exact = number.int64Value { return .plain(.int(exact)) }
            if number.isInteger, let wide = Decimal128(number.text) { return .plain(.decimal(wide)) }
            let double = number.doubleValue
            guard double.isFinite else {
                fail(.outOfRange, node, path(), "expected mixed, found number \(MessageText.shown(number.text)) (out of double range)")
                return nil
            }
            return .plain(.double(double))
        case .string(let text): return .plain(.string(text))
        case .array(let items):
            if let checked = checkedElements(.items(items), .mixed, path: path(), depth: depth) { return .checked(checked) }
            var values: [MappedValue] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                if let value = mapMixedValue(item, path: "\(path())[\(index)]", depth: depth + 1) { values.append(value) }
            }
            return .list(values)
        case .object(let members):
            if members.count == 1, ScalarMapping.wrapperKeys.contains(members[0].key) {
                return ScalarMapping(context: self).map(node, .mixed, path: path()).map(MappedValue.plain)
            }
            if let tag = members.first(where: { $0.key == MixedLink.typeKey }) {
                return mapMixedLink(node, members, tag: tag.value, path: path(), depth: depth).map(MappedValue.plain)
            }
            if let checked = checkedElements(.members(members), .mixed, path: path(), depth: depth) { return .checked(checked) }
            var entries: [MapEntry] = []
            entries.reserveCapacity(members.count)
            var keys = KeyIndexTable()
            for position in members.indices {
                guard let key = mapKey(members[position], path: path()) else { continue }
                guard let value = mapMixedValue(members[position].value, path: "\(path()).\(MessageText.shown(key))", depth: depth + 1)
                else { continue }
                if let earlier = keys.existing(key, keyAt: { entries[$0].key }) {
                    entries[earlier].value = value
                } else {
                    keys.record(key, as: entries.count) { entries[$0].key }
                    entries.append(MapEntry(key: key, value: value))
                }
            }
            return .map(entries)
        case .timestamp(let millis): return .plain(.date(DateFormatting.date(milliseconds: millis)))
        case .binary(let bytes): return .plain(.data(bytes))
        case .anchored(let name, let inner):
            // Defined where it starts, as in `mapValue`; a mixed value is never a link document.
            anchors[name] = inner
            linkAnchors.remove(name)
            openAnchors[name] = false
            let value = mapMixedValue(inner, path: path(), depth: depth)
            openAnchors[name] = nil
            return value
        case .alias(let name):
            guard !refusesCycle(name, node, path()), let target = expand(alias: name, node, path: path()) else { return nil }
            return throughAlias(name, node) { mapMixedValue(target, path: path(), depth: depth + 1) }
        }
    }

    /// A link in a mixed position (see `MixedLink`): by primary key, by `$ref`, or a nested document.
    private func mapMixedLink(
        _ node: DocumentNode, _ members: [DocumentMember], tag: DocumentNode, path: @autoclosure () -> String, depth: Int
    ) -> Value? {
        guard case .string(let typeName) = tag.value else {
            mismatch(tag, "\(path()).$type", expected: "a type name")
            return nil
        }
        guard let box = mapper.type(named: typeName) else {
            // Only top-level types are offered: a mixed value cannot link to an embedded one.
            let suggestion = TypeSuggestion(for: typeName, in: mapper.schema, topLevelOnly: true)
            fail(.invalidValue, tag, "\(path()).$type", suggestion.message(in: "the schema"))
            return nil
        }
        guard !box.schema.isEmbedded else {
            fail(.invalidValue, tag, "\(path()).$type", "a mixed value cannot link to '\(MessageText.shown(typeName))': not a top-level type of the schema")
            return nil
        }
        if members.count == 2, let key = members.first(where: { $0.key == MixedLink.primaryKeyKey }) {
            guard let keyProperty = box.schema.primaryKeyProperty else {
                fail(.invalidValue, key.value, "\(path()).$key", "\(typeName) has no primary key")
                return nil
            }
            let keyPath = "\(path()).$key"
            return ScalarMapping(context: self).map(key.value, keyProperty.type.nonOptional, path: keyPath)
                .map { MixedLink(typeName: typeName, link: $0).value }
        }
        if members.count == 2, let reference = members.first(where: { $0.key == "$ref" }) {
            return mapMixed(reference.value, path: "\(path()).$ref", depth: depth + 1)
                .map { MixedLink(typeName: typeName, link: .map(["$ref": $0])).value }
        }
        return mapObject(node, box, path: path(), depth: depth + 1).map { MixedLink(typeName: typeName, link: $0.value).value }
    }
}
