import Foundation
import Kura
import KuraTestSupport

/// Inputs for several writers of one realm (the samples schema), the processes that run them, and
/// the comparison of a realm's export with what was written into it.
enum ConcurrencyFixtures {
    /// One writer's documents as JSON Lines: `people` Person documents without a key (each with two
    /// dogs, their toys, an embedded address, mixed companions and a link to the writer's previous
    /// person by `$ref`), and after every tenth person a DogClub listing two of them.
    static func documents(writer: Int, people: Int) -> [String] {
        var lines: [String] = []
        for index in 0..<people {
            let dogs = (0..<2).map { dog in
                #"{"name": "w\#(writer)-dog\#(index)-\#(dog)", "age": \#(dog + index % 15), "citiesVisited": ["Oslo", "c\#(index)"], "#
                    + #""favoriteParksByCity": {"Oslo": "park\#(index)"}, "companion": {"toy": "ball", "list": [\#(index), \#(dog), "x"]}, "#
                    + #""favoriteToy": {"name": "toy\#(writer)-\#(index)-\#(dog)"}}"#
            }
            let friend = index > 0 ? #", "bestFriend": {"$ref": "p\#(index - 1)"}"# : ""
            lines.append(
                #"{"$type": "Person", "$id": "p\#(index)", "name": "w\#(writer)-p\#(index)", "#
                    + #""createdAt": {"$date": "2024-03-01T09:30:00.000Z"}, "address": {"city": "City \#(writer)", "street": "Street \#(index)"}, "#
                    + #""dogs": [\#(dogs.joined(separator: ", "))]\#(friend)}"#)
            if index % 10 == 9 {
                lines.append(
                    #"{"$type": "DogClub", "name": "w\#(writer)-club\#(index)", "members": [{"$ref": "p\#(index)"}, {"$ref": "p\#(index - 5)"}]}"#)
            }
        }
        return lines
    }

    /// The writer whose input made a top-level document, from the `wN-` prefix of its name.
    static func writer(of document: [String: Any]) -> String? {
        (document["name"] as? String)?.split(separator: "-").first.map(String.init)
    }

    /// Documents as a comparable set of texts: keys sorted, nulls, `$type` and `$id` dropped, sets sorted, and links between people written as the linked person's name, so that
    /// the input and an export of the realm it went into give the same texts whatever keys were drawn.
    static func canonical(_ documents: [[String: Any]]) throws -> [String] {
        // Inputs link people by "$ref" to "$id" within one writer; exports by the key drawn.
        var names: [String: String] = [:]
        for document in documents {
            guard let name = document["name"] as? String else { continue }
            if let id = document["$id"] as? String, let writer = writer(of: document) { names["\(writer)/\(id)"] = name }
            if let key = document["id"] as? Int { names["#\(key)"] = name }
        }
        func person(_ link: Any?, of document: [String: Any]) -> String {
            if let key = link as? Int { return names["#\(key)"] ?? "missing #\(key)" }
            if let ref = (link as? [String: Any])?["$ref"] as? String, let writer = writer(of: document) {
                return names["\(writer)/\(ref)"] ?? "missing \(ref)"
            }
            return "none"
        }
        return try documents.map { document in
            var copy = document
            copy["id"] = nil
            if let friend = document["bestFriend"], !(friend is NSNull) { copy["bestFriend"] = person(friend, of: document) }
            if let members = document["members"] as? [Any] { copy["members"] = members.map { person($0, of: document) } }
            if let type = document["$type"] as? String { copy["type"] = type }
            let data = try JSONSerialization.data(withJSONObject: stripped(copy), options: [.sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }.sorted()
    }

    /// `value` without nulls, `$type` and `$id`, with every `citiesVisited` set sorted.
    private static func stripped(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, member) in object where key != "$type" && key != "$id" && !(member is NSNull) {
                if key == "citiesVisited", let cities = member as? [String] {
                    result[key] = cities.sorted()
                } else {
                    result[key] = stripped(member)
                }
            }
            return result
        }
        if let array = value as? [Any] { return array.map(stripped) }
        return value
    }

    /// Parses JSON Lines, or a JSON array, into documents.
    static func parse(_ text: String) throws -> [[String: Any]] {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("[") {
            guard let array = try JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [[String: Any]] else {
                throw ParseFailure(text: String(trimmed.prefix(200)))
            }
            return array
        }
        return try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ParseFailure(text: String(line.prefix(200)))
            }
            return object
        }
    }

    struct ParseFailure: Error {
        let text: String
    }
}

/// A `kura` process started in the background, its output kept in files (pipes could fill and block it).
final class SpawnedProcess {
    let process = Process()
    let arguments: [String]
    private let outputURL: URL
    private let errorURL: URL

    /// Starts `kura arguments`, writing its output beside the other files in `folder`.
    init(_ arguments: [String], in folder: URL) throws {
        self.arguments = arguments
        let name = UUID().uuidString
        outputURL = folder.appendingPathComponent("\(name).out")
        errorURL = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Fixtures.executable("kura"))
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    /// Waits for the process to end; returns its exit status, standard output and standard error.
    func finish() throws -> (status: Int32, stdout: String, stderr: String) {
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: outputURL, encoding: .utf8),
                try String(contentsOf: errorURL, encoding: .utf8))
    }

    /// Starts every command at once and waits for all of them.
    static func runTogether(_ commands: [[String]], in folder: URL) throws -> [(status: Int32, stdout: String, stderr: String)] {
        let started = try commands.map { try SpawnedProcess($0, in: folder) }
        return try started.map { try $0.finish() }
    }
}
