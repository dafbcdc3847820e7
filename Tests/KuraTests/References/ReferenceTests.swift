import Foundation
import Kura
import KuraTestSupport
import Testing

/// `"$id"` / `{"$ref": id}` and YAML anchors/aliases: links between the documents of one input.
@Suite struct ReferenceTests {
    static let schemaText = """
        schemaVersion: 1
        types:
          Node:
            properties:
              name: string
              next: Node?
              friends: list<Node>
              circle: set<Node>
              byRole: map<Node?>
              home: Place?
              keyed: Keyed?
          Place:
            embedded: true
            properties:
              city: string
          Keyed:
            primaryKey: id
            properties:
              id: int
              label: string?
        """

    let realm: Realm
    let schema: Schema

    init() throws {
        schema = try Schema(yaml: Self.schemaText, file: "refs.yaml")
        realm = try Realm(path: try Fixtures.realmPath(), schema: schema)
    }

    /// Maps every document of a JSON array as `type` and writes them in one transaction with one scope.
    func importJSON(_ text: String, as type: String = "Node", update: UpdatePolicy = .error) throws {
        let reader = JSONReader(bytes: Array(text.utf8), file: "input.json", layout: .array)
        let mapper = DocumentMapper(schema: schema, file: "input.json")
        let scope = ReferenceScope()
        try realm.write {
            var index = 0
            while let node = try reader.next() {
                let mapped = try mapper.map(node, as: type, path: "$[\(index)]")
                try realm.create(type, value: mapped.value, update: update, references: scope, path: "$[\(index)]")
                index += 1
            }
        }
    }

    func node(_ name: String) throws -> DynamicObject {
        try #require(try realm.objects("Node").first { (try? $0.value(forKey: "name")) == .string(name) })
    }

    @Test func aReferenceToAnAncestorClosesACycle() throws {
        try importJSON(#"[{"$id": "a", "name": "A", "next": {"name": "B", "next": {"$ref": "a"}}}]"#)
        #expect(try realm.count("Node") == 2)
        let a = try node("A")
        let b = try #require(try a.link("next"))
        #expect(try b.value(forKey: "name") == "B")
        #expect(try b.link("next") == a)
    }

    @Test func aForwardReferenceTakesTheObjectDefinedLater() throws {
        try importJSON("""
            [{"name": "A", "next": {"$ref": 7}, "friends": [{"$ref": 7}, {"$ref": 7}], "circle": [{"$ref": 7}, {"$ref": 7}],
              "byRole": {"boss": {"$ref": 7}, "none": null}},
             {"$id": 7, "name": "B"}]
            """)
        #expect(try realm.count("Node") == 2)
        let a = try node("A")
        let b = try node("B")
        #expect(try a.link("next") == b)
        #expect(try a.objects("friends") == [b, b])
        #expect(try a.objects("circle") == [b])
        #expect(try a.value(forKey: "byRole") == .map(["boss": .object(b.ref), "none": .null]))
    }

    @Test func aSharedDocumentIsStoredOnce() throws {
        try importJSON(#"[{"name": "A", "next": {"$id": "s", "name": "S"}}, {"name": "C", "next": {"$ref": "s"}}]"#)
        #expect(try realm.count("Node") == 3)
        #expect(try node("A").link("next") == node("C").link("next"))
    }

    @Test func anUndefinedReferenceStopsTheCommitAndWritesNothing() throws {
        #expect {
            try importJSON(#"[{"name": "A"}, {"name": "B", "next": {"$ref": "nowhere"}}]"#)
        } throws: { error in
            (error as? KuraError)?.description
                == #"error: $[1].next: {"$ref": "nowhere"} names no document with "$id": "nowhere" in this input"#
        }
        #expect(try realm.count("Node") == 0)
    }

    @Test func aDuplicateIdIsRefused() throws {
        #expect {
            try importJSON(#"[{"$id": 1, "name": "A"}, {"$id": 1, "name": "B"}]"#)
        } throws: { error in
            (error as? KuraError)?.description == #"error: $[1]: "$id": 1 is already used by $[0]"#
        }
    }

    @Test func aReferenceOfTheWrongTypeIsRefused() throws {
        #expect {
            try importJSON(#"[{"name": "A", "next": {"$ref": "k"}}, {"name": "B", "keyed": {"$id": "k", "id": 1}}]"#)
        } throws: { error in
            (error as? KuraError)?.description == #"error: $[1].keyed: "$id": "k" is a Keyed, but $[0].next links to it as a Node"#
        }
    }

    @Test func anEmbeddedDocumentCannotBeReferenced() throws {
        let text = #"[{"name": "A", "home": {"$id": "h", "city": "Oslo"}}, {"name": "B", "home": {"$ref": "h"}}]"#
        #expect {
            try importJSON(text)
        } throws: { error in
            (error as? KuraError)?.description
                == #"input.json:1:77: error: $[1].home: expected a nested Place document, found a $ref (an embedded object cannot be shared by two parents)"#
        }
        // The store refuses it too, for values that did not come through the mapper.
        let scope = ReferenceScope()
        #expect {
            try realm.write {
                try realm.create("Node", value: ["name": "A", "home": ["$id": "h", "city": "Oslo"]], references: scope)
                try realm.create("Node", value: ["name": "B", "home": ["$ref": "h"]], references: scope)
            }
        } throws: { error in
            (error as? KuraError)?.description
                == #"error: Node.home: {"$ref": "h"} cannot link embedded Place: an embedded object has one parent"#
        }
    }

