import Foundation
import Kura
import KuraTestSupport
import Testing

// Models whose backlinks are Swift properties: `@Backlinks` in a cycle with the list and the link it
// mirrors, plain arrays mirroring a `@Link` and a list, and a backlink left out of the Swift type.

final class Walker: KuraObject {
    var id: Int?
    var name: String
    var pets: [Pet]
    @Link var favorite: Pet?
    static var primaryKey: String? { "id" }
    static var propertyOptions: [String: PropertyOptions] { ["id": .autoIncrement] }

    init(name: String, pets: [Pet] = [], favorite: Pet? = nil) {
        self.name = name
        self.pets = pets
        self.favorite = favorite
    }
}

final class Pet: KuraObject {
    var name: String
    @Backlinks var walkers: [Walker]
    @Backlinks var fans: [Walker]
    static var primaryKey: String? { "name" }
    static var propertyOptions: [String: PropertyOptions] {
        [
            "walkers": .linkingObjects(Walker.self, "pets"), "fans": .linkingObjects(Walker.self, "favorite"),
            "keepers": .linkingObjects(Walker.self, "pets"),
        ]
    }

    init(name: String, walkers: [Walker] = [], fans: [Walker] = []) {
        self.name = name
        self.fans = fans
        self.walkers = walkers
    }
}

final class Note: KuraObject {
    var text: String
    @Link var tag: Tag?

    init(text: String, tag: Tag?) {
        self.text = text
        self.tag = tag
    }
}

final class Tag: KuraObject {
    var label: String
    var notes: [Note]  // decoded inline: the link it mirrors is a @Link, so no cycle runs through it
    static var propertyOptions: [String: PropertyOptions] { ["notes": .linkingObjects(Note.self, "tag")] }

    init(label: String) {
        self.label = label
        self.notes = []
    }
}

final class Reader: KuraObject {
    var name: String
    var books: [Book]

    init(name: String, books: [Book]) {
        self.name = name
        self.books = books
    }
}

struct Book: KuraObject {
    var title: String
    var readers: [Reader] = []  // decoded inline, in a cycle with Reader.books
    static var primaryKey: String? { "title" }
    static var propertyOptions: [String: PropertyOptions] { ["readers": .linkingObjects(Reader.self, "books")] }
}

/// A model property given `.linkingObjects` is a computed backlink: in the derived schema, when a
/// model is read, never when it is written or exported.
@Suite struct BacklinkModelTests {
    let kura = Fixtures.executable("kura")

    @Test func aBacklinkPropertyIsComputedInTheDerivedSchema() throws {
        // Walker comes along through Pet's backlinks, as Pet does through Walker's links.
        let schema = try Schema(models: [Pet.self])
        #expect(schema.types.map(\.name) == ["Pet", "Walker"])
        let pet = try #require(schema[type: "Pet"])
        #expect(pet.properties.map(\.name) == ["name", "walkers", "fans", "keepers"])
        #expect(pet[property: "walkers"]?.type == .linkingObjects(type: "Walker", property: "pets"))
        #expect(pet[property: "fans"]?.type == .linkingObjects(type: "Walker", property: "favorite"))
        #expect(pet[property: "keepers"]?.type == .linkingObjects(type: "Walker", property: "pets"))
        #expect(pet.storedProperties.map(\.name) == ["name"])
        #expect(schema.yaml.contains("      walkers: { linkingObjects: Walker.pets }\n      fans: { linkingObjects: Walker.favorite }\n"))
    }

