private typealias Rules = RealmRules

/// Backlinks (declared `owners` and `@links.Type.property`, and `@links.@count`), list positions,
/// arithmetic, and embedded objects alone and in lists.
extension QueryTable {
    static let backlinks: [QueryCase] = [
        .dog("owners.@count == 0") { d, g in g.owners(of: d).isEmpty },
        .dog("owners.@count >= 3") { d, g in g.owners(of: d).count >= 3 },
        .dog("ANY owners.name ==[cd] 'celine'") { d, g in g.owners(of: d).contains { Rules.equal($0.name, "celine", .both) } },
        .dog("owners.age > 80") { d, g in g.owners(of: d).contains { $0.age > 80 } },
        .dog("ALL owners.age > 30") { d, g in g.owners(of: d).allSatisfy { $0.age > 30 } },
        .dog("NONE owners.age < 18") { d, g in !g.owners(of: d).contains { $0.age < 18 } },
        .dog("owners.bestFriend.name == 'Bob'") { d, g in g.owners(of: d).contains { g.bestFriend(of: $0)?.name == "Bob" } },
        .dog("owners.address.city == 'Oslo'") { d, g in g.owners(of: d).contains { Rules.equal($0.address?.city, "Oslo") } },
        .dog("@links.Person.dogs.address.city == 'Bergen'") { d, g in
            g.owners(of: d).contains { Rules.equal($0.address?.city, "Bergen") }
        },
        .dog("ANY owners.dogs.id == id") { d, g in !g.owners(of: d).isEmpty },
        .dog("@links.Person.dogs.@count == 0") { d, g in g.owners(of: d).isEmpty },
        .dog("@links.Person.dogs.name BEGINSWITH[c] 'z'") { d, g in
            g.owners(of: d).contains { Rules.beginsWith($0.name, "z", .caseless) }
        },
        .dog("@links.@count >= 3") { d, g in g.linkCount(of: d) >= 3 },
        .dog("@links.@count == 0") { d, g in g.linkCount(of: d) == 0 },
        .dog("owners.@count != @links.@count") { d, g in g.owners(of: d).count != g.linkCount(of: d) },
        .person("bestFriend.extra == extra") { p, g in keyPathsEqual(p.extraValue, g.bestFriend(of: p)?.extraValue ?? .null) },
        .person("extra == bestFriend.height") { p, g in keyPathsEqual(p.extraValue, g.bestFriend(of: p)?.height.map { .double($0) } ?? .null) },
        .person("@links.Person.bestFriend.@count == 0") { p, g in g.admirers(of: p).isEmpty },
        .person("@links.Person.bestFriend.@count >= 2") { p, g in g.admirers(of: p).count >= 2 },
        .person("ANY @links.Person.bestFriend.id == id") { p, _ in p.bestFriend == p.id },
        .person("@links.@count >= 2") { p, g in g.admirers(of: p).count >= 2 },
        .person("@links.Person.bestFriend.age > 80") { p, g in g.admirers(of: p).contains { $0.age > 80 } },
        .toy("@links.Dog.toys.@count == 0") { t, g in g.holders(of: t).isEmpty },
        .toy("@links.Dog.toys.@count >= 4") { t, g in g.holders(of: t).count >= 4 },
        .toy("@links.@count == 0") { t, g in g.holders(of: t).isEmpty },
        .toy("@links.@count > 2") { t, g in g.holders(of: t).count > 2 },
        .toy("ANY @links.Dog.toys.age > 12") { t, g in g.holders(of: t).contains { $0.age > 12 } },
        .toy("ALL @links.Dog.toys.age < 10") { t, g in g.holders(of: t).allSatisfy { $0.age < 10 } },
        .toy("@links.Dog.toys.owners.name ==[cd] 'zoe'") { t, g in
            g.holders(of: t).flatMap(g.owners(of:)).contains { Rules.equal($0.name, "zoe", .both) }
        },
    ]

