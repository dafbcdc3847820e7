private typealias Rules = RealmRules

/// AND, OR, NOT and parentheses; sets and lists of values with ANY, ALL, NONE and IN; map entries,
/// `@keys`, `@values` and `@count`; mixed values compared by kind and their `@type`.
extension QueryTable {
    static let logic: [QueryCase] = [
        .person("age > 30 AND height > 1.8") { p, _ in p.age > 30 && Rules.compare(p.height, .greater, 1.8) },
        .person("age < 10 OR age > 80") { p, _ in p.age < 10 || p.age > 80 },
        .person("NOT (age > 30)") { p, _ in !(p.age > 30) },
        .person("!(name BEGINSWITH 'C')") { p, _ in !Rules.beginsWith(p.name, "C") },
        .person("age > 30 && (bestFriend == nil || tags.@count > 1)") { p, _ in
            p.age > 30 && (p.bestFriend == nil || p.tags.count > 1)
        },
        .person("NOT age > 30 OR height == nil") { p, _ in !(p.age > 30) || p.height == nil },
        .person("age > 60 OR age < 10 AND height > 1.8") { p, _ in p.age > 60 || (p.age < 10 && Rules.compare(p.height, .greater, 1.8)) },
        .person("(age > 60 OR age < 10) AND height > 1.8") { p, _ in (p.age > 60 || p.age < 10) && Rules.compare(p.height, .greater, 1.8) },
        .person("NOT (age > 20 AND NOT (height == nil))") { p, _ in !(p.age > 20 && p.height != nil) },
        .person("age > 30 and name beginswith[c] 'c'") { p, _ in p.age > 30 && Rules.beginsWith(p.name, "c", .caseless) },
        .person("TRUEPREDICATE") { _, _ in true },
        .person("FALSEPREDICATE") { _, _ in false },
        .person("((((age > 10))))") { p, _ in p.age > 10 },
        .person("NOT FALSEPREDICATE AND age > 80") { p, _ in p.age > 80 },
        .person("age > 80 || FALSEPREDICATE") { p, _ in p.age > 80 },
        .dog("age > 5 AND NOT toys.@count == 0") { d, _ in d.age > 5 && !d.toys.isEmpty },
    ]

    static let valueCollections: [QueryCase] = [
        .person("'red' IN tags") { p, _ in p.tags.contains("red") },
        .person("ANY tags == 'red'") { p, _ in p.tags.contains("red") },
        .person("tags ==[c] 'red'") { p, _ in p.tags.contains { Rules.equal($0, "red", .caseless) } },
        .person("ALL tags BEGINSWITH 'r'") { p, _ in p.tags.allSatisfy { Rules.beginsWith($0, "r") } },
        .person("NONE tags == 'vip'") { p, _ in !p.tags.contains("vip") },
        .person("tags.@count == 0") { p, _ in p.tags.isEmpty },
        .person("tags.@count >= 3") { p, _ in p.tags.count >= 3 },
        .person("tags.@size == 1") { p, _ in p.tags.count == 1 },
        .person("ANY tags IN {'vip', 'green'}") { p, _ in p.tags.contains { ["vip", "green"].contains($0) } },
        .person("ANY tags IN[c] {'RED', 'Vip'}") { p, _ in
            p.tags.contains { Rules.equal($0, "red", .caseless) || Rules.equal($0, "vip", .caseless) }
        },
        .person("tags CONTAINS[d] 'neon'") { p, _ in p.tags.contains { Rules.contains($0, "neon", .diacriticless) } },
        .person("ANY scores > 90") { p, _ in p.scores.contains { $0 > 90 } },
        .person("ALL scores >= 0") { p, _ in p.scores.allSatisfy { $0 >= 0 } },
        .person("NONE scores < 0") { p, _ in !p.scores.contains { $0 < 0 } },
        .person("scores == 5") { p, _ in p.scores.contains(5) },
        .person("5 IN scores") { p, _ in p.scores.contains(5) },
        .person("scores.@count == 0") { p, _ in p.scores.isEmpty },
        .person("ANY scores BETWEEN {40, 45}") { p, _ in p.scores.contains { (40...45).contains($0) } },
    ]

