/// Key paths: names joined by `.`, with `@` operations and `[…]` subscripts.
extension PredicateParser {
    /// A key path at the current token: `dogs.age`, `nick['a']`, `dogs[LAST].name`, `$d.toys.@count`.
    mutating func parseKeyPath() throws(KuraError) -> PredicateKeyPath {
        var components: [PredicateKeyPath.Component] = []
        while true {
            switch current.kind {
            case .identifier(let name) where !(components.isEmpty && Self.reserved.contains(PredicateLexer.keyword(name))):
                components.append(.init(name: name, kind: .property, column: current.column))
            case .aggregate(let name) where !components.isEmpty || name == "links":
                components.append(.init(name: name, kind: .operation, column: current.column))
            case .variable(let name) where components.isEmpty:
                components.append(.init(name: name, kind: .variable, column: current.column))
            default:
                throw unexpected(components.isEmpty ? "a key path" : "a property name after '.'")
            }
            advance()
            while isSymbol("[") {
                let column = current.column
                advance()
                let key: String
                var kind = PredicateKeyPath.Component.Kind.key
                switch current.kind {
                case .string(let text): key = text
                case .bound(.string(let text)): key = text
                case .number(let text) where Int(text).map({ $0 >= 0 }) == true, .bound(.number(let text)) where Int(text).map({ $0 >= 0 }) == true:
                    key = text
                    kind = .index
                case .identifier(let word) where ["FIRST", "LAST", "SIZE"].contains(PredicateLexer.keyword(word)):
                    key = PredicateLexer.keyword(word)
                    kind = .index
                case .symbol("*"):
                    key = "*"
                    kind = .index
                default: throw unexpected("a key in quotes, a position, FIRST, LAST, SIZE or * inside '[ ]'")
                }
                advance()
                guard isSymbol("]") else { throw unexpected("']'") }
                advance()
                components.append(.init(name: key, kind: kind, column: column))
            }
            guard isSymbol(".") else { return PredicateKeyPath(components: components) }
            advance()
        }
    }

    /// Words that cannot start a key path (after a `.`, they are ordinary property names).
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "TRUEPREDICATE", "FALSEPREDICATE",
    ]
}
