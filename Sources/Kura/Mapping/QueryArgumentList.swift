import Foundation

/// The arguments of a predicate written as a JSON array (the service's `args`): numbers, strings,
/// booleans, null and the typed wrappers of documents (`{"$date": …}`, `{"$oid": …}`,
/// `{"$numberDecimal": …}`, `{"$uuid": …}`), and arrays of those for `IN`. `$0` takes the first.
/// What is not such an array is refused as a document is, with its line, column and path.
public enum QueryArgumentList {
    /// The values of `json`, in order; throws a `KuraError` naming the element that is not a value.
    public static func values(json: String) throws(KuraError) -> [Value] {
        let reader = JSONReader(data: Data(json.utf8), file: "args", layout: .document, maxDepth: 8)
        guard let node = try reader.next(), case .array(let items) = node.value else {
            // The reader refuses an input without a value, so a node is there.
            throw KuraError.mapping(
                .typeMismatch, file: "args", position: TextPosition(line: 1, column: 1), path: "$",
                "expected a JSON array of the predicate's values, such as [3, \"Rex\"]")
        }
        let context = MappingContext(mapper: DocumentMapper(schema: Schema(types: []), file: "args"))
        var values: [Value] = []
        for (index, item) in items.enumerated() {
            let path = "$[\(index)]"
            let value = context.mapMixed(item, path: path, depth: 1)
            if let error = context.found.first { throw error }
            switch value {
            case .map?, .object?, nil:
                throw KuraError.mapping(
                    .typeMismatch, file: "args", position: item.position, path: path,
                    "expected a value or a list of values, found \(item.value.kindName)")
            case let value?:
                values.append(value)
            }
        }
        return values
    }

    /// `values` as the JSON array `values(json:)` reads back: what a client sends as `args`.
    /// Throws for what an argument cannot be (a map, an object, a list inside a list, a date out
    /// of range), naming its place as `$[i]`.
    public static func json(_ values: [Value]) throws(KuraError) -> String {
        var writer = JSONTextWriter(layout: .lines, pretty: false)
        writer.beginArray(count: values.count)
        for (index, value) in values.enumerated() {
            if case .list(let items) = value {
                writer.beginArray(count: items.count)
                for (inner, item) in items.enumerated() { try append(item, to: &writer, path: "$[\(index)][\(inner)]") }
                writer.endArray()
            } else {
                try append(value, to: &writer, path: "$[\(index)]")
            }
        }
        writer.endArray()
        return String(decoding: writer.out, as: UTF8.self)
    }

    private static func append(_ value: Value, to writer: inout JSONTextWriter, path: String) throws(KuraError) {
        func refused(_ what: String) -> KuraError {
            KuraError.query(.argumentMismatch, "args: \(path): \(what) cannot be a query argument")
        }
        switch value {
        case .null: writer.null()
        case .bool(let flag): writer.bool(flag)
        case .int(let number): writer.int(number)
        case .float(let number): writer.float(number)
        case .double(let number):
            if number.isInfinite { writer.infinity(negative: number < 0) } else if number.isNaN { throw refused("NaN") } else { writer.double(number) }
        case .string(let text):
            do { try writer.string(text) } catch { throw refused("this string") }
        case .date(let date):
            guard let milliseconds = DateFormatting.storedMilliseconds(date) else { throw refused("a date outside \(DateFormatting.rangeText)") }
            writer.date(milliseconds: milliseconds)
        case .data(let bytes): writer.data(bytes)
        case .decimal(let number): writer.decimal(number)
        case .objectId(let id): writer.objectId(id)
        case .uuid(let id): writer.uuid(id, tagged: true)
        case .list: throw refused("a list inside a list")
        case .map: throw refused("a map")
        case .object(let ref): throw refused("a link to \(ref.type)")
        }
    }
}