    static let maps: [QueryCase] = [
        .person("nick['a'] == 'x'") { p, _ in p.nick("a") == "x" },
        .person("nick['a'] == nil") { p, _ in p.nick("a") == nil },
        .person("nick['a'] != 'x'") { p, _ in p.nick("a") != "x" },
        .person("nick[\"home\"] BEGINSWITH[c] 'b'") { p, _ in Rules.beginsWith(p.nick("home"), "b", .caseless) },
        .person("nick['work'] ==[cd] 'zoe'") { p, _ in Rules.equal(p.nick("work"), "zoe", .both) },
        .person("nick['a'] IN {'x', 'annie'}") { p, _ in ["x", "annie"].contains(p.nick("a")) },
        .person("nick['b'] == nick['a']") { p, _ in p.nick("b") == p.nick("a") },
        .person("nick.@keys == 'work'") { p, _ in p.nickKeys.contains("work") },
        .person("ANY nick.@keys == 'a' AND ANY nick.@keys == 'b'") { p, _ in p.nickKeys.contains("a") && p.nickKeys.contains("b") },
        .person("ALL nick.@values == 'x'") { p, _ in p.nickValues.allSatisfy { $0 == "x" } },
        .person("NONE nick.@values CONTAINS[c] 'o'") { p, _ in !p.nickValues.contains { Rules.contains($0, "o", .caseless) } },
        .person("nick.@values ==[d] 'zoe'") { p, _ in p.nickValues.contains { Rules.equal($0, "zoe", .diacriticless) } },
        .person("nick == ''") { p, _ in p.nickValues.contains("") },
        .person("'x' IN nick") { p, _ in p.nickValues.contains("x") },
        .person("nick.@keys ==[c] 'HOME'") { p, _ in p.nickKeys.contains { Rules.equal($0, "HOME", .caseless) } },
        .person("ALL nick.@keys IN {'a', 'b'}") { p, _ in p.nickKeys.allSatisfy { ["a", "b"].contains($0) } },
        .person("nick.@values LIKE '*a*'") { p, _ in p.nickValues.contains { Rules.like($0, "*a*") } },
        .person("nick.@count == 0") { p, _ in p.nick.isEmpty },
        .person("nick.@count >= 3") { p, _ in p.nick.count >= 3 },
        .person("nick.@size == 2") { p, _ in p.nick.count == 2 },
    ]

