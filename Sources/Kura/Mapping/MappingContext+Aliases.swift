/// YAML aliases in value positions are expanded: the anchored node is mapped again. Expansion is
/// charged against `MappingOptions.maxAliasExpansion`, so a document whose aliases nest into an
/// exponential number of values (billion laughs) fails with one error after bounded work.
extension MappingContext {
    /// The node anchored as `name`, charging its size to the document's expansion budget; nil
    /// (after an error) when the anchor is unknown or the budget is spent.
    func expand(alias name: String, _ node: DocumentNode, path: @autoclosure () -> String) -> DocumentNode? {
        guard !expansionExceeded else { return nil }
        guard let target = anchors[name] else {
            fail(.invalidValue, node, path(), "unknown YAML alias '*\(name)'")
            return nil
        }
        let limit = options.maxAliasExpansion
        // Nested aliases are charged again when they are expanded in turn, so the total is the
        // number of values all expansions produce.
        expandedValues += Self.nodeCount(target, upTo: limit - expandedValues + 1)
        guard expandedValues <= limit else {
            expansionExceeded = true
            fail(.aliasExpansion, node, path(), "YAML aliases expand to more than \(Counted(limit, "value"))")
            return nil
        }
        return target
    }

    /// Registers every anchor in a subtree the mapper does not map (an ignored key's value), each
    /// where its node starts, as YAML defines them: later definitions of a name win.
    func registerAnchors(in root: DocumentNode) {
        var pending = [root]
        while let node = pending.popLast() {
            switch node.value {
            case .anchored(let name, let inner):
                anchors[name] = inner
                linkAnchors.remove(name)
                pending.append(inner)
            // Reversed, so nodes are visited in document order.
            case .array(let items): pending.append(contentsOf: items.reversed())
            case .object(let members): pending.append(contentsOf: members.reversed().lazy.map(\.value))
            default: break
            }
        }
    }

    /// The number of nodes in `root`'s tree (an alias counts as one), counting no further than `limit`.
    static func nodeCount(_ root: DocumentNode, upTo limit: Int) -> Int {
        var count = 0
        var pending = [root]
        while let node = pending.popLast(), count < limit {
            count += 1
            switch node.value {
            case .array(let items): pending.append(contentsOf: items)
            case .object(let members): pending.append(contentsOf: members.lazy.map(\.value))
            case .anchored(_, let inner): pending.append(inner)
            default: break
            }
        }
        return count
    }
}
