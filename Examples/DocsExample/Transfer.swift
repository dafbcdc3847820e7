import Foundation
import Kura

/// The samples of "Import, Export and Copy".
func importExportAndCopy() throws {
    let realm = try Realm(path: "people.realm", schema: try Schema(models: [Person.self]))
    let input = JSONReader(data: Data("""
        {"name": "Ana", "dogs": [{"name": "Rex", "age": 3}]}
        {"name": "Bo", "dogs": [{"name": "Max", "age": 5}, {"name": "Fido", "age": 1}]}
        """.utf8), file: "people.jsonl")
    let summary = try DocumentImporter(realm: realm, options: ImportOptions(type: "Person")).run(input)
    print(summary.documents, summary.counts["Dog"]?.inserted ?? 0)      // 2 3

    let output = DocumentOutput()                           // in memory; DocumentOutput(path:) writes a file
    let writer = DocumentWriter(schema: realm.schema, format: .jsonl, output: output)
    _ = try RealmExporter(realm: realm, options: ExportOptions(type: "Dog", predicate: "age >= 3", sort: "name")).run(to: writer)
    print(String(decoding: output.bytes, as: UTF8.self), terminator: "")
    // {"name":"Max","age":5}
    // {"name":"Rex","age":3}

    let backup = try Realm(path: "backup.realm", schema: realm.schema)
    let counts = try RealmCopier(source: realm, destination: backup).run()
    print(counts["Person"]?.inserted ?? 0, counts["Dog"]?.inserted ?? 0)   // 2 3

    let update = JSONReader(data: Data("""
        {"id": 1, "name": "Ana", "dogs": [{"name": "Rex", "age": 4}]}
        """.utf8), file: "ana.jsonl")
    let again = try DocumentImporter(realm: realm, options: ImportOptions(type: "Person", mode: .modified)).run(update)
    print(again.counts["Dog"]?.updated ?? 0, try realm.count("Dog"))    // 1 3: Ana's Rex, a year older
}
