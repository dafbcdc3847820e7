private typealias Rules = RealmRules

/// To-one links and key path against key path (a null link reads as null, and two nulls are
/// equal), lists of objects with ANY, ALL and NONE, aggregates of values and of objects, and
/// SUBQUERY, nested and compared with other key paths.
extension QueryTable {
    static let links: [QueryCase] = [
        .person("bestFriend == nil") { p, _ in p.bestFriend == nil },
        .person("bestFriend != nil") { p, _ in p.bestFriend != nil },
        .person("bestFriend.name == 'Céline'") { p, g in Rules.equal(g.bestFriend(of: p)?.name, "Céline") },
        .person("bestFriend.name ==[cd] 'celine'") { p, g in Rules.equal(g.bestFriend(of: p)?.name, "celine", .both) },
        .person("bestFriend.age > age") { p, g in Rules.compare(g.bestFriend(of: p)?.age, .greater, p.age) },
        .person("bestFriend.age == age") { p, g in g.bestFriend(of: p)?.age == p.age },
        .person("bestFriend.id == id") { p, g in g.bestFriend(of: p)?.id == p.id },
        .person("bestFriend.bestFriend.id == id") { p, g in g.bestFriend(of: p).flatMap(g.bestFriend(of:))?.id == p.id },
        .person("bestFriend.bestFriend.bestFriend.id == id") { p, g in
            g.bestFriend(of: p).flatMap(g.bestFriend(of:)).flatMap(g.bestFriend(of:))?.id == p.id
        },
        .person("bestFriend == bestFriend.bestFriend") { p, g in p.bestFriend == g.bestFriend(of: p)?.bestFriend },
        .person("bestFriend.height == height") { p, g in g.bestFriend(of: p)?.height == p.height },
        .person("bestFriend.height != height") { p, g in g.bestFriend(of: p)?.height != p.height },
        .person("bestFriend.born < born") { p, g in Rules.compare(g.bestFriend(of: p)?.born, .less, p.born) },
        .person("bestFriend.budget > budget") { p, g in Rules.compare(g.bestFriend(of: p)?.budgetCents, .greater, p.budgetCents) },
        .person("bestFriend.address.city == address.city") { p, g in Rules.equal(g.bestFriend(of: p)?.address?.city, p.address?.city) },
        .person("name ==[cd] bestFriend.name") { p, g in Rules.equal(p.name, g.bestFriend(of: p)?.name, .both) },
        .person("bestFriend.bestFriend.name BEGINSWITH 'C'") { p, g in
            Rules.beginsWith(g.bestFriend(of: p).flatMap(g.bestFriend(of:))?.name, "C")
        },
        .person("address.zip == bestFriend.address.zip") { p, g in p.address?.zip == g.bestFriend(of: p)?.address?.zip },
        .person("name.@size == bestFriend.name.@size") { p, g in
            g.bestFriend(of: p).map { Rules.size($0.name) == Rules.size(p.name) } ?? false
        },
        .person("nick['home'] == nick['work']") { p, _ in p.nick("home") == p.nick("work") },
        .person("bestFriend.dogs.@count > 2") { p, g in (g.bestFriend(of: p)?.dogs.count ?? 0) > 2 },
        .person("bestFriend.nick['a'] == nick['a']") { p, g in g.bestFriend(of: p)?.nick("a") == p.nick("a") },
    ]

