import Foundation

/// The query suite's schema, and its graph written as one whole-realm JSON file that the library,
/// `kura import` and `POST …/import` all read: each document names its type with `"$type"`, links
/// name primary keys, and dates, decimals, object ids, UUIDs and bytes use the typed wrappers.
extension QueryGraph {
    package static let schemaYAML = """
        schemaVersion: 1
        types:
          Toy:
            primaryKey: id
            properties:
              id: int
              name: string
              price: double
              cost: decimal?
          Dog:
            primaryKey: id
            properties:
              id: int
              name: string
              age: int
              toys: list<Toy>
              owners: { linkingObjects: Person.dogs }
          Person:
            primaryKey: id
            properties:
              id: int
              name: string
              age: int
              height: double?
              born: date?
              budget: decimal?
              tags: set<string>
              nick: map<string>
              scores: list<int>
              extra: mixed
              extras: list<mixed>
              dogs: list<Dog>
              bestFriend: Person?
              address: Address?
              pastAddresses: list<Address>
          Address:
            embedded: true
            properties:
              city: string?
              zip: int?

        """

    /// Toys, then dogs, then people, one document a line; a best friend may come later in the file.
    package var documentsJSON: String {
        let toyLines = toys.map { toy in
            object([
                ("$type", string("Toy")), ("id", "\(toy.id)"), ("name", string(toy.name)), ("price", "\(toy.price)"),
                ("cost", toy.costCents.map(Self.decimal) ?? "null"),
            ])
        }
        let dogLines = dogs.map { dog in
            object([
                ("$type", string("Dog")), ("id", "\(dog.id)"), ("name", string(dog.name)), ("age", "\(dog.age)"),
                ("toys", array(dog.toys.map { "\($0)" })),
            ])
        }
        return "[\n" + (toyLines + dogLines + people.map(document)).joined(separator: ",\n") + "\n]\n"
    }

    private func document(_ person: Person) -> String {
        var members: [(String, String)] = [
            ("$type", string("Person")), ("id", "\(person.id)"), ("name", string(person.name)), ("age", "\(person.age)"),
            ("height", person.height.map { "\($0)" } ?? "null"),
            ("born", person.born.map { object([("$date", string(QueryDates.text($0)))]) } ?? "null"),
            ("budget", person.budgetCents.map(Self.decimal) ?? "null"),
            ("tags", array(person.tags.map(string))),
            ("nick", object(person.nick.map { ($0.key, string($0.value)) })),
            ("scores", array(person.scores.map { "\($0)" })),
        ]
        if let extra = person.extra { members.append(("extra", mixed(extra))) }
        members += [
            ("extras", array(person.extras.map(mixed))),
            ("dogs", array(person.dogs.map { "\($0)" })),
            ("bestFriend", person.bestFriend.map { "\($0)" } ?? "null"),
            ("address", person.address.map(address) ?? "null"),
            ("pastAddresses", array(person.pastAddresses.map(address))),
        ]
        return object(members)
    }

    private func address(_ address: Address) -> String {
        object([("city", address.city.map(string) ?? "null"), ("zip", address.zip.map { "\($0)" } ?? "null")])
    }

    private func mixed(_ value: Mixed) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let text): string(text)
        case .date(let milliseconds): object([("$date", string(QueryDates.text(milliseconds)))])
        case .decimal(let cents): Self.decimal(cents)
        case .objectId(let hex): object([("$oid", string(hex))])
        case .uuid(let text): object([("$uuid", string(text))])
        case .binary(let bytes):
            object([("$binary", object([("base64", string(Data(bytes).base64EncodedString())), ("subType", string("00"))]))])
        case .dog(let key): object([("$type", string("Dog")), ("$key", "\(key)")])
        case .list(let items): array(items.map(mixed))
        case .map(let entries): object(entries.map { ($0.key, mixed($0.value)) })
        }
    }

    /// A decimal of whole cents as `{"$numberDecimal": "-12.05"}`.
    private static func decimal(_ cents: Int) -> String {
        let fraction = abs(cents) % 100
        let text = (cents < 0 ? "-" : "") + "\(abs(cents) / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
        return #"{"$numberDecimal": "\#(text)"}"#
    }

    private func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ": " + $0.1 }.joined(separator: ", ") + "}"
    }

    private func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    private func string(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
