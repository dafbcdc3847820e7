/// One key of a sort order: a key path (through to-one links) and a direction.
struct SortKey: Equatable, Sendable {
    var keyPath: PredicateKeyPath
    var ascending: Bool

    /// Parses a sort order such as `name`, `age desc` or `owner.name asc, age DESC`.
    static func parse(_ text: String) throws(KuraError) -> [SortKey] {
        var lexer = PredicateLexer(text, source: .sort)
        let tokens = try lexer.tokens()
        var position = 0
        func unexpected(_ expected: String) -> KuraError {
            let token = tokens[position]
            let found = token.kind == .end ? "the end of the sort order" : PredicateParser.describe(token)
            return KuraError.query(.syntax, "expected \(expected), found \(found)", in: .sort, column: token.column)
        }
        guard tokens[0].kind != .end else { throw KuraError.query(.syntax, "the sort order is empty", in: .sort, column: 1) }
        var keys: [SortKey] = []
        while true {
            var components: [PredicateKeyPath.Component] = []
            while true {
                let token = tokens[position]
                switch token.kind {
                case .identifier(let name): components.append(.init(name: name, isAggregate: false, column: token.column))
                case .aggregate(let name) where !components.isEmpty:
                    components.append(.init(name: name, isAggregate: true, column: token.column))
                default: throw unexpected(components.isEmpty ? "a key path" : "a property name after '.'")
                }
                position += 1
                guard tokens[position].kind == .symbol(".") else { break }
                position += 1
            }
            var ascending = true
            if case .identifier(let word) = tokens[position].kind {
                guard let direction = Self.isAscending(word) else { throw unexpected("ASC, DESC, ',' or the end") }
                ascending = direction
                position += 1
            }
            keys.append(SortKey(keyPath: PredicateKeyPath(components: components), ascending: ascending))
            switch tokens[position].kind {
            case .end: return keys
            case .symbol(","): position += 1
            default: throw unexpected("',' or the end of the sort order")
            }
        }
    }

    /// The one key of `text` (`name`, `owner.name desc`); refuses a list of keys.
    static func parseOne(_ text: String) throws(KuraError) -> SortKey {
        let keys = try parse(text)
        guard keys.count == 1, let key = keys.first else {
            throw KuraError.query(.syntax, "expected one key path, found '\(text)'", in: .sort, column: 1)
        }
        return key
    }

    /// Whether a direction word (`ASC`, `ascending`, `DESC`, …; any case) sorts ascending; nil for another word.
    static func isAscending(_ word: String) -> Bool? {
        switch PredicateLexer.keyword(word) {
        case "ASC", "ASCENDING": true
        case "DESC", "DESCENDING": false
        default: nil
        }
    }
}
