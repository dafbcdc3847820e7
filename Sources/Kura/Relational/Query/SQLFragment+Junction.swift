/// How conditions joined by AND or OR are written, so that SQLite can read any number of them.
///
/// SQLite's parser reads `a OR b OR c` into a tree as high as the list is long, and holds
/// `expr OR (` on its stack for each parenthesized part that is not first; its expression tree may
/// be at most `SQLiteLimits.expressionDepth` high, and the stack of SQLite 3.40 holds 100 entries.
/// Long lists are therefore written as runs of at most `groupSize` parts, runs of runs above that
/// (height and stack grow with the logarithm of the length), and a part that nests deeply goes
/// first in its run, where the parser holds least for it.
extension SQLFragment {
    /// The parts in one parenthesized run at most.
    static let groupSize = 64
    /// How many parts that are themselves junctions lead a run laid out deep-first; any more are
    /// grouped after them.
    static let leadingJunctions = 8
    /// Above these estimates, `joined` lays its parts out deep-first.
    static let reorderingDepth = 40
    static let reorderingHeight = 200

    /// The parts joined by `connective` (`AND` or `OR`), in parentheses.
    ///
    /// Parts stay in the written order (cheap tests first, as users write them) unless that would
    /// nest deeply; then the parts that are junctions go first, deepest first, and the single
    /// comparisons follow in one group, in their written order. AND and OR have no side effects:
    /// the result is the same in any order.
    static func joined(_ parts: [SQLFragment], by connective: String) -> SQLFragment {
        guard parts.count > 1 else { return parts.first ?? SQLFragment(connective == "AND" ? "1" : "0") }
        let written = grouped(parts, by: connective)
        guard written.parserDepth > reorderingDepth || written.height > reorderingHeight,
            parts.contains(where: \.isJunction)
        else { return written }
        let junctions = parts.enumerated().filter(\.element.isJunction)
            .sorted { ($1.element.parserDepth, $0.offset) < ($0.element.parserDepth, $1.offset) }
            .map(\.element)
        let comparisons = parts.filter { !$0.isJunction }
        var items = junctions
        if !comparisons.isEmpty { items.append(grouped(comparisons, by: connective)) }
        if items.count > leadingJunctions {
            let rest = Array(items[(leadingJunctions - 1)...])
            items = Array(items.prefix(leadingJunctions - 1)) + [grouped(rest, by: connective)]
        }
        return run(items, by: connective)
    }

    /// The parts in runs of at most `groupSize`, and runs of runs, in order: no recursion, and a
    /// tree whose height grows with the logarithm of the count.
    static func grouped(_ parts: [SQLFragment], by connective: String) -> SQLFragment {
        var level = parts
        while level.count > 1 {
            var next: [SQLFragment] = []
            next.reserveCapacity((level.count + groupSize - 1) / groupSize)
            var start = 0
            while start < level.count {
                let end = min(start + groupSize, level.count)
                next.append(end - start == 1 ? level[start] : run(level[start..<end], by: connective))
                start = end
            }
            level = next
        }
        return level.first ?? SQLFragment(connective == "AND" ? "1" : "0")
    }

    /// `(a connective b connective …)`, with the estimates of SQLite reading it: the first part
    /// lies lowest in the tree (SQLite builds the list from the left), later parts cost the parser
    /// two more entries.
    private static func run(_ items: some Collection<SQLFragment>, by connective: String) -> SQLFragment {
        var result = SQLFragment("(")
        result.sql.reserveCapacity(items.reduce(2) { $0 + $1.sql.utf8.count + connective.utf8.count + 2 })
        result.arguments.reserveCapacity(items.reduce(0) { $0 + $1.arguments.count })
        let count = items.count
        var depth = 0
        var height = 0
        var column: Int?
        for (offset, item) in items.enumerated() {
            if offset > 0 { result.sql += " \(connective) " }
            result.sql += item.sql
            result.arguments += item.arguments
            let itemDepth = item.parserDepth + (offset > 0 ? 2 : 0)
            if itemDepth > depth || column == nil { column = item.column ?? column }
            depth = max(depth, itemDepth)
            height = max(height, item.height + (offset == 0 ? count - 1 : count - offset))
        }
        result.sql += ")"
        result.parserDepth = depth + 1
        result.height = height
        result.isJunction = true
        result.column = column
        return result
    }
}