    @Test func aForwardReferenceToAnExistingKeyedObjectIsMovedToIt() throws {
        try realm.write { try realm.create("Keyed", value: ["id": 1, "label": "old"]) }
        let scope = ReferenceScope()
        try realm.write {
            try realm.create("Node", value: ["name": "A", "keyed": ["$ref": "k"]], references: scope)
            try realm.create("Keyed", value: ["$id": "k", "id": 1, "label": "new"], update: .update, references: scope)
        }
        #expect(try realm.count("Keyed") == 1)
        let keyed = try #require(try node("A").link("keyed"))
        #expect(try keyed.value(forKey: "id") == 1)
        #expect(try keyed.value(forKey: "label") == "new")
    }

    @Test func aLinkByPrimaryKeyMayComeBeforeItsObject() throws {
        let scope = ReferenceScope()
        try realm.write {
            try realm.create("Node", value: ["name": "A", "keyed": 5], references: scope, path: "$[0]")
            try realm.create("Keyed", value: ["id": 5, "label": "five"], references: scope, path: "$[1]")
        }
        #expect(try realm.count("Keyed") == 1)
        #expect(try node("A").link("keyed")?.value(forKey: "label") == "five")
        #expect {
            try realm.write { try realm.create("Node", value: ["name": "B", "keyed": 9], references: ReferenceScope(), path: "$[0]") }
        } throws: { error in
            (error as? KuraError)?.description == "error: $[0].keyed: no Keyed with primary key 9 in the realm or this input"
        }
        #expect {
            // Without a scope there is no later document to wait for.
            try realm.write { try realm.create("Node", value: ["name": "B", "keyed": 9]) }
        } throws: { error in
            (error as? KuraError)?.description == "error: Node.keyed: no Keyed with primary key 9"
        }
    }

    @Test func aFailedDocumentTakesItsReferencesWithIt() throws {
        let scope = ReferenceScope()
        try realm.write {
            expectKuraError(.store) {
                // The reference is reserved, then the document fails on its missing name.
                try realm.create("Node", value: ["$id": "x", "next": ["$ref": "y"]], references: scope)
            }
            #expect(scope.isResolved)
            try realm.create("Node", value: ["$id": "x", "name": "X"], references: scope)
        }
        #expect(try realm.count("Node") == 1)
        #expect(scope.unresolved.isEmpty)
    }

    @Test func aRolledBackTransactionForgetsItsDefinitions() throws {
        let scope = ReferenceScope()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try realm.write {
                try realm.create("Node", value: ["$id": "x", "name": "X"], references: scope)
                throw Abort()
            }
        }
        // "x" named an object that was rolled back: a new reference to it must not resolve to that id.
        #expect {
            try realm.write { try realm.create("Node", value: ["name": "A", "next": ["$ref": "x"]], references: scope) }
        } throws: { error in (error as? KuraError)?.code == .store(.unresolvedReference) }
        #expect(try realm.count("Node") == 0)
    }

    /// An alias names an anchor of its own YAML document, the node that holds it included (a link
    /// back to an ancestor); a link into an earlier document is an explicit `$ref`.
    @Test func yamlAnchorsAndAliasesLinkTheSameObject() throws {
        let yaml = """
            --- &alice
            name: Alice
            next: &bob
              name: Bob
              next: *alice
            friends: [*bob, *alice]
            ---
            name: Carol
            next: {$ref: bob}
            """
        let reader = YAMLReader(text: yaml, file: "people.yaml")
        let mapper = DocumentMapper(schema: schema, file: "people.yaml")
        let scope = ReferenceScope()
        try realm.write {
            while let node = try reader.next() {
                try realm.create("Node", value: try mapper.map(node, as: "Node").value, references: scope)
            }
        }
        #expect(try realm.count("Node") == 3)
        let alice = try node("Alice")
        let bob = try node("Bob")
        #expect(try alice.link("next") == bob)
        #expect(try bob.link("next") == alice)
        #expect(try alice.objects("friends") == [bob, alice])
        #expect(try node("Carol").link("next") == bob)
    }

    @Test func yamlAliasOfAnEmbeddedDocumentIsRefused() throws {
        let yaml = """
            name: A
            home: &h
              city: Oslo
            next:
              name: B
              home: *h
            """
        let node = try #require(try YAMLReader(text: yaml, file: "homes.yaml").next())
        // At the alias, where the document shares the embedded object.
        #expect {
            try DocumentMapper(schema: schema, file: "homes.yaml").map(node, as: "Node")
        } throws: { error in
            (error as? KuraError)?.description
                == "homes.yaml:6:9: error: $.next.home: expected a nested Place document, found alias *h (an embedded object cannot be shared by two parents)"
        }
    }
}