    static let objectLists: [QueryCase] = [
        .person("dogs.@count == 0") { p, _ in p.dogs.isEmpty },
        .person("dogs.@count >= 3") { p, _ in p.dogs.count >= 3 },
        .person("dogs.age > 13") { p, g in g.dogs(of: p).contains { $0.age > 13 } },
        .person("ANY dogs.name == 'Rex'") { p, g in g.dogs(of: p).contains { Rules.equal($0.name, "Rex") } },
        .person("ALL dogs.age < 8") { p, g in g.dogs(of: p).allSatisfy { $0.age < 8 } },
        .person("NONE dogs.age > 12") { p, g in !g.dogs(of: p).contains { $0.age > 12 } },
        .person("dogs.name ==[c] 'rex'") { p, g in g.dogs(of: p).contains { Rules.equal($0.name, "rex", .caseless) } },
        .person("ANY dogs.name IN {'Fido', 'Bella'}") { p, g in g.dogs(of: p).contains { ["Fido", "Bella"].contains($0.name) } },
        .person("ALL dogs.name BEGINSWITH[d] 'B'") { p, g in g.dogs(of: p).allSatisfy { Rules.beginsWith($0.name, "B", .diacriticless) } },
        .person("dogs.toys.name == 'ball'") { p, g in g.dogs(of: p).flatMap(g.toys(of:)).contains { $0.name == "ball" } },
        .person("ALL dogs.toys.price < 15") { p, g in g.dogs(of: p).flatMap(g.toys(of:)).allSatisfy { $0.price < 15 } },
        .person("NONE dogs.toys.cost == nil") { p, g in !g.dogs(of: p).flatMap(g.toys(of:)).contains { $0.costCents == nil } },
        .person("ANY dogs.age >= age") { p, g in g.dogs(of: p).contains { $0.age >= p.age } },
        .person("ANY dogs.owners.id != id") { p, g in g.dogs(of: p).contains { g.owners(of: $0).contains { $0.id != p.id } } },
        .person("NONE dogs.owners.age > 80") { p, g in !g.dogs(of: p).flatMap(g.owners(of:)).contains { $0.age > 80 } },
        .person("ANY dogs.id == 1") { p, _ in p.dogs.contains(1) },
        .dog("ANY toys.name == 'ball'") { d, g in g.toys(of: d).contains { $0.name == "ball" } },
        .dog("toys.name ==[c] 'ball'") { d, g in g.toys(of: d).contains { Rules.equal($0.name, "ball", .caseless) } },
        .dog("ALL toys.price > 5") { d, g in g.toys(of: d).allSatisfy { $0.price > 5 } },
        .dog("NONE toys.cost == nil") { d, g in !g.toys(of: d).contains { $0.costCents == nil } },
        .dog("toys.@count == 0") { d, _ in d.toys.isEmpty },
        .dog("toys.@count == 3") { d, _ in d.toys.count == 3 },
    ]

    static let aggregates: [QueryCase] = [
        .person("scores.@sum > 150") { p, _ in Rules.sum(p.scores) > 150 },
        .person("scores.@sum == 0") { p, _ in Rules.sum(p.scores) == 0 },
        .person("scores.@avg > 50") { p, _ in Rules.compare(Rules.average(p.scores), .greater, 50) },
        .person("scores.@avg == nil") { p, _ in Rules.average(p.scores) == nil },
        .person("scores.@min < 0") { p, _ in Rules.compare(p.scores.min(), .less, 0) },
        .person("scores.@max >= 95") { p, _ in Rules.compare(p.scores.max(), .greaterOrEqual, 95) },
        .person("scores.@max == nil") { p, _ in p.scores.max() == nil },
        .person("dogs.@sum.age > 20") { p, g in Rules.sum(g.dogs(of: p).map(\.age)) > 20 },
        .person("dogs.@sum.age == 0") { p, g in Rules.sum(g.dogs(of: p).map(\.age)) == 0 },
        .person("dogs.@avg.age > 10") { p, g in Rules.compare(Rules.average(g.dogs(of: p).map(\.age)), .greater, 10) },
        .person("dogs.@avg.age == nil") { p, _ in p.dogs.isEmpty },
        .person("dogs.@min.age <= 1") { p, g in Rules.compare(g.dogs(of: p).map(\.age).min(), .lessOrEqual, 1) },
        .person("dogs.@max.age >= 14") { p, g in Rules.compare(g.dogs(of: p).map(\.age).max(), .greaterOrEqual, 14) },
        .person("dogs.@max.age == nil") { p, _ in p.dogs.isEmpty },
        .person("dogs.@min.age == dogs.@max.age") { p, g in g.dogs(of: p).map(\.age).min() == g.dogs(of: p).map(\.age).max() },
        .person("dogs.@sum.age > age") { p, g in Rules.sum(g.dogs(of: p).map(\.age)) > p.age },
        .person("extras.@sum > 20") { p, _ in Rules.sum(p.extras.compactMap(Rules.number)) > 20 },
        .person("extras.@sum == 0") { p, _ in Rules.sum(p.extras.compactMap(Rules.number)) == 0 },
        .person("extras.@avg == nil") { p, _ in Rules.average(p.extras.compactMap(Rules.number)) == nil },
        .person("extras.@max > 50") { p, _ in Rules.compare(p.extras.compactMap(Rules.number).max(), .greater, 50) },
        .person("extras.@min < 0") { p, _ in Rules.compare(p.extras.compactMap(Rules.number).min(), .less, 0) },
        .person("extras.@count == 4") { p, _ in p.extras.count == 4 },
        .dog("toys.@sum.price > 30") { d, g in Rules.sum(g.toys(of: d).map(\.price)) > 30 },
        .dog("toys.@sum.price == 0") { d, g in Rules.sum(g.toys(of: d).map(\.price)) == 0 },
        .dog("toys.@avg.price < 5") { d, g in Rules.compare(Rules.average(g.toys(of: d).map(\.price)), .less, 5) },
        .dog("toys.@min.price == nil") { d, _ in d.toys.isEmpty },
        .dog("toys.@max.price > 25") { d, g in Rules.compare(g.toys(of: d).map(\.price).max(), .greater, 25) },
        .dog("toys.@sum.cost > 40") { d, g in Rules.sum(g.toys(of: d).compactMap(\.costCents)) > 4000 },
        .dog("toys.@max.cost < 10") { d, g in Rules.compare(g.toys(of: d).compactMap(\.costCents).max(), .less, 1000) },
        .dog("toys.@min.cost == nil") { d, g in g.toys(of: d).compactMap(\.costCents).isEmpty },
        .dog("toys.@avg.cost > 30") { d, g in Rules.compare(Rules.average(g.toys(of: d).compactMap(\.costCents)), .greater, 3000) },
        .dog("owners.@avg.age > 50") { d, g in Rules.compare(Rules.average(g.owners(of: d).map(\.age)), .greater, 50) },
        .dog("owners.@max.age == nil") { d, g in g.owners(of: d).isEmpty },
        .dog("owners.@sum.age > 100") { d, g in Rules.sum(g.owners(of: d).map(\.age)) > 100 },
    ]

