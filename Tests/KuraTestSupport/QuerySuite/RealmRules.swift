import Foundation

/// Realm Query Language's rules for the expected answers, in plain Swift: how null compares, how
/// `[c]` and `[d]` fold strings, how `LIKE` matches, what aggregates give, which values are numbers
/// and what `@type` calls each mixed value. As docs/queries.md says: strings compare byte for byte,
/// `x != 3` holds when `x` is null, two nulls are equal, `@sum` of nothing is 0 and `@avg`, `@min`,
/// `@max` of nothing are null, and of mixed values only the numbers count.
package enum RealmRules {
    package enum Comparison: Sendable { case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual }

    /// How a string operator treats case (`[c]`) and diacritics (`[d]`).
    package struct Folding: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let caseless = Folding(rawValue: 1)
        package static let diacriticless = Folding(rawValue: 2)
        package static let exact: Folding = []
        package static let both: Folding = [.caseless, .diacriticless]
    }

    /// `left OP right` where either may be null: only `==` and `!=` hold with a null side.
    package static func compare<Value: Comparable>(_ left: Value?, _ comparison: Comparison, _ right: Value?) -> Bool {
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        default:
            guard let left, let right else { return false }
            switch comparison {
            case .less: return left < right
            case .lessOrEqual: return left <= right
            case .greater: return left > right
            default: return left >= right
            }
        }
    }

    /// The string's UTF-8 bytes after folding: diacritics go by decomposing and dropping combining
    /// marks, case by lowercasing.
    package static func folded(_ text: String, _ folding: Folding) -> [UInt8] {
        var result = text
        if folding.contains(.diacriticless) {
            let marks = 0x0300...0x036F
            let kept = result.decomposedStringWithCanonicalMapping.unicodeScalars.filter { !marks.contains(Int($0.value)) }
            result = String(String.UnicodeScalarView(kept))
        }
        if folding.contains(.caseless) { result = result.lowercased() }
        return Array(result.utf8)
    }

    package static func equal(_ text: String?, _ other: String?, _ folding: Folding = .exact) -> Bool {
        guard let text, let other else { return text == nil && other == nil }
        return folded(text, folding) == folded(other, folding)
    }

    package static func beginsWith(_ text: String?, _ prefix: String, _ folding: Folding = .exact) -> Bool {
        guard let text else { return false }
        return folded(text, folding).starts(with: folded(prefix, folding))
    }

    package static func endsWith(_ text: String?, _ suffix: String, _ folding: Folding = .exact) -> Bool {
        guard let text else { return false }
        return folded(text, folding).reversed().starts(with: folded(suffix, folding).reversed())
    }

    package static func contains(_ text: String?, _ part: String, _ folding: Folding = .exact) -> Bool {
        guard let text else { return false }
        let bytes = folded(text, folding)
        let needle = folded(part, folding)
        if needle.isEmpty { return true }
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// `LIKE`: `*` matches any run of characters, `?` exactly one.
    package static func like(_ text: String?, _ pattern: String, _ folding: Folding = .exact) -> Bool {
        guard let text else { return false }
        let value = Array(String(decoding: folded(text, folding), as: UTF8.self).unicodeScalars)
        let wild = Array(String(decoding: folded(pattern, folding), as: UTF8.self).unicodeScalars)
        // matches[i][j]: the first i pattern scalars match the first j value scalars.
        var matches = Array(repeating: Array(repeating: false, count: value.count + 1), count: wild.count + 1)
        matches[0][0] = true
        for i in 1...max(1, wild.count) where i <= wild.count {
            for j in 0...value.count {
                switch wild[i - 1] {
                case "*": matches[i][j] = matches[i - 1][j] || (j > 0 && matches[i][j - 1])
                case "?": matches[i][j] = j > 0 && matches[i - 1][j - 1]
                default: matches[i][j] = j > 0 && matches[i - 1][j - 1] && wild[i - 1] == value[j - 1]
                }
            }
        }
        return matches[wild.count][value.count]
    }

    /// Byte order, as strings sort and compare with `<` and `>`.
    package static func precedes(_ text: String, _ other: String) -> Bool {
        Array(text.utf8).lexicographicallyPrecedes(other.utf8)
    }

    /// `name.@size`: the bytes of the string.
    package static func size(_ text: String) -> Int { text.utf8.count }

    package static func sum(_ numbers: [Double]) -> Double { numbers.reduce(0, +) }
    package static func average(_ numbers: [Double]) -> Double? { numbers.isEmpty ? nil : sum(numbers) / Double(numbers.count) }
    package static func sum(_ numbers: [Int]) -> Int { numbers.reduce(0, +) }
    package static func average(_ numbers: [Int]) -> Double? { average(numbers.map(Double.init)) }

    /// The number a mixed value holds, if it holds one: ints, doubles and decimals.
    package static func number(_ value: QueryGraph.Mixed) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        case .decimal(let cents): Double(cents) / 100
        default: nil
        }
    }

    /// `mixed == literal`: numbers of any kind by value, other kinds only with their own kind.
    package static func mixedEqual(_ value: QueryGraph.Mixed, _ literal: QueryGraph.Mixed) -> Bool {
        if let left = number(value), let right = number(literal) { return left == right }
        if case .string(let text) = value, case .string(let other) = literal { return equal(text, other) }
        return value == literal
    }

    /// `mixed OP literal` for an ordering: numbers with numbers, strings with strings, dates with
    /// dates; other pairs never hold.
    package static func mixedCompare(_ value: QueryGraph.Mixed, _ comparison: Comparison, _ literal: QueryGraph.Mixed) -> Bool {
        switch comparison {
        case .equal: return mixedEqual(value, literal)
        case .notEqual: return !mixedEqual(value, literal)
        default: break
        }
        if let left = number(value), let right = number(literal) { return compare(left, comparison, right) }
        if case .date(let time) = value, case .date(let other) = literal { return compare(time, comparison, other) }
        if case .string(let text) = value, case .string(let other) = literal {
            let order = precedes(text, other) ? -1 : precedes(other, text) ? 1 : 0
            return compare(order, comparison, 0)
        }
        return false
    }

    /// The names `@type` gives a mixed value: its own, and the group names that take it in.
    package static func typeNames(_ value: QueryGraph.Mixed) -> Set<String> {
        switch value {
        case .null: ["null"]
        case .bool: ["bool", "boolean"]
        case .int: ["int", "integer", "long", "numeric"]
        case .double: ["double", "numeric"]
        case .decimal: ["decimal", "decimal128", "numeric"]
        case .string: ["string"]
        case .date: ["date", "timestamp"]
        case .objectId: ["objectid"]
        case .uuid: ["uuid", "guid"]
        case .binary: ["binary", "data"]
        case .dog: ["link", "objectlink"]
        case .list: ["list", "array", "collection"]
        case .map: ["dictionary", "object", "collection"]
        }
    }

    /// `value.@type == name`, the name read without regard to case.
    package static func isType(_ value: QueryGraph.Mixed, _ name: String) -> Bool {
        typeNames(value).contains(name.lowercased())
    }
}