/// Links inside mixed values, written through an import: by key (also to a later document), by
/// reference, and nested.
@Suite struct MixedLinkImportTests {
    @Test(arguments: RealmEngine.tested) func mixedLinksResolveLikeLinkProperties(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Fixtures.samplesSchema())
        let input = #"""
            [{"$type": "Dog", "name": "Rex", "age": 3, "companion": {"$type": "Person", "$key": 7}},
             {"$type": "Person", "id": 7, "name": "Ann", "dogs": [{"$id": "d", "name": "Fido", "age": 1,
               "companion": [{"$type": "Dog", "$ref": "d"}, {"$type": "DogToy", "name": "Ball"}]}]}]
            """#
        _ = try DocumentImporter(realm: realm).run(JSONReader(bytes: Array(input.utf8), file: "in.json"))
        let ann = try #require(try realm.object(ofType: "Person", forPrimaryKey: .int(7)))
        let rex = try #require(try realm.objects("Dog").first { try $0["name"] == .string("Rex") })
        #expect(try rex["companion"] == .object(ann.ref))
        let fido = try #require(try ann.objects("dogs").first)
        guard case .list(let items) = try fido["companion"], items.count == 2, case .object(let toy) = items[1] else {
            Issue.record("companion is not a list of two links")
            return
        }
        #expect(items[0] == .object(fido.ref))
        #expect(toy.type == "DogToy")
        #expect(try realm.count("DogToy") == 1)
    }

    @Test(arguments: RealmEngine.tested) func aMixedLinkToAMissingKeyIsRefused(on engine: RealmEngine) throws {
        let realm = try engine.makeRealm(try Fixtures.samplesSchema())
        let input = #"[{"name": "Rex", "age": 3, "companion": {"$type": "Person", "$key": 9}}]"#
        let message = "$[0].companion: no Person with primary key 9 in the realm or this input"
        #expect(throws: KuraError.transfer(.badDocument, message, file: "in.json", position: TextPosition(line: 1, column: 2, offset: 1))) {
            try DocumentImporter(realm: realm, options: ImportOptions(type: "Dog")).run(
                JSONReader(bytes: Array(input.utf8), file: "in.json"))
        }
        #expect(try realm.count("Dog") == 0)
    }
}
