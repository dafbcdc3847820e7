import Foundation
import Kura
import KuraTestSupport
import Testing

/// `create(_:value:update:)` follows Realm's update policies, plus `replace`.
struct UpdatePolicyCases {
    static let schema = """
        schemaVersion: 1
        types:
          Tag:
            primaryKey: label
            properties:
              label: string
              uses: int
          Note:
            primaryKey: id
            properties:
              id: string
              title: string
              body: { type: string, default: "" }
              stars: int?
              tags: list<Tag>
              words: set<string>
              meta: map<int>
              extra: mixed
              place: Place?
          Place:
            embedded: true
            properties:
              city: string?
              zip: string?
        """

    let realm: Realm

    init(_ engine: RealmEngine) throws {
        realm = try Realm(path: try engine.freshRealm(), schema: try Schema(yaml: Self.schema))
        try realm.write {
            try realm.create("Note", value: [
                "id": "n1", "title": "First", "body": "text", "stars": 3, "tags": [["label": "a", "uses": 1]],
                "words": ["x"], "meta": ["k": 1], "extra": ["deep": [1, 2]], "place": ["city": "Oslo", "zip": "0150"],
            ])
        }
    }

    func note() throws -> DynamicObject { try #require(try realm.object(ofType: "Note", forPrimaryKey: "n1")) }

    func insertRefusesAnExistingKey() throws {
        #expect(throws: KuraError.store(.duplicatePrimaryKey, "Note: an object of type Note with primary key \"n1\" already exists")) {
            try realm.write { try realm.create("Note", value: ["id": "n1", "title": "Again"]) }
        }
        #expect(try note()["title"] == "First")
    }

    func updateSetsGivenPropertiesAndLeavesTheRest() throws {
        try realm.write { try realm.create("Note", value: ["id": "n1", "title": "Second", "place": ["zip": "0151"]], update: .update) }
        let note = try note()
        #expect(try note["title"] == "Second")
        #expect(try note["body"] == "text")
        #expect(try note["stars"] == 3)
        #expect(try note["words"] == ["x"])
        #expect(try note.link("place")?.values() == ["city": "Oslo", "zip": "0151"])
        #expect(try realm.count("Place") == 1)
        #expect(try Fixtures.problems(realm) == [])
    }

    func replaceResetsEverythingNotGiven() throws {
        try realm.write { try realm.create("Note", value: ["id": "n1", "title": "Only"], update: .replace) }
        let note = try note()
        #expect(try note.values() == [
            "id": "n1", "title": "Only", "body": "", "stars": nil, "tags": [], "words": [], "meta": [:], "extra": nil,
            "place": nil,
        ])
        #expect(try realm.count("Place") == 0)
        #expect(try realm.count("Tag") == 1)
        #expect(try Fixtures.problems(realm) == [])
    }

    func modifiedWritesOnlyWhatDiffersAndReportsUnchangedObjects() throws {
        let same: Value = [
            "id": "n1", "title": "First", "body": "text", "stars": 3, "tags": ["a"], "words": ["x"], "meta": ["k": 1],
            "extra": ["deep": [1, 2]], "place": ["city": "Oslo", "zip": "0150"],
        ]
        let placeBefore = try note()["place"]
        let unchanged = try realm.write {
            try realm.create("Note", value: same, update: .modified)
            return try realm.changeCounts()
        }
        #expect(unchanged["Note"] == ChangeCounts(inserted: 0, updated: 0, unchanged: 1, deleted: 0))
        #expect(try note()["place"] == placeBefore)
        let changed = try realm.write {
            try realm.create("Note", value: same.merging(["stars": 4]), update: .modified)
            return try realm.changeCounts()
        }
        #expect(changed["Note"] == ChangeCounts(inserted: 0, updated: 1, unchanged: 0, deleted: 0))
        #expect(try note()["stars"] == 4)
    }

    func nestedObjectsWithAPrimaryKeyFollowTheMode() throws {
        try realm.write {
            try realm.create("Note", value: ["id": "n2", "title": "Two", "tags": [["label": "a", "uses": 9], ["label": "b", "uses": 1]]], update: .update)
        }
        #expect(try realm.count("Tag") == 2)
        #expect(try realm.object(ofType: "Tag", forPrimaryKey: "a")?["uses"] == 9)
        #expect(throws: KuraError.store(.duplicatePrimaryKey, "Note.tags[0]: an object of type Tag with primary key \"a\" already exists")) {
            try realm.write { try realm.create("Note", value: ["id": "n3", "title": "Three", "tags": [["label": "a", "uses": 0]]]) }
        }
        #expect(try realm.object(ofType: "Note", forPrimaryKey: "n3") == nil)
    }

    func writingOutsideATransactionIsAnError() throws {
        let expected = KuraError.store(
            .notInWriteTransaction, "cannot modify a realm outside a write transaction: wrap the change in realm.write { … }")
        #expect(throws: expected) { try realm.create("Note", value: ["id": "n9", "title": "Nine"]) }
        #expect(throws: expected) { try note().setValue("Changed", forKey: "title") }
        #expect(throws: expected) { try realm.delete(note()) }
        #expect(try note()["title"] == "First")
    }

    func aPrimaryKeyCannotBeChanged() throws {
        #expect(throws: KuraError.store(.primaryKeyChanged, "Note.id: a primary key cannot be changed once set")) {
            try realm.write { try note().setValue("n7", forKey: "id") }
        }
    }

    func embeddedObjectsAreCreatedOnlyThroughTheirParent() throws {
        #expect(throws: KuraError.store(.embeddedMisuse, "Place is embedded: create it as a nested value of its parent")) {
            try realm.write { try realm.create("Place", value: ["city": "Rome"]) }
        }
    }
}

/// The cases of `UpdatePolicyCases`, each run on every engine that does not need an SQLite file.
@Suite struct UpdatePolicyTests {
    @Test(arguments: RealmEngine.tested) func insertRefusesAnExistingKey(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).insertRefusesAnExistingKey()
    }
    @Test(arguments: RealmEngine.tested) func updateSetsGivenPropertiesAndLeavesTheRest(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).updateSetsGivenPropertiesAndLeavesTheRest()
    }
    @Test(arguments: RealmEngine.tested) func replaceResetsEverythingNotGiven(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).replaceResetsEverythingNotGiven()
    }
    @Test(arguments: RealmEngine.tested) func modifiedWritesOnlyWhatDiffersAndReportsUnchangedObjects(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).modifiedWritesOnlyWhatDiffersAndReportsUnchangedObjects()
    }
    @Test(arguments: RealmEngine.tested) func nestedObjectsWithAPrimaryKeyFollowTheMode(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).nestedObjectsWithAPrimaryKeyFollowTheMode()
    }
    @Test(arguments: RealmEngine.tested) func writingOutsideATransactionIsAnError(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).writingOutsideATransactionIsAnError()
    }
    @Test(arguments: RealmEngine.tested) func aPrimaryKeyCannotBeChanged(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).aPrimaryKeyCannotBeChanged()
    }
    @Test(arguments: RealmEngine.tested) func embeddedObjectsAreCreatedOnlyThroughTheirParent(on engine: RealmEngine) throws {
        try UpdatePolicyCases(engine).embeddedObjectsAreCreatedOnlyThroughTheirParent()
    }
}
