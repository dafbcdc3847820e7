private typealias Rules = RealmRules

/// SORT, DISTINCT and LIMIT after the predicate, whose answers are compared in order, and `$0`,
/// `$1` … bound to values.
extension QueryTable {
    static let ordering: [QueryCase] = [
        .ordered("Person", "age > 50 SORT(age DESC, id ASC) LIMIT(5)") { g in
            sorted(g.people.filter { $0.age > 50 }, by: { [descending($0.age, $1.age)] }).prefix(5).map(\.id)
        },
        .ordered("Person", "TRUEPREDICATE SORT(age ASC, id ASC) SORT(height DESC) LIMIT(6)") { g in
            sorted(g.people, by: { [descending($0.height, $1.height), ascending($0.age, $1.age)] }).prefix(6).map(\.id)
        },
        .ordered("Person", "TRUEPREDICATE SORT(height ASC, id ASC) LIMIT(8)") { g in
            sorted(g.people, by: { [ascending($0.height, $1.height)] }).prefix(8).map(\.id)
        },
        .ordered("Person", "TRUEPREDICATE SORT(id ASC) DISTINCT(age) SORT(age DESC) LIMIT(6)") { g in
            var seen: Set<Int> = []
            let firstOfEachAge = g.people.sorted { $0.id < $1.id }.filter { seen.insert($0.age).inserted }
            return sorted(firstOfEachAge, by: { [descending($0.age, $1.age)] }).prefix(6).map(\.id)
        },
        .ordered("Person", "born != nil SORT(born DESC, id DESC) LIMIT(5)") { g in
            sorted(g.people.filter { $0.born != nil }, by: { [descending($0.born, $1.born), descending($0.id, $1.id)] })
                .prefix(5).map(\.id)
        },
        .ordered("Person", "budget != nil SORT(budget ASC, id ASC) LIMIT(5)") { g in
            sorted(g.people.filter { $0.budgetCents != nil }, by: { [ascending($0.budgetCents, $1.budgetCents)] }).prefix(5).map(\.id)
        },
        .ordered("Person", "bestFriend != nil SORT(bestFriend.age DESC, id ASC) LIMIT(6)") { g in
            sorted(g.people.filter { $0.bestFriend != nil }, by: { [descending(g.bestFriend(of: $0)?.age, g.bestFriend(of: $1)?.age)] })
                .prefix(6).map(\.id)
        },
        .ordered("Person", "height == nil SORT(born ASC, id ASC)") { g in
            sorted(g.people.filter { $0.height == nil }, by: { [ascending($0.born, $1.born)] }).map(\.id)
        },
        .ordered("Person", "dogs.@count > 0 SORT(id DESC) LIMIT(3)") { g in
            g.people.filter { !$0.dogs.isEmpty }.map(\.id).sorted(by: >).prefix(3).map { $0 }
        },
        .ordered("Person", "TRUEPREDICATE SORT(height DESC, id ASC) LIMIT(14)") { g in
            sorted(g.people, by: { [descending($0.height, $1.height)] }).prefix(14).map(\.id)
        },
        .ordered("Person", "TRUEPREDICATE SORT(extra ASC, id ASC)") { g in
            sorted(g.people, by: { [mixedAscending($0.extraValue, $1.extraValue)] }).map(\.id)
        },
        .ordered("Person", "TRUEPREDICATE SORT(id DESC) DISTINCT(address.city)") { g in
            var seen: Set<[UInt8]?> = []
            return g.people.sorted { $0.id > $1.id }.filter { seen.insert($0.address?.city.map { Array($0.utf8) }).inserted }.map(\.id)
        },
        .ordered("Dog", "TRUEPREDICATE SORT(age ASC, id DESC) LIMIT(10)") { g in
            g.dogs.sorted { ($0.age, $1.id) < ($1.age, $0.id) }.prefix(10).map(\.id)
        },
        .ordered("Dog", "TRUEPREDICATE SORT(id ASC) DISTINCT(name)") { g in
            var seen: Set<[UInt8]> = []
            return g.dogs.sorted { $0.id < $1.id }.filter { seen.insert(Array($0.name.utf8)).inserted }.map(\.id)
        },
        .ordered("Toy", "price > 5 SORT(price DESC, id ASC)") { g in
            g.toys.filter { $0.price > 5 }.sorted { ($1.price, $0.id) < ($0.price, $1.id) }.map(\.id)
        },
        .ordered("Toy", "TRUEPREDICATE SORT(cost ASC, id ASC)") { g in
            g.toys.sorted { ascending($0.costCents, $1.costCents) ?? ($0.id < $1.id) }.map(\.id)
        },
    ]

