import Foundation
import Kura
import Testing

/// A primary key's text in a URL and back, and the names of the update modes, as the library gives
/// them to the command line and the server.
@Suite struct PrimaryKeyTextTests {
    @Test func eachKeyTypeReadsBackTheTextItWrites() throws {
        let id = try #require(ObjectId(hex: "5f1a2b3c4d5e6f7a8b9c0d1e"))
        let uuid = try #require(UUID(uuidString: "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9"))
        let keys: [(PropertyType, Value, String)] = [
            (.int, .int(-42), "-42"), (.string, .string("Rex / Fido"), "Rex / Fido"),
            (.objectId, .objectId(id), "5f1a2b3c4d5e6f7a8b9c0d1e"), (.uuid, .uuid(uuid), "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9"),
        ]
        for (type, value, text) in keys {
            #expect(value.primaryKeyText == text)
            #expect(type.primaryKey(fromText: text) == value)
            #expect(PropertyType.optional(type).primaryKey(fromText: text) == value)
        }
    }

    @Test func anIntegerKeyHasOneText() {
        #expect(PropertyType.int.primaryKey(fromText: "7") == .int(7))
        for text in ["07", "+7", " 7", "7.0", "", "x"] { #expect(PropertyType.int.primaryKey(fromText: text) == nil, "\(text)") }
        #expect(PropertyType.objectId.primaryKey(fromText: "zz") == nil)
        #expect(PropertyType.bool.primaryKey(fromText: "true") == nil)
        #expect(Value.double(1.5).primaryKeyText == nil)
    }

    @Test func modesAreNamedAsCommandsAndRequestsGiveThem() {
        #expect(UpdatePolicy.modeNames == ["insert", "update", "modified", "replace"])
        #expect(UpdatePolicy(modeName: "insert") == .error)
        #expect(UpdatePolicy(modeName: "update") == .update)
        #expect(UpdatePolicy(modeName: "modified") == .modified)
        #expect(UpdatePolicy(modeName: "replace") == .replace)
        #expect(UpdatePolicy(modeName: "Insert") == nil)
    }
}
