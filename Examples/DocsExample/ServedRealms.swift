import Foundation
import Kura
import KuraClient

/// The sample of the article "Realms on Other Machines": it needs a served realm, so the example
/// compiles it and never calls it.
func servedRealms(token: String) async throws {
    let zoo = try KuraClient(url: "https://kura.example.com/v1/realms/zoo", token: token)

    // Import a file, streamed as it is read: one atomic import on the server.
    var options = ImportOptions(type: "Person")
    options.mode = .update
    let summary = try await zoo.importFile("more-people.json", options)
    print(summary.counts["Person"] ?? ChangeCounts())

    // Objects as your models, with the objects they link to filled in.
    let people = try await zoo.objects(Person.self, where: "name BEGINSWITH $0", arguments: ["A"], sortedBy: "name")
    print(people.map(\.name))

    // Documents one by one, never held whole.
    for try await document in zoo.documents(ExportOptions(type: "Person")) {
        print(document.position.line)
    }

    // Every commit from now on (or after a version), as it happens.
    for try await change in zoo.changes() {
        print(change.version, change.types["Person"]?.inserted ?? [])
    }
}