    static let arguments: [QueryCase] = [
        .person("age > $0 AND name BEGINSWITH $1", [.int(40), .string("C")]) { p, _ in p.age > 40 && Rules.beginsWith(p.name, "C") },
        .person("name ==[cd] $0", [.string("celine")]) { p, _ in Rules.equal(p.name, "celine", .both) },
        .person("age IN $0", [.list([.int(7), .int(38), .int(49)])]) { p, _ in [7, 38, 49].contains(p.age) },
        .person("born > $0", [.date(milliseconds: QueryDates.milliseconds(2024, 1, 1, 10))]) { p, _ in
            Rules.compare(p.born, .greater, QueryDates.milliseconds(2024, 1, 1, 10))
        },
        .person("nick[$0] == $1", [.string("a"), .string("x")]) { p, _ in p.nick("a") == "x" },
        .person("height == $0", [.null]) { p, _ in p.height == nil },
        .toy("price BETWEEN {$0, $1}", [.int(5), .double(10.5)]) { t, _ in (5...10.5).contains(t.price) },
    ]

    /// Whether `left` comes before `right` in Realm's ascending order, null first; `nil` for a tie.
    private static func ascending<Value: Comparable>(_ left: Value?, _ right: Value?) -> Bool? {
        switch (left, right) {
        case (nil, nil): nil
        case (nil, _): true
        case (_, nil): false
        case (let left?, let right?): left == right ? nil : left < right
        }
    }

    /// Realm's descending order: the ascending one reversed, so null comes last.
    private static func descending<Value: Comparable>(_ left: Value?, _ right: Value?) -> Bool? {
        ascending(right, left)
    }

    /// Realm's order of mixed values: by kind (null, bool, numbers, string, data, date, object id,
    /// uuid, link, list, map), then by value within a kind; `nil` for a tie.
    private static func mixedAscending(_ left: QueryGraph.Mixed, _ right: QueryGraph.Mixed) -> Bool? {
        func rank(_ value: QueryGraph.Mixed) -> Int {
            switch value {
            case .null: 0
            case .bool: 1
            case .int, .double, .decimal: 2
            case .string: 3
            case .binary: 4
            case .date: 5
            case .objectId: 6
            case .uuid: 7
            case .dog: 8
            case .list: 9
            case .map: 10
            }
        }
        if rank(left) != rank(right) { return rank(left) < rank(right) }
        switch (left, right) {
        case (.bool(let first), .bool(let second)): return first == second ? nil : !first
        case (.string(let first), .string(let second)), (.objectId(let first), .objectId(let second)),
            (.uuid(let first), .uuid(let second)):
            return first.utf8.elementsEqual(second.utf8) ? nil : Array(first.utf8).lexicographicallyPrecedes(second.utf8)
        case (.binary(let first), .binary(let second)): return first == second ? nil : first.lexicographicallyPrecedes(second)
        case (.date(let first), .date(let second)): return ascending(first, second)
        case (.dog(let first), .dog(let second)): return ascending(first, second)
        default: return ascending(RealmRules.number(left), RealmRules.number(right))
        }
    }

    /// `items` ordered by `keys` (each a comparison that may tie), then by primary key.
    private static func sorted<Item: Identifiable>(_ items: [Item], by comparisons: (Item, Item) -> [Bool?]) -> [Item]
    where Item.ID == Int {
        items.sorted { left, right in comparisons(left, right).lazy.compactMap { $0 }.first ?? (left.id < right.id) }
    }
}
