import Foundation

/// Maps scalar document values to typed values, accepting the Extended-JSON wrappers of docs/documents.md.
struct ScalarMapping {
    let context: MappingContext

    /// The keys of the typed wrappers; any other one-key `$` object is an ordinary map.
    static let wrapperKeys: Set<String> = ["$numberLong", "$numberDouble", "$numberDecimal", "$date", "$oid", "$uuid", "$binary"]

    func map(_ node: DocumentNode, _ type: PropertyType, path: @autoclosure () -> String) -> Value? {
        if case .null = node.value {
            context.mismatch(node, path(), expected: type.description)
            return nil
        }
        if case .object(let members) = node.value, members.count == 1, members[0].key.hasPrefix("$") {
            return wrapper(members[0], node, expected: type, path: path())
        }
        let strategy = context.options
        switch (type, node.value) {
        case (.string, .string(let text)): return .string(text)
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .number(let number)): return integer(number, node, path: path())
        case (.float, .number(let number)): return floating(number, node, path: path(), float: true)
        case (.double, .number(let number)): return floating(number, node, path: path(), float: false)
        case (.decimal, .number(let number)):
            // YAML-only integer spellings (1_000, 0x1F) are decimals by value, not by text.
            if Decimal128(number.text) == nil, number.isInteger, let exact = number.int64Value {
                return decimal(String(exact), node, path: path())
            }
            return decimal(number.text, node, path: path())
        case (.decimal, .string(let text)): return decimal(text, node, path: path())
        case (.uuid, .string(let text)): return uuid(text, node, path: path())
        case (.date, .timestamp(let millis)): return .date(DateFormatting.date(milliseconds: millis))
        case (.data, .binary(let bytes)): return .data(bytes)
        case (.date, .string(let text)) where strategy.dateStrategy == .iso8601: return date(text, node, path: path())
        case (.date, .number(let number)) where strategy.dateStrategy == .secondsSince1970:
            return date(number, scale: 1000, node, path: path())
        case (.date, .number(let number)) where strategy.dateStrategy == .millisecondsSince1970:
            return date(number, scale: 1, node, path: path())
        case (.data, .string(let text)) where strategy.dataStrategy == .base64: return base64(text, node, path: path())
        default:
            context.mismatch(node, path(), expected: type.description)
            return nil
        }
    }

    /// `{"$date": …}`, `{"$oid": …}`, `{"$numberLong": …}` and the other typed wrappers.
    private func wrapper(_ member: DocumentMember, _ node: DocumentNode, expected type: PropertyType, path: @autoclosure () -> String) -> Value? {
        var inner = member.value
        if case .anchored(let name, let anchored) = inner.value {
            context.anchors[name] = anchored
            inner = anchored
        }
        let accepted: Bool
        switch (member.key, type) {
        case ("$numberLong", .int), ("$numberDouble", .double), ("$numberDouble", .float), ("$numberDecimal", .decimal),
            ("$date", .date), ("$oid", .objectId), ("$uuid", .uuid), ("$binary", .data), ("$numberLong", .decimal),
            (_, .mixed):
            accepted = true
        default:
            accepted = false
        }
        guard accepted else {
            context.fail(.typeMismatch, node, path(), "expected \(type), found \(MessageText.shown(member.key)) wrapper")
            return nil
        }
        let innerPath = "\(path()).\(MessageText.shown(member.key))"
        switch (member.key, inner.value) {
        case ("$numberLong", .string(let text)):
            guard let number = Int64(text) else {
                context.fail(.invalidValue, inner, innerPath, "expected an integer string in Int64 range, found \"\(MessageText.shown(text))\"")
                return nil
            }
            return type == .decimal ? decimal(text, inner, path: innerPath) : .int(number)
        case ("$numberDouble", .string(let text)):
            guard let number = Double(text), !number.isNaN else {
                context.fail(.invalidValue, inner, innerPath, "expected a number string, found \"\(MessageText.shown(text))\"")
                return nil
            }
            guard type == .float else { return .double(number) }
            guard !number.isFinite || Float(number).isFinite else {
                context.fail(.outOfRange, inner, innerPath, "expected float, found \"\(MessageText.shown(text))\" (out of float range)")
                return nil
            }
            return .float(Float(number))
        case ("$numberDecimal", .string(let text)): return decimal(text, inner, path: innerPath)
        case ("$oid", .string(let text)):
            guard let id = ObjectId(hex: text) else {
                context.fail(.invalidValue, inner, innerPath, "expected 24 hexadecimal digits, found \"\(MessageText.shown(text))\"")
                return nil
            }
            return .objectId(id)
        case ("$uuid", .string(let text)): return uuid(text, inner, path: innerPath)
        case ("$date", .string(let text)): return date(text, inner, path: innerPath)
        case ("$date", .timestamp(let millis)): return .date(DateFormatting.date(milliseconds: millis))
        case ("$date", .number(let number)) where number.int64Value != nil:
            return date(milliseconds: number.int64Value ?? 0, inner, path: innerPath)
        case ("$date", .object(let members)) where members.count == 1 && members[0].key == "$numberLong":
            guard case .string(let text) = members[0].value.value, let millis = Int64(text) else {
                context.mismatch(members[0].value, innerPath, expected: "an integer string")
                return nil
            }
            return date(milliseconds: millis, members[0].value, path: "\(innerPath).$numberLong")
        case ("$binary", .object(let members)):
            return binary(members, inner, path: innerPath)
        default:
            context.fail(.invalidValue, inner, innerPath, "invalid \(MessageText.shown(member.key)) value: found \(MappingContext.describe(inner.value))")
            return nil
        }
    }

    private func integer(_ number: NumberLiteral, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        guard number.isInteger else {
            context.mismatch(node, path(), expected: "int")
            return nil
        }
        guard let exact = number.int64Value else {
            context.fail(.outOfRange, node, path(), "expected int, found number \(MessageText.shown(number.text)) (out of Int64 range)")
            return nil
        }
        return .int(exact)
    }

    private func floating(_ number: NumberLiteral, _ node: DocumentNode, path: @autoclosure () -> String, float: Bool) -> Value? {
        let value = number.doubleValue
        // The range is checked after rounding, so the largest float's own shortest text is accepted.
        guard value.isFinite, !float || Float(value).isFinite else {
            context.fail(.outOfRange, node, path(),
                         "expected \(float ? "float" : "double"), found number \(MessageText.shown(number.text)) (out of \(float ? "float" : "double") range)")
            return nil
        }
        return float ? .float(Float(value)) : .double(value)
    }

    private func decimal(_ text: String, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        guard let number = Decimal128(text) else {
            context.fail(.invalidValue, node, path(), "expected decimal, found \(MappingContext.describe(node.value))")
            return nil
        }
        return .decimal(number)
    }

    private func uuid(_ text: String, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        guard text.utf8.count == 36, let id = UUID(uuidString: text) else {
            context.fail(.invalidValue, node, path(), "expected uuid, found \(MappingContext.describe(node.value))")
            return nil
        }
        return .uuid(id)
    }

    private func date(_ text: String, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        switch DateFormatting.checkedISO8601(text) {
        case .success(let millis): return .date(DateFormatting.date(milliseconds: millis))
        case .failure(.invalid):
            context.fail(.invalidValue, node, path(), "expected an ISO-8601 date, found \(MappingContext.describe(node.value))")
        case .failure(let problem): refuse(problem, node, path: path())
        }
        return nil
    }

    /// A number of seconds (`scale` 1000) or milliseconds (`scale` 1) since 1970, under a date strategy.
    private func date(_ number: NumberLiteral, scale: Int64, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        switch DateFormatting.checkedNumber(number, scale: scale) {
        case .success(let millis): return .date(DateFormatting.date(milliseconds: millis))
        case .failure(let problem): refuse(problem, node, path: path())
        }
        return nil
    }

    /// Milliseconds since 1970 given as an integer, within the range a date holds.
    private func date(milliseconds: Int64, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        guard DateFormatting.millisecondRange.contains(milliseconds) else {
            refuse(.outOfRange, node, path: path())
            return nil
        }
        return .date(DateFormatting.date(milliseconds: milliseconds))
    }

    /// Refuses a date Kura cannot hold exactly, rather than rounding or clamping it.
    private func refuse(_ problem: DateFormatting.Problem, _ node: DocumentNode, path: @autoclosure () -> String) {
        let found = MappingContext.describe(node.value)
        switch problem {
        case .subMillisecond:
            context.fail(.outOfRange, node, path(), "expected a date in whole milliseconds, found \(found) (a date holds no finer digits)")
        case .outOfRange, .invalid:
            context.fail(.outOfRange, node, path(), "expected a date within \(DateFormatting.rangeText), found \(found)")
        }
    }

    private func base64(_ text: String, _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        guard let bytes = Data(base64Encoded: text) else {
            context.fail(.invalidValue, node, path(), "expected base64 data, found \(MappingContext.describe(node.value))")
            return nil
        }
        return .data(bytes)
    }

    /// Whether a `$binary` subType is 0, generic binary: `"00"` (Extended JSON), or a number 0 (YAML
    /// reads `subType: 00` as one).
    private static func isGenericSubType(_ value: DocumentValue) -> Bool {
        switch value {
        case .string(let code): code == "00" || code == "0"
        case .number(let number): number.isInteger && number.int64Value == 0
        default: false
        }
    }

    /// `{"base64": …, "subType": "00"}`. A data value is bytes only: another subtype (a UUID, an MD5,
    /// a user-defined one) would be lost, so it is refused rather than dropped.
    private func binary(_ members: [DocumentMember], _ node: DocumentNode, path: @autoclosure () -> String) -> Value? {
        guard let encoded = members.first(where: { $0.key == "base64" }), case .string(let text) = encoded.value.value else {
            context.fail(.invalidValue, node, path(), "expected {\"base64\": …, \"subType\": …}")
            return nil
        }
        if let subType = members.first(where: { $0.key == "subType" }) {
            guard Self.isGenericSubType(subType.value.value) else {
                context.fail(
                    .invalidValue, subType.value, "\(path()).subType",
                    "expected subType \"00\" (generic binary), found \(MappingContext.describe(subType.value.value)) (a data value keeps no other subtype)")
                return nil
            }
        }
        return base64(text, encoded.value, path: "\(path()).base64")
    }
}