    @Test func readingAModelFillsItsBacklinksAndWritingIgnoresThem() throws {
        let path = try Fixtures.realmPath()
        let rex = Pet(name: "Rex"), fido = Pet(name: "Fido")
        let alice = Walker(name: "Alice", pets: [rex, fido], favorite: rex)
        let bob = Walker(name: "Bob", pets: [rex], favorite: fido)
        // A backlink given when writing is not stored, and the objects in it are not written either.
        let stranger = Walker(name: "Stranger")
        let lonely = Pet(name: "Lonely", walkers: [stranger], fans: [stranger])
        do {
            let realm = try Realm(path: path, schema: try Schema(models: [Walker.self]))
            try realm.write {
                try realm.add(alice)
                try realm.add(bob, update: .modified)  // Rex is written again by its key
                let stored = try realm.add(lonely)
                #expect(stored.walkers.isEmpty && stored.fans.isEmpty)
            }
            #expect(try realm.objects(Walker.self).map(\.name) == ["Alice", "Bob"])
        }
        let realm = try Realm(path: path)
        let pets = Array(try realm.objects(Pet.self))
        #expect(pets.map(\.name) == ["Rex", "Fido", "Lonely"])
        #expect(pets.map { $0.walkers.map(\.name) } == [["Alice", "Bob"], ["Alice"], []])
        #expect(pets.map { $0.fans.map(\.name) } == [["Alice"], ["Bob"], []])
        // One instance per stored object, through the backlink and back through the link it mirrors.
        #expect(pets[0].walkers[0].pets[0] === pets[0])
        #expect(pets[0].walkers[0].favorite === pets[0])
        let walkers = Array(try realm.objects(Walker.self))
        #expect(walkers[1].pets[0].walkers.map(\.name) == ["Alice", "Bob"])
        #expect(walkers[1].pets[0].walkers[1] === walkers[1])

        // Deleting a link changes the backlink read next.
        try realm.write { try realm.objects("Walker")[0].setValue(.list([]), forKey: "pets") }
        #expect(try realm.objects(Pet.self).map { $0.walkers.map(\.name) } == [["Bob"], [], []])
    }

    @Test func aPlainArrayBacklinkIsFilledWhenTheLinkItMirrorsIsALink() throws {
        let schema = try Schema(models: [Tag.self])
        #expect(schema.types.map(\.name) == ["Tag", "Note"])
        #expect(schema[type: "Tag"]?[property: "notes"]?.type == .linkingObjects(type: "Note", property: "tag"))
        let realm = try Realm(path: ":memory:", schema: schema)
        let work = Tag(label: "work")
        try realm.write {
            try realm.add(Note(text: "call Ann", tag: work))
            try realm.create("Note", value: ["text": "file taxes", "tag": .object(realm.objects("Tag")[0].ref)])
            try realm.add(Note(text: "rest", tag: nil))
        }
        let tags = Array(try realm.objects(Tag.self))
        #expect(tags.map(\.label) == ["work"])
        #expect(tags[0].notes.map(\.text) == ["call Ann", "file taxes"])
        #expect(tags[0].notes[1].tag === tags[0])
        let notes = Array(try realm.objects(Note.self))
        #expect(notes.map { $0.tag?.notes.map(\.text) } == [["call Ann", "file taxes"], ["call Ann", "file taxes"], nil])
        #expect(notes[0].tag?.notes[0] === notes[0])
    }

    @Test func aPlainArrayBacklinkInACycleEndsWithACopy() throws {
        let realm = try Realm(path: ":memory:", schema: try Schema(models: [Book.self]))
        try realm.write {
            try realm.add(Reader(name: "Ann", books: [Book(title: "Emma"), Book(title: "Kim")]))
            try realm.add(Reader(name: "Bo", books: [Book(title: "Emma")]), update: .modified)
        }
        let books = Array(try realm.objects(Book.self))
        #expect(books.map(\.title) == ["Emma", "Kim"])
        #expect(books.map { $0.readers.map(\.name) } == [["Ann", "Bo"], ["Ann"]])
        // The book each reader leads back to is a copy whose own backlinks are empty.
        #expect(books[0].readers[0].books.map(\.title) == ["Emma", "Kim"])
        #expect(books[0].readers[0].books[0].readers.isEmpty)
        let readers = Array(try realm.objects(Reader.self))
        // Bo was first reached through Emma's readers, while Emma was being read: his Emma is a copy.
        #expect(readers.map { $0.books.map { $0.readers.map(\.name) } } == [[["Ann", "Bo"], ["Ann"]], [[]]])
        #expect(readers[0].books[0].readers[1] === readers[1])
    }

