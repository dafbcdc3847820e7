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
