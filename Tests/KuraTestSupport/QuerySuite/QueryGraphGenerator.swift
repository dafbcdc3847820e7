/// Makes the query suite's graph from a fixed seed: 60 people, 40 dogs and 15 toys whose values
/// are drawn from small pools (so that answers overlap and tie), with a few people shaped by hand
/// where chance might miss a case the table needs.
extension QueryGraph {
    /// The graph every query suite runs on.
    package static let generated = QueryGraph.generate(seed: 0x4B55_5241_5155_4552)

    package static let personNames = [
        "Céline", "celine", "CÉLINE", "Celine", "ÉMILE", "émile", "Emile", "Zoë", "zoe", "ZOË", "Ann", "Anna", "anne",
        "Bob", "bob", "Åsa", "Noël", "José", "Renée", "François", "Ümit", "Mia", "Max", "Léa", "Chloé", "Cecile", "D'Arcy",
    ]
    package static let dogNames = ["Rex", "rex", "REX", "Fido", "Bella", "Bélla", "Max", "Luna", "Ñandú", "Çoco", "Milo", "Åke", "Bo"]
    package static let toyNames = [
        "ball", "Ball", "BALL", "rope", "bone", "Bone", "squeaky duck", "frisbee", "kong", "stick", "ring", "plüsch",
        "tug rope", "bällchen", "chew",
    ]
    package static let tagPool = ["red", "blue", "green", "Red", "vip", "néon", "neon"]
    package static let nickKeys = ["a", "b", "home", "work"]
    package static let nickValues = ["annie", "x", "Bobby", "bob", "ZOË", "zoë", "", "xavier"]
    package static let cities: [String?] = ["Oslo", "oslo", "Bergen", "Zürich", "Malmö", "Tromsø", nil]
    package static let words = ["hello", "Hello", "HÉLLO", "5", "abc", ""]

    /// The instants dates are drawn around: 2024-01-01T10:00Z, 2000-01-01, the Moon landing (before
    /// 1970) and a leap day with half a second.
    package static let instants: [Int64] = [
        QueryDates.milliseconds(2024, 1, 1, 10), QueryDates.milliseconds(2000, 1, 1),
        QueryDates.milliseconds(1969, 7, 20, 20, 17), QueryDates.milliseconds(2024, 2, 29, 12, 0, 0, 500),
    ]
    private static let instantOffsets: [Int64] = [0, 0, 1000, -1000, 3_600_000, -86_400_000, 1]

    package static func generate(seed: UInt64) -> QueryGraph {
        var random = SplitMix64(seed: seed)
        let toys = (1...15).map { id in
            Toy(id: id, name: toyNames[id - 1], price: Double(random.below(120)) / 4,
                costCents: random.oneIn(4) ? nil : random.below(5000))
        }
        let dogs = (1...40).map { id in
            Dog(id: id, name: id <= dogNames.count ? dogNames[id - 1] : pick(dogNames, &random), age: random.below(16),
                toys: distinct(random.below(4), from: 1...13, &random))
        }
        var kinds = (0..<60).map { $0 % MixedKind.allCases.count }
        for index in kinds.indices.reversed() { kinds.swapAt(index, random.below(index + 1)) }
        var people = (1...60).map { id in makePerson(id, extraKind: MixedKind.allCases[kinds[id - 1]], &random) }
        shapeByHand(&people)
        return QueryGraph(people: people, dogs: dogs, toys: toys)
    }

    private static func makePerson(_ id: Int, extraKind: MixedKind, _ random: inout SplitMix64) -> Person {
        let name = id <= personNames.count ? personNames[id - 1] : pick(personNames, &random)
        let age = random.below(91)
        let height = random.oneIn(5) ? nil : Double(140 + random.below(66)) / 100
        let born = random.oneIn(4) ? nil : date(&random)
        let budget = random.oneIn(4) ? nil : random.oneIn(10) ? 0 : random.below(155_001) - 5000
        let tags = distinct(random.below(4), from: 0...(tagPool.count - 1), &random).map { tagPool[$0] }
        let nick = nickKeys.filter { _ in random.oneIn(3) }.map { (key: $0, value: pick(nickValues, &random)) }
        let scores = (0..<random.below(6)).map { _ in random.below(111) - 10 }
        let extra = mixed(extraKind, &random)
        let extras = (0..<random.below(5)).map { _ in mixed(pick(MixedKind.scalars, &random), &random) ?? .null }
        let dogs = distinct(random.below(4), from: 1...32, &random)
        let bestFriend = random.oneIn(3) ? nil : 1 + random.below(60)
        let address = random.oneIn(4) ? nil : makeAddress(&random)
        let pastAddresses = (0..<random.below(4)).map { _ in makeAddress(&random) }
        return Person(
            id: id, name: name, age: age, height: height, born: born, budgetCents: budget, tags: tags, nick: nick,
            scores: scores, extra: extra, extras: extras, dogs: dogs, bestFriend: bestFriend, address: address,
            pastAddresses: pastAddresses)
    }

