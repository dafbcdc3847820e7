import ArgumentParser
import Foundation
import Kura
import KuraClient

/// `kura export [REALM]`: a realm's objects as JSON, JSON Lines or YAML documents that import reads back.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a realm, or the objects of one type, as JSON, JSON Lines or YAML documents.",
        discussion: """
            Without --type the whole realm is exported: every document names its type with "$type", and \
            importing the file into an empty realm (kura import NEW.realm FILE) gives the same realm back. \
            Links to objects with a primary key are written as the key; objects without one are nested \
            where they are linked, and one reached twice or in a cycle carries "$id" where it is first \
            written and is {"$ref": id} after (YAML uses anchors and aliases within a document). Dates, \
            data, object ids and decimals use typed wrappers such as {"$date": "…"}.

            --where takes a predicate in Realm Query Language, such as "age >= 3 AND name BEGINSWITH 'R'", \
            "ANY dogs.age >= 3", "dogs.@avg.age > 5", "age > bestFriend.age" or \
            "SUBQUERY(dogs, $d, $d.age > 3).@count > 1", which may end in SORT(name ASC), DISTINCT(name) \
            and LIMIT(10). --sort (then --limit) applies after them: key paths, each optionally followed \
            by asc or desc: "name", "age desc, name".

            Documents go to standard output unless --output names a file; a file is written whole or \
            not at all.
            """)

    @OptionGroup var realmOptions: RealmOptions

    @OptionGroup var token: TokenOption

    @Option(name: .long, help: "Export only the objects of this type.")
    var type: String?

    @Option(name: .customLong("where"), help: "A predicate selecting the objects of --type.")
    var predicate: String?

    @Option(name: .long, help: "Sort keys for --type, such as 'name' or 'age desc, name'.")
    var sort: String?

    @Option(name: .long, help: "At most this many documents of --type.")
    var limit: Int?

    @Option(name: .long, help: "json (an array, one document per line), jsonl or yaml (default: from --output, else json).")
    var format: DocumentFormat?

    @Option(name: [.short, .long], help: "The file to write; - for standard output (the default).")
    var output: String?

    /// The file named by `--output`; `nil` for standard output, which `-` also names.
    private var outputFile: String? { output == "-" ? nil : output }

    @Flag(name: .long, help: "Indent JSON, one member per line.")
    var pretty = false

    func validate() throws {
        if type == nil && (predicate != nil || sort != nil || limit != nil) {
            throw ValidationError("--where, --sort and --limit need --type")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
    }

    func run() throws {
        try CommandFailure.report {
            let settings = try realmOptions.settings()
            let realmPath = try realmOptions.realmPath(settings)
            if RemoteRealms.names(realmPath) { return try exportServed(realmPath) }
            try RealmPaths.requireRealm(realmPath)
            let chosen = try chosenFormat()
            let target = try outputFile.map { try OutputTarget(path: $0, role: "the export", protecting: OutputTarget.realmFiles(realmPath)) }
            let realm = try Realm(configuration: Realm.Configuration(path: realmPath, readOnly: true))
            if let type, realm.schema[type: type] == nil {
                throw CommandFailure(.usage, realm.schema.noTypeMessage(type))
            }
            InterruptTrap.install(message: "export interrupted" + (outputFile.map { ": '\($0)' was not written" } ?? ""))
            let writer = DocumentWriter(schema: realm.schema, format: chosen, pretty: pretty, output: try target?.open() ?? .standardOutput())
            var exporter = RealmExporter(
                realm: realm, options: ExportOptions(type: type, predicate: predicate, sort: sort, limit: limit))
            let progress = ProgressLine(totalBytes: 0)
            if outputFile != nil { exporter.onProgress = { progress.update($0) } }
            let summary: ExportSummary
            do {
                summary = try exporter.run(to: writer)
                try target?.commit()
            } catch {
                target?.discard()
                throw error
            }
            progress.finish()
            reportExported(summary.documents, bytes: summary.bytes)
        }
    }

    /// Exports a served realm: the server's stream written as it comes, the same bytes a local
    /// export of the realm writes.
    private func exportServed(_ url: String) throws {
        let client = try RemoteRealms.client(url, tokenFile: token.tokenFile)
        let chosen = try chosenFormat()
        if let type {
            let schema = try RemoteRealms.wait { try await client.schema() }
            if schema[type: type] == nil { throw CommandFailure(.usage, schema.noTypeMessage(type)) }
        }
        let target = try outputFile.map { try OutputTarget(path: $0, role: "the export", protecting: []) }
        InterruptTrap.install(message: "export interrupted" + (outputFile.map { ": '\($0)' was not written" } ?? ""))
        let output = try target?.open() ?? .standardOutput()
        let progress = ProgressLine(totalBytes: 0)
        var tally = ExportTally(format: chosen, type: type)
        var written = 0
        let showsProgress = outputFile != nil
        let draw = { if showsProgress { progress.update(ExportProgress(documents: tally.total, bytes: written)) } }
        let download = ChunkChannel(capacity: 16)
        let (type, predicate, sort, limit, pretty) = (type, predicate, sort, limit, pretty)
        Task {
            do {
                try await client.export(type: type, where: predicate, sort: sort, limit: limit, format: chosen, pretty: pretty) { chunk in
                    try await download.put(chunk)
                }
                download.finish()
            } catch {
                download.finish(throwing: error)
            }
        }
        do {
            while let chunk = try download.take(tick: draw) {
                tally.feed(chunk.readableBytesView)
                try output.append(chunk.readableBytesView)
                written += chunk.readableBytes
            }
            tally.finish()
            try output.close()
            try target?.commit()
        } catch {
            download.cancel()
            target?.discard()
            throw error
        }
        progress.finish()
        reportExported(tally.documents, bytes: written)
    }

    /// The closing line: documents by type and bytes, on standard error.
    private func reportExported(_ documents: [String: Int], bytes: Int) {
        let destination = outputFile.map { " to \($0)" } ?? ""
        let perType = documents.keys.sorted().map { "\($0): \(documents[$0] ?? 0)" }
        let details = perType.isEmpty ? "" : " (\(perType.joined(separator: ", ")))"
        let total = documents.values.reduce(0, +)
        let counts = "\(Counted(total, "document"))\(details), \(Counted(bytes, "byte"))"
        FileHandle.standardError.write(Data("Exported \(counts)\(destination)\n".utf8))
    }

    private func chosenFormat() throws -> DocumentFormat {
        if let format { return format }
        guard let output = outputFile else { return .json }
        guard let inferred = DocumentFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) else {
            throw CommandFailure(.usage, "cannot tell the format of '\(output)' from its extension: give --format json|jsonl|yaml")
        }
        return inferred
    }
}
