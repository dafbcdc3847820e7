/// The document a whole-realm export starts with when the realm keeps state no object shows:
/// `{"$realm": {"autoIncrement": {"Person": 12}}}` gives the highest autoIncrement key ever used
/// per type, where deletions left it above the highest key present. Import raises its counters to it.
enum RealmDocument {
    static let key = "$realm"
    static let autoIncrementKey = "autoIncrement"

    /// Whether `node` is a realm document (an object whose one member is `"$realm"`).
    static func isRealmDocument(_ node: DocumentNode) -> Bool {
        guard case .object(let members) = node.value else { return false }
        return members.count == 1 && members[0].key == key
    }

    /// The counters a realm document gives, or `nil` when `node` is not a realm document;
    /// a malformed one is an error naming the member at fault.
    static func counters(in node: DocumentNode, file: String, path: String) throws(KuraError) -> [String: Int64]? {
        guard case .object(let members) = node.value, members.count == 1, members[0].key == key else { return nil }
        func malformed(_ at: DocumentNode, _ what: String) -> KuraError {
            KuraError.documentErrors([KuraError.mapping(.invalidValue, file: file, position: at.position, path: "\(path).\(key)", "expected \(what)")])
        }
        let body = members[0].value
        guard case .object(let sections) = body.value else { throw malformed(body, "an object with \"\(autoIncrementKey)\"") }
        var counters: [String: Int64] = [:]
        for section in sections {
            guard section.key == autoIncrementKey, case .object(let entries) = section.value.value else {
                throw malformed(section.value, "only \"\(autoIncrementKey)\": {type: highest key}")
            }
            for entry in entries {
                guard case .number(let number) = entry.value.value, let last = number.int64Value, last >= 0 else {
                    throw malformed(entry.value, "a non-negative integer for \(entry.key)")
                }
                counters[entry.key] = last
            }
        }
        return counters
    }
}