    /// Self friends and cycles, a person with nothing at all, scores that sum to 0, shared dogs.
    private static func shapeByHand(_ people: inout [Person]) {
        people[0].bestFriend = 1
        people[1].bestFriend = 3
        people[2].bestFriend = 2
        people[3].bestFriend = 5
        people[4].bestFriend = 6
        people[5].bestFriend = 4
        people[6] = Person(
            id: 7, name: people[6].name, age: 7, height: nil, born: nil, budgetCents: nil, tags: [], nick: [], scores: [],
            extra: nil, extras: [], dogs: [], bestFriend: nil, address: nil, pastAddresses: [])
        people[7].scores = [5, -5]
        people[8].nick = [(key: "a", value: "x"), (key: "home", value: "Bobby")]
        for index in [1, 2, 10, 11] where !people[index].dogs.contains(1) { people[index].dogs.append(1) }
        people[9].address = Address(city: nil, zip: nil)
    }

    private static func makeAddress(_ random: inout SplitMix64) -> Address {
        Address(city: pick(cities, &random), zip: random.oneIn(4) ? nil : 1000 + random.below(9000))
    }

    private static func date(_ random: inout SplitMix64) -> Int64 {
        pick(instants, &random) + pick(instantOffsets, &random)
    }

    private static func pick<Element>(_ pool: [Element], _ random: inout SplitMix64) -> Element {
        pool[random.below(pool.count)]
    }

    /// `count` different numbers of `range`, in the order drawn.
    private static func distinct(_ count: Int, from range: ClosedRange<Int>, _ random: inout SplitMix64) -> [Int] {
        var chosen: [Int] = []
        while chosen.count < count {
            let next = range.lowerBound + random.below(range.count)
            if !chosen.contains(next) { chosen.append(next) }
        }
        return chosen
    }

    /// The kinds of value the people's `extra` cycles through, each given to three or four people.
    private enum MixedKind: CaseIterable {
        case null, missing, yes, no, int, five, fiveDouble, fiveDecimal, double, string, date, decimal, objectId, uuid,
            binary, dog, list, map

        static let scalars: [MixedKind] = [.null, .yes, .no, .int, .five, .double, .string, .date, .decimal]
    }

    /// A value of `kind`; `nil` for a value the document leaves out.
    private static func mixed(_ kind: MixedKind, _ random: inout SplitMix64) -> Mixed? {
        switch kind {
        case .null: .null
        case .missing: nil
        case .yes: .bool(true)
        case .no: .bool(false)
        case .int: .int(random.below(201) - 50)
        case .five: .int(5)
        case .fiveDouble: .double(5)
        case .fiveDecimal: .decimal(cents: 500)
        case .double: .double(Double(random.below(400) - 100) / 4)
        case .string: .string(pick(words, &random))
        case .date: .date(milliseconds: date(&random))
        case .decimal: .decimal(cents: random.below(20001) - 10000)
        case .objectId: .objectId(hex(random.next(), 16) + hex(random.next(), 8))
        case .uuid:
            .uuid([hex(random.next(), 8), hex(random.next(), 4), "4" + hex(random.next(), 3), "8" + hex(random.next(), 3),
                   hex(random.next(), 12)].joined(separator: "-"))
        case .binary: .binary((0...random.below(4)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case .dog: .dog(1 + random.below(40))
        case .list: .list([.string("a"), .bool(true)])
        case .map: .map([(key: "k", value: .string("v"))])
        }
    }

    /// The last `digits` hexadecimal digits of `value`.
    private static func hex(_ value: UInt64, _ digits: Int) -> String {
        let text = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return String(padded.suffix(digits))
    }
}
