import Foundation
import Kura
import KuraClient

/// The client sample of docs/remote.md, compiled here; it needs a server, so the example never
/// calls it.
func servedRealmSample(token: String) async throws {
    let zoo = try KuraClient(url: "https://kura.example.com/v1/realms/zoo", token: token)
    var options = ImportOptions(type: "Person")
    options.mode = .update
    let summary = try await zoo.importFile("more-people.json", options)
    print(summary.counts["Person"] ?? ChangeCounts())
    try await zoo.export(type: "Person", where: "age >= 18", format: .jsonl) { chunk in
        FileHandle.standardOutput.write(Data(chunk.readableBytesView))
    }
    let adults = try await zoo.count("Person", where: "age >= 18")
    print("\(adults) adults")
}

/// The client sample of the README, compiled here; it needs a server, so the example never calls it.
func readmeClientSample() async throws {
    let samples = try KuraClient(url: "http://127.0.0.1:8080/v1/realms/samples")
    let people = try await samples.objects(Person.self, where: "name BEGINSWITH $0", arguments: ["A"])
    print(people.map(\.name))
    for try await change in samples.changes() { print(change.types) }
}
