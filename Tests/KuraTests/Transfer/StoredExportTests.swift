import Foundation
import KuraTestSupport
import Testing

// @testable to run the same stream through the assembled-value path and compare the two.
@testable import Kura

/// An export writes stored rows as text directly; the text must be exactly what writing the
/// assembled document values gives (the path a copy and Codable models take), in every format,
/// for every shape the graph fixture holds: shared and cyclic objects, links in mixed values,
/// embedded lists, and a chain deferred past the nesting limit.
@Suite struct StoredExportTests {
    let folder: URL
    let realm: Realm

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        realm = try Realm(path: try GraphFixture.makeRealm(in: folder).realm)
    }

    /// The export through `RealmExporter` (the stored path).
    func stored(_ format: DocumentFormat, _ options: ExportOptions = ExportOptions()) throws -> String {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: format, output: output)
        _ = try RealmExporter(realm: realm, options: options).run(to: writer)
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// The same stream, with each document assembled as a value and then written.
    func assembled(_ format: DocumentFormat, type: String? = nil, ids: [Int64] = []) throws -> String {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: realm.schema, format: format, output: output)
        let sink = AssembledSink(writer: writer)
        try realm.read { snapshot in
            var stream = try ObjectStream(snapshot: snapshot, sink: sink, rootType: type)
            if let type { try stream.writeSelection(type, ids: ids) } else { try stream.writeRealm() }
        }
        try writer.finish()
        return String(decoding: output.bytes, as: UTF8.self)
    }

    @Test(arguments: [DocumentFormat.json, .jsonl, .yaml])
    func aWholeRealmExportIsTheAssembledDocumentsText(format: DocumentFormat) throws {
        let text = try stored(format)
        #expect(text == (try assembled(format)))
        // The shapes are there: references, a mixed link by key, an embedded list, a deferred chain.
        if format == .jsonl {
            #expect(text.contains(#"{"$ref":"Node-"#))
            #expect(text.contains(#""payload":{"$type":"Owner","$key":2}"#))
            #expect(text.contains(#""near":[{"x":3,"y":4,"near":[]}]"#))
            #expect(text.contains(#""name":"chain99""#))
        }
    }

    @Test func aSelectionExportIsTheAssembledDocumentsText() throws {
        let ids = try realm.read { snapshot in try RealmExporter.selectedIds("Node", predicate: nil, in: snapshot) }
        #expect(ids.count > 100)
        #expect(try stored(.jsonl, ExportOptions(type: "Node")) == (try assembled(.jsonl, type: "Node", ids: ids)))
    }

    @Test func aWriterWithAnotherSchemaIsRefused() throws {
        let other = try Schema(yaml: GraphFixture.schema.replacingOccurrences(of: "      tags: set<string>\n", with: ""), file: "other.yaml")
        let writer = DocumentWriter(schema: other, format: .json, output: DocumentOutput())
        let error = expectKuraError(.store) { try RealmExporter(realm: realm).run(to: writer) }
        #expect(error?.message == "the writer's schema lays out Node unlike the realm's: write with the realm's schema")
    }
}

/// Writes each document of a stream as its assembled value.
private final class AssembledSink: ObjectStreamSink {
    let writer: DocumentWriter

    init(writer: DocumentWriter) { self.writer = writer }

    var bytesWritten: Int { writer.bytesWritten }

    func write(_ source: ObjectRef, tagged: Bool, from objects: StoredObjects) throws {
        try writer.write(try objects.document(source), as: source.type, tagged: tagged)
    }

    func keepCounters(_ counters: [(type: String, last: Int64)]) throws {
        try writer.writeRealmDocument(autoIncrement: counters)
    }
}
