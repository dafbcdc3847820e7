import Kura

/// What the OpenAPI document shows of one served realm, read when the document is asked for: its
/// schema, and for each top-level type the first few objects (their URL keys and documents), so
/// that examples name objects that exist.
struct RealmSnapshot: Sendable {
    /// The first objects of one type, in the order its pages list them.
    struct Samples: Sendable {
        /// Each object's key as its URL names it (unencoded).
        var keys: [String] = []
        /// Each object's document as export writes it, one line of JSON.
        var documents: [String] = []
    }

    /// How many objects of each type the examples show.
    static let sampleCount = 3

    let name: String
    let schema: Schema
    let samples: [String: Samples]

    /// The realms of `names` as they are now.
    static func read(_ names: [String], of realms: ServedRealms) async throws -> [RealmSnapshot] {
        try await realms.work.run {
            try names.map { name in try realms.reading(name) { realm in try RealmSnapshot(realm: realm, name: name) } }
        }
    }

    private init(realm: Realm, name: String) throws {
        self.name = name
        schema = realm.schema
        var samples: [String: Samples] = [:]
        for type in schema.types where !type.isEmbedded {
            var found = Samples()
            let output = DocumentOutput()
            let writer = DocumentWriter(schema: schema, format: .jsonl, output: output)
            writer.onStoredDocument = { ref, primaryKey in found.keys.append(ObjectAddress.key(of: ref, primaryKey: primaryKey)) }
            _ = try RealmExporter(realm: realm, options: ExportOptions(type: type.name, limit: Self.sampleCount)).run(to: writer)
            found.documents = String(decoding: output.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            samples[type.name] = found
        }
        self.samples = samples
    }
}
