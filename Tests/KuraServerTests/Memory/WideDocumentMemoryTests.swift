import Foundation
import KuraTestSupport
import Testing

/// One wide document costs memory proportional to its size with a small constant, in the JSON and
/// YAML readers, the mapper and the writer, with `kura import` and over HTTP: importing a document
/// that is one wide container of `elements` elements peaks at most `bytesPerByte` bytes per byte
/// it has over the same document with half as many (which leaves out what the runtime and SQLite
/// take whatever the size).
@Suite struct WideDocumentMemoryTests {
    /// What each further byte of a wide document may cost at the peak: its nodes take about four
    /// (a string of 20 bytes is a node of 48 and a heap block of 64), the writer a little.
    static let bytesPerByte = 7
    /// Elements of the wide container: about 2 MB of document.
    static let elements = 60_000

    static let schema = """
        schemaVersion: 1
        types:
          Wide:
            properties:
              name: string
              entries: map<string>
              items: list<string>
              anything: mixed
        """

    enum Shape {
        case jsonMap, jsonList, jsonMixedMap, yamlMap

        var fileExtension: String { self == .yamlMap ? "yaml" : "json" }

        /// A document whose container holds `count` elements of about 40 bytes.
        func document(_ count: Int) -> String {
            var text = ""
            switch self {
            case .jsonMap, .jsonMixedMap:
                text += self == .jsonMap ? #"{"name":"wide","entries":{"# : #"{"name":"wide","anything":{"#
                for index in 0..<count {
                    if index > 0 { text += "," }
                    text += #""key\#(index)":"value of the entry \#(index)""#
                }
                text += "}}\n"
            case .jsonList:
                text += #"{"name":"wide","items":["#
                for index in 0..<count {
                    if index > 0 { text += "," }
                    text += #""the item \#(index) of the list""#
                }
                text += "]}\n"
            case .yamlMap:
                text += "name: wide\nentries:\n"
                for index in 0..<count { text += "  key\(index): value of the entry \(index)\n" }
            }
            return text
        }
    }

    /// The peak resident set of `kura import` of `document` into a new realm named `name`.
    private static func importPeak(_ document: String, _ shape: Shape, in folder: URL, name: String) throws -> Int {
        let kura = Fixtures.executable("kura")
        let schemaPath = folder.appendingPathComponent("schema.yaml").path
        try schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        let realm = folder.appendingPathComponent("\(name).realm").path
        let input = folder.appendingPathComponent("\(name).\(shape.fileExtension)").path
        try document.write(toFile: input, atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["init", realm, "--schema", schemaPath]).status == 0)
        let run = try MeasuredRun.run(kura, ["import", realm, input, "--type", "Wide"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 document, \(document.utf8.count) bytes"), "\(run.stdout)")
        return run.peakResidentBytes
    }

    /// Imports the wide document of `shape` and the same with half as many elements; expects the
    /// difference of their peaks within `bytesPerByte` times the difference of their sizes.
    private static func expectProportional(_ shape: Shape) throws {
        let folder = try Fixtures.temporaryDirectory()
        let half = shape.document(elements / 2)
        let wide = shape.document(elements)
        let halfPeak = try importPeak(half, shape, in: folder, name: "half")
        let peak = try importPeak(wide, shape, in: folder, name: "wide")
        let bytes = wide.utf8.count - half.utf8.count
        #expect(
            peak - halfPeak <= bytesPerByte * bytes,
            "peak \(peak >> 10) KiB, \(halfPeak >> 10) KiB for half: \(Double(peak - halfPeak) / Double(bytes)) bytes a byte")
    }

    @Test func aWideJSONMapCostsAFewTimesItsSize() throws {
        try Self.expectProportional(.jsonMap)
    }

    @Test func aWideMixedMapCostsAFewTimesItsSize() throws {
        try Self.expectProportional(.jsonMixedMap)
    }

    @Test func aWideYAMLMappingCostsAFewTimesItsSize() throws {
        try Self.expectProportional(.yamlMap)
    }

    /// Each import by a server of its own, as a thread's freed memory is not always reused by the
    /// next request's thread; each size twice, keeping the lower peak, as other work on the machine
    /// moves a server's peak by more than the margin.
    @Test func aWideMapImportedOverHTTPCostsTheServerAFewTimesItsSize() throws {
        let fixture = try ServiceFixture(makingSampleRealm: false)
        let schemaPath = fixture.path("schema.yaml")
        try Self.schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        let half = Shape.jsonMap.document(Self.elements / 2)
        let wide = Shape.jsonMap.document(Self.elements)
        var peaks: [Int] = []
        for (size, document) in [half, wide].enumerated() {
            var lowest = Int.max
            for attempt in 0..<2 {
                let name = "wide\(size)\(attempt)"
                #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("\(name).realm"), "--schema", schemaPath]).status == 0)
                let server = try fixture.serve(["\(name).realm"])
                let reply = try server.request(
                    "/v1/realms/\(name)/import?type=Wide", method: "POST", headers: ["Content-Type": "application/json"],
                    body: Data(document.utf8))
                #expect(reply.status == 200, "\(reply.text)")
                #expect(reply.text.hasPrefix(#"{"documents":1,"#), "\(reply.text)")
                lowest = min(lowest, try #require(ServerMemory.peakResidentBytes(of: server.process.processIdentifier)))
            }
            peaks.append(lowest)
        }
        let bytes = wide.utf8.count - half.utf8.count
        #expect(
            peaks[1] - peaks[0] <= Self.bytesPerByte * bytes,
            "peak \(peaks[1] >> 10) KiB, \(peaks[0] >> 10) KiB for half: \(Double(peaks[1] - peaks[0]) / Double(bytes)) bytes a byte")
    }
}
