import Foundation
import Kura

/// The samples of "Documents and the Strict Rules".
func documents() throws {
    let decoder = try DocumentDecoder(models: [Person.self])
    let json = Data(#"{"name": "Ana", "dogs": [{"name": "Rex", "age": 3}], "address": {"city": "Lisbon"}}"#.utf8)
    let ana = try decoder.decode(Person.self, json: json)[0]
    print(ana.dogs[0].name, ana.address?.city ?? "")        // Rex Lisbon

    let bad = Data(#"{"name": "Bo", "dogs": [{"name": "Max", "age": "three"}]}"#.utf8)
    do {
        _ = try decoder.decode(Person.self, json: bad, file: "bo.json")
    } catch {
        print(error)
    }

    let encoder = try DocumentEncoder(models: [Person.self])
    print(String(decoding: try encoder.encode([ana]), as: UTF8.self))
}