    @Test func anExportHoldsNoBacklinks() throws {
        let folder = try Fixtures.temporaryDirectory()
        let path = folder.appendingPathComponent("pets.realm").path
        do {
            let realm = try Realm(path: path, schema: try Schema(models: [Walker.self]))
            let rex = Pet(name: "Rex")
            try realm.write { try realm.add(Walker(name: "Alice", pets: [rex], favorite: rex)) }
        }
        let exported = try Fixtures.run(kura, ["export", path, "--type", "Pet", "--format", "jsonl"])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout == "{\"name\":\"Rex\"}\n")
        let whole = try Fixtures.run(kura, ["export", path, "--format", "yaml"])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(!whole.stdout.contains("walkers") && !whole.stdout.contains("fans") && !whole.stdout.contains("keepers"))
        // Model values encoded as documents leave their backlinks out too.
        let alice = try #require(try Realm(path: path).objects(Walker.self).first)
        let encoded = try DocumentEncoder(models: [Walker.self], format: .jsonl).encode([alice.pets[0]])
        #expect(String(decoding: encoded, as: UTF8.self) == "{\"name\":\"Rex\"}\n")
    }

    @Test func documentsDecodedWithoutARealmFillBacklinksToo() throws {
        let yaml = """
            name: Alice
            pets: [{ name: Rex }, { name: Fido }]
            favorite: Rex
            ---
            name: Bob
            pets: [Rex]
            """
        let walkers = try DocumentDecoder(models: [Walker.self]).decode(Walker.self, yaml: yaml)
        let rex = walkers[0].pets[0]
        #expect(rex.walkers.map(\.name) == ["Alice", "Bob"])
        #expect(rex.fans.map(\.name) == ["Alice"])
        #expect(walkers[0].pets[1].walkers.map(\.name) == ["Alice"])
        #expect(rex.walkers[1] === walkers[1])
    }

    @Test func aDeclarationThatCannotBeABacklinkIsRefusedByName() throws {
        struct Named: KuraObject {
            var title: String
            var owners: String
            static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Walker.self, "pets")] }
        }
        struct WrongElement: KuraObject {
            var title: String
            var owners: [Pet]
            static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Walker.self, "pets")] }
        }
        final class WrongWrapper: KuraObject {
            var title = ""
            @Backlinks var owners: [Pet]
            static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Walker.self, "pets")] }
        }
        struct NoSuchLink: KuraObject {
            var title: String
            var owners: [Walker]
            static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Walker.self, "dogs")] }
        }
        struct NotHere: KuraObject {
            var title: String
            var owners: [Walker]
            static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Walker.self, "pets")] }
        }
        struct NotALink: KuraObject {
            var title: String
            var owners: [Walker]
            static var propertyOptions: [String: PropertyOptions] { ["owners": .linkingObjects(Walker.self, "name")] }
        }
        let expected: [(any KuraObject.Type, String)] = [
            (Named.self, "error: Named.owners: a linkingObjects property must be declared as '@Backlinks var owners: [Walker]' or '[Walker]', not String"),
            (WrongElement.self, "error: WrongElement.owners: a linkingObjects property must be declared as '@Backlinks var owners: [Walker]' or '[Walker]', not [Pet]"),
            (WrongWrapper.self, "error: WrongWrapper.owners: a linkingObjects property must be declared as '@Backlinks var owners: [Walker]' or '[Walker]', not Backlinks<Pet>"),
            (NoSuchLink.self, "error: NoSuchLink.owners: linkingObjects names unknown property 'Walker.dogs'"),
            (NotHere.self, "error: NotHere.owners: 'Walker.pets' does not link to 'NotHere' (it is list<Pet>)"),
            (NotALink.self, "error: NotALink.owners: 'Walker.name' does not link to 'NotALink' (it is string)"),
        ]
        for (model, message) in expected {
            do {
                _ = try Schema(models: [model])
                Issue.record("\(model) was accepted")
            } catch let error as KuraError {
                #expect(error.code == .schema(.invalidLinkingObjects))
                #expect("\(error)" == message)
            }
        }
    }
}
