/// The schemas and the generated documents the trials import, copy and migrate: deterministic for a
/// given seed, and with every reference pointing back to an earlier document, so a batched import
/// closes each batch after exactly its batch size.
enum CrashData {
    /// People with dogs, toys, embedded addresses, clubs: links, backlinks, lists, sets, maps, mixed
    /// values (links inside them too) and an autoIncrement key.
    static let peopleSchema = """
        schemaVersion: 1
        types:
          DogToy:
            properties:
              name: string
          Dog:
            properties:
              name: string
              age: int
              citiesVisited: set<string>
              favoriteParksByCity: map<string>
              companion: mixed
              favoriteToy: DogToy?
              owners: { linkingObjects: Person.dogs }
          Person:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              name: string
              nicknames: list<string>
              dogs: list<Dog>
              address: Address?
              bestFriend: Person?
              score: double?
          Address:
            embedded: true
            properties:
              street: string?
              city: string?
          DogClub:
            properties:
              name: string
              members: list<Person>
        """

    /// Diary entries without a primary key, with an embedded place and a list of tags.
    static let entriesV1 = """
        schemaVersion: 1
        types:
          Entry:
            properties:
              text: string
              date: date
              mood: int?
              tags: list<string>
              place: Place?
          Place:
            embedded: true
            properties:
              name: string
        """

    /// Version 2 numbers the entries with a new autoIncrement key (in creation order, so the result is
    /// deterministic), renames `mood` and adds a defaulted property: every table is rebuilt.
    static let entriesV2 = """
        schemaVersion: 2
        types:
          Entry:
            primaryKey: id
            properties:
              id: { type: int, autoIncrement: true }
              text: string
              date: date
              rating: { type: int?, renamedFrom: mood }
              tags: list<string>
              place: Place?
              archived: { type: bool, default: false }
          Place:
            embedded: true
            properties:
              name: string
        """

    static let cities = ["Oslo", "Bergen", "Kyoto", "Lisbon", "Ottawa", "Paris", "Tromsø"]
    static let toys = ["Ball", "Rope", "Frisbee", "Squeaky duck", "Bone"]

    /// `count` whole-realm JSON Lines documents (people, and a club now and then), each naming its
    /// type. `$ref`s stay on their side of `fileBreak`, so the lines from there on import as a file
    /// of their own into a realm holding the ones before.
    static func people(count: Int, seed: UInt64, fileBreak: Int? = nil) -> [String] {
        var random = SeededRandom(seed: seed)
        var ids: [Int] = []
        var lastKey = 0
        var dogsByLine: [Int: Int] = [:]
        var lines: [String] = []
        for line in 0..<count {
            if line % 25 == 24, !ids.isEmpty {
                let members = (0..<Int.random(in: 1...4, using: &random)).map { _ in JSONText.int(ids.randomElement(using: &random) ?? 1) }
                lines.append(JSONText.object([("$type", .string("DogClub")), ("name", .string("Club \(line)")), ("members", .array(members))]).text)
                continue
            }
            var members: [(String, JSONText)] = [("$type", .string("Person"))]
            // Every sixth person brings its own key, leaving a gap the counter must step over.
            if line % 6 == 5 {
                lastKey += 3
                members.append(("id", .int(lastKey)))
            } else {
                lastKey += 1
            }
            let id = lastKey
            members.append(("name", .string("Person \(id)")))
            members.append(("nicknames", .array((0..<Int.random(in: 0...2, using: &random)).map { .string("nick\($0)-\(id)") })))
            var dogs: [JSONText] = []
            let newDogs = Int.random(in: 0...3, using: &random)
            for index in 0..<newDogs {
                dogs.append(dog(line: line, index: index, random: &random, earlierIds: ids))
            }
            dogsByLine[line] = newDogs
            let sameFile = fileBreak.map { line >= $0 ? $0 : 0 } ?? 0
            let back = Int.random(in: 1...8, using: &random)
            if line - back >= sameFile, let shared = dogsByLine[line - back], shared > 0, random.next() % 3 == 0 {
                dogs.append(.object([("$ref", .string("dog-\(line - back)-0"))]))
            }
            members.append(("dogs", .array(dogs)))
            if random.next() % 5 != 0 {
                let city = cities.randomElement(using: &random) ?? "Oslo"
                members.append(("address", .object([("street", .string("\(id) Main St")), ("city", .string(city))])))
            }
            if random.next() % 3 == 0, let friend = ids.randomElement(using: &random) {
                members.append(("bestFriend", .int(friend)))
            }
            if random.next() % 2 == 0 { members.append(("score", .double(Double(id % 97) + 0.25))) }
            ids.append(id)
            lines.append(JSONText.object(members).text)
        }
        return lines
    }

    private static func dog(line: Int, index: Int, random: inout SeededRandom, earlierIds: [Int]) -> JSONText {
        let visited = (0..<Int.random(in: 0...4, using: &random)).map { _ in JSONText.string(cities.randomElement(using: &random) ?? "Oslo") }
        var parks: [(String, JSONText)] = []
        for city in cities.prefix(Int.random(in: 0...2, using: &random)) { parks.append((city, .string("\(city) Park \(line)"))) }
        let companion: JSONText
        switch random.next() % 6 {
        case 0: companion = .null
        case 1: companion = .string("Cat \(line)")
        case 2: companion = .int(line * 7)
        case 3: companion = .array([.string("stick"), .int(index), .bool(true), .object([("depth", .double(1.5))])])
        case 4: companion = earlierIds.last.map { .object([("$type", .string("Person")), ("$key", .int($0))]) } ?? .bool(false)
        default: companion = .object([("since", .int(2000 + line % 25)), ("toys", .array([.string("ball")]))])
        }
        var members: [(String, JSONText)] = [
            ("$id", .string("dog-\(line)-\(index)")), ("name", .string("Dog \(line)-\(index)")),
            ("age", .int(Int.random(in: 0...17, using: &random))), ("citiesVisited", .array(visited)),
            ("favoriteParksByCity", .object(parks)), ("companion", companion),
        ]
        if random.next() % 2 == 0 { members.append(("favoriteToy", .object([("name", .string(toys.randomElement(using: &random) ?? "Ball"))]))) }
        return .object(members)
    }

    /// `count` diary entries for `entriesV1`, one JSON Lines document each.
    static func entries(count: Int) -> [String] {
        (0..<count).map { index in
            let millis = 1_700_000_000_000 + index * 3_600_000
            return JSONText.object([
                ("text", .string("entry \(index)")),
                ("date", .object([("$date", .object([("$numberLong", .string(String(millis)))]))])),
                ("mood", index % 3 == 0 ? .null : .int(index % 5)),
                ("tags", .array((0..<index % 3).map { .string("tag\($0)") })),
                ("place", index % 4 == 0 ? .null : .object([("name", .string("place \(index % 11)"))])),
            ]).text
        }
    }
}