    static let mixedValues: [QueryCase] = [
        .person("extra == nil") { p, _ in p.extraValue == .null },
        .person("extra != nil") { p, _ in p.extraValue != .null },
        .person("extra == true") { p, _ in p.extraValue == .bool(true) },
        .person("extra == false") { p, _ in p.extraValue == .bool(false) },
        .person("extra == 5") { p, _ in Rules.mixedEqual(p.extraValue, .int(5)) },
        .person("extra == 5.0") { p, _ in Rules.mixedEqual(p.extraValue, .double(5)) },
        .person("extra != 5") { p, _ in !Rules.mixedEqual(p.extraValue, .int(5)) },
        .person("extra > 20") { p, _ in Rules.mixedCompare(p.extraValue, .greater, .int(20)) },
        .person("extra < 0") { p, _ in Rules.mixedCompare(p.extraValue, .less, .int(0)) },
        .person("extra == 'Hello'") { p, _ in Rules.mixedEqual(p.extraValue, .string("Hello")) },
        .person("extra == '5'") { p, _ in Rules.mixedEqual(p.extraValue, .string("5")) },
        .person("extra ==[c] 'hello'") { p, _ in
            if case .string(let text) = p.extraValue { Rules.equal(text, "hello", .caseless) } else { false }
        },
        .person("extra ==[cd] 'HELLO'") { p, _ in
            if case .string(let text) = p.extraValue { Rules.equal(text, "HELLO", .both) } else { false }
        },
        .person("extra BEGINSWITH 'H'") { p, _ in
            if case .string(let text) = p.extraValue { Rules.beginsWith(text, "H") } else { false }
        },
        .person("extra CONTAINS[c] 'ell'") { p, _ in
            if case .string(let text) = p.extraValue { Rules.contains(text, "ell", .caseless) } else { false }
        },
        .person("extra LIKE 'H*'") { p, _ in
            if case .string(let text) = p.extraValue { Rules.like(text, "H*") } else { false }
        },
        .person("extra > 2024-01-01@00:00:00") { p, _ in
            Rules.mixedCompare(p.extraValue, .greater, .date(milliseconds: QueryDates.milliseconds(2024, 1, 1)))
        },
        .person("extra IN {5, 'hello', true}") { p, _ in
            [QueryGraph.Mixed.int(5), .string("hello"), .bool(true)].contains { Rules.mixedEqual(p.extraValue, $0) }
        },
        .person("extra BETWEEN {0, 10}") { p, _ in Rules.number(p.extraValue).map { (0...10).contains($0) } ?? false },
        .person("extra == 2024-01-01@10:00:00") { p, _ in p.extraValue == .date(milliseconds: QueryDates.milliseconds(2024, 1, 1, 10)) },
        .person("extra > 'G'") { p, _ in Rules.mixedCompare(p.extraValue, .greater, .string("G")) },
        .person("extras == extra") { p, _ in p.extras.contains { Rules.mixedEqual($0, p.extraValue) } },
        .person("extras[1] > 10") { p, _ in p.extras.count > 1 && Rules.mixedCompare(p.extras[1], .greater, .int(10)) },
        .person("extra.@type == 'int'") { p, _ in Rules.isType(p.extraValue, "int") },
        .person("extra.@type == 'double'") { p, _ in Rules.isType(p.extraValue, "double") },
        .person("extra.@type == 'decimal'") { p, _ in Rules.isType(p.extraValue, "decimal") },
        .person("extra.@type == 'string'") { p, _ in Rules.isType(p.extraValue, "string") },
        .person("extra.@type == 'bool'") { p, _ in Rules.isType(p.extraValue, "bool") },
        .person("extra.@type == 'date'") { p, _ in Rules.isType(p.extraValue, "date") },
        .person("extra.@type == 'objectId'") { p, _ in Rules.isType(p.extraValue, "objectId") },
        .person("extra.@type == 'uuid'") { p, _ in Rules.isType(p.extraValue, "uuid") },
        .person("extra.@type == 'binary'") { p, _ in Rules.isType(p.extraValue, "binary") },
        .person("extra.@type == 'data'") { p, _ in Rules.isType(p.extraValue, "data") },
        .person("extra.@type == 'link'") { p, _ in Rules.isType(p.extraValue, "link") },
        .person("extra.@type == 'objectlink'") { p, _ in Rules.isType(p.extraValue, "objectlink") },
        .person("extra.@type == 'null'") { p, _ in Rules.isType(p.extraValue, "null") },
        .person("extra.@type == 'numeric'") { p, _ in Rules.isType(p.extraValue, "numeric") },
        .person("extra.@type == 'list'") { p, _ in Rules.isType(p.extraValue, "list") },
        .person("extra.@type == 'array'") { p, _ in Rules.isType(p.extraValue, "array") },
        .person("extra.@type == 'dictionary'") { p, _ in Rules.isType(p.extraValue, "dictionary") },
        .person("extra.@type == 'object'") { p, _ in Rules.isType(p.extraValue, "object") },
        .person("extra.@type == 'collection'") { p, _ in Rules.isType(p.extraValue, "collection") },
        .person("extra.@type IN {'int', 'double'}") { p, _ in Rules.isType(p.extraValue, "int") || Rules.isType(p.extraValue, "double") },
        .person("extra.@type != 'null'") { p, _ in !Rules.isType(p.extraValue, "null") },
        .person("ANY extras.@type IN {'bool', 'date'}") { p, _ in
            p.extras.contains { Rules.isType($0, "bool") || Rules.isType($0, "date") }
        },
        .person("ANY extras.@type == 'date'") { p, _ in p.extras.contains { Rules.isType($0, "date") } },
        .person("ALL extras.@type == 'numeric'") { p, _ in p.extras.allSatisfy { Rules.isType($0, "numeric") } },
        .person("ANY extras == 'abc'") { p, _ in p.extras.contains { Rules.mixedEqual($0, .string("abc")) } },
        .person("ANY extras BEGINSWITH 'a'") { p, _ in
            p.extras.contains { if case .string(let text) = $0 { Rules.beginsWith(text, "a") } else { false } }
        },
        .person("ANY extras ==[c] 'HELLO'") { p, _ in
            p.extras.contains { if case .string(let text) = $0 { Rules.equal(text, "HELLO", .caseless) } else { false } }
        },
        .person("extras == nil") { p, _ in p.extras.contains(.null) },
        .person("ANY extras > 50") { p, _ in p.extras.contains { Rules.mixedCompare($0, .greater, .int(50)) } },
        .person("NONE extras == true") { p, _ in !p.extras.contains(.bool(true)) },
    ]
}