    static let positions: [QueryCase] = [
        .person("scores[0] > 50") { p, _ in Rules.compare(p.scores.first, .greater, 50) },
        .person("scores[FIRST] == scores[LAST]") { p, _ in p.scores.first == p.scores.last },
        .person("scores[LAST] < 0") { p, _ in Rules.compare(p.scores.last, .less, 0) },
        .person("scores[SIZE] == 3") { p, _ in p.scores.count == 3 },
        .person("scores[2] == nil") { p, _ in p.scores.count < 3 },
        .person("scores[1] > 10") { p, _ in Rules.compare(p.scores.element(at: 1), .greater, 10) },
        .person("ANY scores[*] > 95") { p, _ in p.scores.contains { $0 > 95 } },
        .person("dogs[0].name ==[c] 'rex'") { p, g in Rules.equal(g.dogs(of: p).first?.name, "rex", .caseless) },
        .person("dogs[FIRST].age > 10") { p, g in Rules.compare(g.dogs(of: p).first?.age, .greater, 10) },
        .person("dogs[LAST].age == 0") { p, g in g.dogs(of: p).last?.age == 0 },
        .person("dogs[SIZE] >= 3") { p, _ in p.dogs.count >= 3 },
        .person("dogs[1].age == nil") { p, _ in p.dogs.count < 2 },
        .person("ANY dogs[*].age == 3") { p, g in g.dogs(of: p).contains { $0.age == 3 } },
        .person("extras[0] == nil") { p, _ in (p.extras.first ?? .null) == .null },
        .person("extras[LAST].@type == 'string'") { p, _ in p.extras.last.map { Rules.isType($0, "string") } ?? false },
        .dog("toys[0].name ==[c] 'ball'") { d, g in Rules.equal(g.toys(of: d).first?.name, "ball", .caseless) },
        .dog("toys[LAST].price > 20") { d, g in Rules.compare(g.toys(of: d).last?.price, .greater, 20) },
        .dog("toys[SIZE] == 2") { d, _ in d.toys.count == 2 },
    ]

    static let arithmetic: [QueryCase] = [
        .person("age * 2 > 100") { p, _ in p.age * 2 > 100 },
        .person("age + 10 == 50") { p, _ in p.age + 10 == 50 },
        .person("age * -1 > -10") { p, _ in p.age * -1 > -10 },
        .person("age - 5 < 0") { p, _ in p.age - 5 < 0 },
        .person("age / 10 == 3") { p, _ in p.age / 10 == 3 },
        .person("age / 10.0 > 3.5") { p, _ in Double(p.age) / 10 > 3.5 },
        .person("height * 100 > 180") { p, _ in p.height.map { $0 * 100 > 180 } ?? false },
        .person("height * 2 == 3.7") { p, _ in p.height.map { $0 * 2 == 3.7 } ?? false },
        .person("height * 2 != 3.7") { p, _ in p.height.map { $0 * 2 != 3.7 } ?? true },
        .person("scores.@max - scores.@min > 50") { p, _ in (p.scores.max() ?? 0) - (p.scores.min() ?? 0) > 50 },
        .person("dogs.@count + tags.@count == 0") { p, _ in p.dogs.count + p.tags.count == 0 },
        .person("scores.@sum / 2 > age") { p, _ in Rules.sum(p.scores) / 2 > p.age },
        .person("age > (1 + 2) * 10") { p, _ in p.age > 30 },
        .person("80 - age > 45") { p, _ in 80 - p.age > 45 },
        .person("age + bestFriend.age > 100") { p, g in g.bestFriend(of: p).map { $0.age + p.age > 100 } ?? false },
        .person("ANY dogs.age * 10 > age") { p, g in g.dogs(of: p).contains { $0.age * 10 > p.age } },
        .person("dogs.@sum.age * 3 >= age") { p, g in Rules.sum(g.dogs(of: p).map(\.age)) * 3 >= p.age },
        .dog("age * age > 100") { d, _ in d.age * d.age > 100 },
        .toy("price * 2 >= 30") { t, _ in t.price * 2 >= 30 },
        .toy("price - 5 < 0") { t, _ in t.price - 5 < 0 },
    ]