    static let subqueries: [QueryCase] = [
        .person("SUBQUERY(dogs, $d, $d.age > 5).@count > 1") { p, g in g.dogs(of: p).filter { $0.age > 5 }.count > 1 },
        .person("SUBQUERY(dogs, $d, $d.age > 5 AND $d.toys.@count > 0).@count == 1") { p, g in
            g.dogs(of: p).filter { $0.age > 5 && !$0.toys.isEmpty }.count == 1
        },
        .person("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > 20).@count > 0).@count >= 1") { p, g in
            g.dogs(of: p).contains { g.toys(of: $0).contains { $0.price > 20 } }
        },
        .person("SUBQUERY(dogs, $d, $d.age < age).@count == dogs.@count") { p, g in g.dogs(of: p).allSatisfy { $0.age < p.age } },
        .person("SUBQUERY(dogs, $d, ANY $d.owners.id != id).@count > 0") { p, g in
            g.dogs(of: p).contains { g.owners(of: $0).contains { $0.id != p.id } }
        },
        .person("SUBQUERY(dogs, $d, $d.name BEGINSWITH[c] 'r').@count == 0") { p, g in
            !g.dogs(of: p).contains { Rules.beginsWith($0.name, "r", .caseless) }
        },
        .person("SUBQUERY(dogs, $d, $d.age > 3).@count > SUBQUERY(dogs, $d, $d.age <= 3).@count") { p, g in
            g.dogs(of: p).filter { $0.age > 3 }.count > g.dogs(of: p).filter { $0.age <= 3 }.count
        },
        .person("SUBQUERY(dogs, $d, $d.age > 3).@count == tags.@count") { p, g in
            g.dogs(of: p).filter { $0.age > 3 }.count == p.tags.count
        },
        .person("NOT SUBQUERY(dogs, $d, $d.toys.@count == 0).@count > 0") { p, g in !g.dogs(of: p).contains { $0.toys.isEmpty } },
        .dog("SUBQUERY(toys, $t, $t.cost == nil).@count > 0") { d, g in g.toys(of: d).contains { $0.costCents == nil } },
        .dog("SUBQUERY(owners, $o, $o.age > 50).@count >= 2") { d, g in g.owners(of: d).filter { $0.age > 50 }.count >= 2 },
        .dog("SUBQUERY(owners, $o, $o.bestFriend.id == $o.id).@count > 0") { d, g in g.owners(of: d).contains { $0.bestFriend == $0.id } },
        .dog("SUBQUERY(owners, $o, $o.dogs.@count > toys.@count).@count > 0") { d, g in
            g.owners(of: d).contains { $0.dogs.count > d.toys.count }
        },
        .dog("SUBQUERY(toys, $t, $t.price > 10 AND $t.cost < 20).@count == toys.@count") { d, g in
            g.toys(of: d).allSatisfy { $0.price > 10 && Rules.compare($0.costCents, .less, 2000) }
        },
        .toy("SUBQUERY(@links.Dog.toys, $d, $d.age > 10).@count > 0") { t, g in g.holders(of: t).contains { $0.age > 10 } },
    ]
}
