import Foundation
import Kura
import KuraTestSupport
import Testing

/// `kura import` of empty inputs (an error in JSON, zero documents in JSON Lines and YAML) and of
/// trailing commas (refused, pointing at the comma), from files and from standard input.
@Suite struct EmptyAndCommaInputTests: SamplesRealmSuite {
    let samples: SamplesRealmFolder

    init() throws { samples = try SamplesRealmFolder() }

    /// Runs kura with `input` on its standard input.
    private func run(_ arguments: [String], input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: kura)
        process.arguments = arguments
        let (stdin, out, err) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func anEmptyJSONFileIsAnError() throws {
        for (name, text, message) in [
            ("empty.json", "", "empty input"),
            ("blank.json", " \n\t\r\n", "only white space"),
        ] {
            let path = try file(name, text)
            let result = try Fixtures.run(kura, ["import", realmPath, path, "--type", "Person"])
            #expect(result.status == 65)
            #expect(result.stderr == "kura: \(path):1:1: error: \(message), expected a JSON value ([] holds no documents)\n")
            #expect(result.stdout == "")
        }
        let fromStandardInput = try run(["import", realmPath, "/dev/stdin", "--type", "Person", "--format", "json"], input: "")
        #expect(fromStandardInput.status == 65)
        #expect(fromStandardInput.stderr == "kura: /dev/stdin:1:1: error: empty input, expected a JSON value ([] holds no documents)\n")
        let emptyArray = try Fixtures.run(kura, ["import", realmPath, try file("none.json", "[]\n"), "--type", "Person"])
        #expect(emptyArray.status == 0)
        #expect(emptyArray.stdout == "0 documents, 3 bytes\n")
    }

    @Test func anEmptyJSONLinesOrYAMLFileIsZeroDocuments() throws {
        for (name, text) in [
            ("empty.jsonl", ""), ("blank.jsonl", "\n  \n\r\n"), ("empty.yaml", ""), ("blank.yaml", " \n\n"), ("comment.yml", "# nothing\n"),
        ] {
            let path = try file(name, text)
            let result = try Fixtures.run(kura, ["import", realmPath, path, "--type", "Person"])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout == "0 documents, \(text.utf8.count) bytes\n", "\(name)")
        }
        for format in ["jsonl", "yaml"] {
            let result = try run(["import", realmPath, "/dev/stdin", "--type", "Person", "--format", format], input: "")
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(result.stdout == "0 documents, 0 bytes\n")
        }
        #expect(try Realm(path: realmPath).count("Person") == 0)
    }

    @Test func aTrailingCommaIsNamedAtTheComma() throws {
        let cases: [(String, String, String)] = [
            ("array.json", "[\n  {\"name\": \"Ann\"},\n  {\"name\": \"Bob\"},\n]\n", "3:18: error: trailing comma in array"),
            ("object.json", "[{\"name\": \"Ann\", \"dogs\": [],\n}]", "1:28: error: trailing comma in object"),
            ("nested.json", "{\"name\": \"Ann\", \"dogs\": [{\"name\": \"Rex\", \"age\": 3, \"citiesVisited\": [\"Oslo\",]}]}",
             "1:76: error: trailing comma in array"),
            ("lines.jsonl", "{\"name\": \"Ann\"}\n{\"name\": \"Bob\"},\n", "2:16: error: trailing comma at the end of the line"),
            ("inside.jsonl", "{\"name\": \"Ann\",}\n", "1:15: error: trailing comma in object"),
            ("after.json", "[{\"name\": \"Ann\"}],\n", "1:18: error: trailing comma at the end of the input"),
        ]
        for (name, text, message) in cases {
            let path = try file(name, text)
            let result = try Fixtures.run(kura, ["import", realmPath, path, "--type", "Person"])
            #expect(result.status == 65, "\(name)")
            #expect(result.stderr == "kura: \(path):\(message)\n")
        }
        let piped = try run(["import", realmPath, "/dev/stdin", "--type", "Person", "--format", "json"], input: "[{\"name\": \"Ann\"},]")
        #expect(piped.stderr == "kura: /dev/stdin:1:17: error: trailing comma in array\n")
        #expect(try Realm(path: realmPath).count("Person") == 0)
    }
}
