/// What may follow a predicate: `SORT(key ASC, …)`, `DISTINCT(key, …)` and `LIMIT(n)`.
extension PredicateParser {
    /// `SORT(…)`, `DISTINCT(…)` or `LIMIT(…)` at the current token, if one starts there.
    mutating func parseDescriptorIfPresent() throws(KuraError) -> QueryDescriptor? {
        guard case .identifier(let word) = current.kind, peek(1).kind == .symbol("(") else { return nil }
        let keyword = PredicateLexer.keyword(word)
        guard ["SORT", "DISTINCT", "LIMIT"].contains(keyword) else { return nil }
        advance()
        advance()
        let descriptor: QueryDescriptor
        switch keyword {
        case "LIMIT":
            guard case .number(let text) = current.kind, let count = Int(text), count >= 0 else {
                throw unexpected("a count of zero or more in LIMIT( )")
            }
            descriptor = .limit(count, column: current.column)
            advance()
        case "SORT":
            var keys: [SortKey] = []
            repeat {
                if !keys.isEmpty { advance() }
                let path = try parseKeyPath()
                var ascending = true
                if case .identifier(let word) = current.kind {
                    guard let direction = SortKey.isAscending(word) else { throw unexpected("ASC, DESC, ',' or ')'") }
                    ascending = direction
                    advance()
                }
                keys.append(SortKey(keyPath: path, ascending: ascending))
            } while isSymbol(",")
            descriptor = .sort(keys)
        default:
            var paths: [PredicateKeyPath] = []
            repeat {
                if !paths.isEmpty { advance() }
                paths.append(try parseKeyPath())
            } while isSymbol(",")
            descriptor = .distinct(paths)
        }
        guard isSymbol(")") else { throw unexpected("')' closing \(keyword)") }
        advance()
        return descriptor
    }
}
