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
}