    static let embedded: [QueryCase] = [
        .person("address == nil") { p, _ in p.address == nil },
        .person("address != nil") { p, _ in p.address != nil },
        .person("address.city == 'Oslo'") { p, _ in Rules.equal(p.address?.city, "Oslo") },
        .person("address.city ==[c] 'oslo'") { p, _ in Rules.equal(p.address?.city, "oslo", .caseless) },
        .person("address.city == nil") { p, _ in p.address?.city == nil },
        .person("address.zip > 5000") { p, _ in Rules.compare(p.address?.zip, .greater, 5000) },
        .person("address.zip BETWEEN {1000, 2999}") { p, _ in p.address?.zip.map { (1000...2999).contains($0) } ?? false },
        .person("address.city BEGINSWITH[d] 'Zu'") { p, _ in Rules.beginsWith(p.address?.city, "Zu", .diacriticless) },
        .person("address.city IN {'Oslo', 'Bergen'}") { p, _ in ["Oslo", "Bergen"].contains { Rules.equal(p.address?.city, $0) } },
        .person("address.city != 'Oslo'") { p, _ in !Rules.equal(p.address?.city, "Oslo") },
        .person("address.city IN {'Oslo', nil}") { p, _ in Rules.equal(p.address?.city, "Oslo") || p.address?.city == nil },
        .person("pastAddresses.city == nil") { p, _ in p.pastAddresses.contains { $0.city == nil } },
        .person("ANY pastAddresses.city == 'Bergen'") { p, _ in p.pastAddresses.contains { Rules.equal($0.city, "Bergen") } },
        .person("ALL pastAddresses.zip != nil") { p, _ in p.pastAddresses.allSatisfy { $0.zip != nil } },
        .person("NONE pastAddresses.city ==[c] 'oslo'") { p, _ in
            !p.pastAddresses.contains { Rules.equal($0.city, "oslo", .caseless) }
        },
        .person("pastAddresses.@count == 0") { p, _ in p.pastAddresses.isEmpty },
        .person("pastAddresses.@count >= 2") { p, _ in p.pastAddresses.count >= 2 },
        .person("pastAddresses.@max.zip > 9000") { p, _ in Rules.compare(p.pastAddresses.compactMap(\.zip).max(), .greater, 9000) },
        .person("pastAddresses.@avg.zip == nil") { p, _ in p.pastAddresses.compactMap(\.zip).isEmpty },
        .person("SUBQUERY(pastAddresses, $a, $a.city ==[c] 'oslo' AND $a.zip != nil).@count > 0") { p, _ in
            p.pastAddresses.contains { Rules.equal($0.city, "oslo", .caseless) && $0.zip != nil }
        },
        .person("pastAddresses[0].city == address.city") { p, _ in Rules.equal(p.pastAddresses.first?.city, p.address?.city) },
        .person("ANY pastAddresses.zip < address.zip") { p, _ in
            p.pastAddresses.contains { Rules.compare($0.zip, .less, p.address?.zip) }
        },
    ]

    /// Two key paths' values compared: two nulls are equal, a list or map in a mixed value equals
    /// no other value (nor null), and values compare as a mixed value with a literal does.
    private static func keyPathsEqual(_ left: QueryGraph.Mixed, _ right: QueryGraph.Mixed) -> Bool {
        switch (left, right) {
        case (.list, _), (.map, _), (_, .list), (_, .map): false
        case (.null, .null): true
        case (.null, _), (_, .null): false
        default: RealmRules.mixedEqual(left, right)
        }
    }
}

extension Array {
    /// The element at `index`, or null past the end, as a list position reads.
    fileprivate func element(at index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
