import ArgumentParser
import Foundation
import Kura
import KuraClient

/// `kura import [REALM] FILE...`: strict bulk import of JSON, JSON Lines or YAML documents.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import JSON, JSON Lines or YAML documents into a realm, with strict type checking.",
        discussion: """
            Each document is checked against the realm's schema (see docs/documents.md): types must match exactly, \
            dates and data are never guessed from strings, and required properties must be present. \
            Without --type, every document names its type with "$type" (as a whole-realm export does).

            With --on-error stop (the default) the import is atomic: on the first bad document nothing \
            is written. With skip, good documents are imported and bad ones go to the rejects file, \
            one JSON line each with its errors under "$errors".

            Under update, modified and replace, a document without a primary key updates the object \
            its place holds (the link, the list index, the map key), or at the top level an object \
            holding the same values (see docs/documents.md): importing the same documents again changes nothing.

            The realm may be left out when config.yaml names one and the first file has a document \
            extension (.json, .jsonl, .ndjson, .yaml, .yml).

            A realm kura serve serves is named by its URL (https://HOST:PORT/v1/realms/NAME), with \
            its token in KURA_TOKEN or --token-file: one file per import, streamed to the server as \
            it is read. Under skip the server commits in batches and lists the documents it set \
            aside, which kura reads again from the file into the rejects file.
            """)

    @Argument(help: "The realm, a file, a postgres:// URL or a served realm's https:// URL (optional, see below), then one or more input files.")
    var paths: [String] = []

    @Option(name: .long, help: "The type of every document; without it documents carry \"$type\".")
    var type: String?

    @Option(name: .long, help: "json (one document or an array), jsonl or yaml (default: from the file extension).")
    var format: DocumentFormat?

    @Option(name: .long, help: "insert (an existing primary key is an error), update, modified or replace.")
    var mode: UpdatePolicy?

    @Flag(name: .customLong("skip-existing"), help: "Leave out documents the realm holds (by primary key, or without one, an object holding all of it), counted as unchanged: importing again changes nothing.")
    var skipExisting = false

    @Option(name: .customLong("on-error"), help: "stop (atomic: nothing is written) or skip (bad documents are set aside).")
    var onError: ImportOptions.ErrorPolicy?

    @Option(name: .long, help: "Where skipped documents are written (default: FILE.rejects.jsonl beside the first input).")
    var rejects: String?

    @Flag(name: .customLong("dry-run"), help: "Check and count everything, write nothing.")
    var dryRun = false

    @Option(name: .customLong("batch-size"), help: "Documents per transaction with --on-error skip (default 10000).")
    var batchSize: Int?

    @Option(name: .customLong("date-strategy"), help: "strict, iso8601, secondsSince1970 or millisecondsSince1970.")
    var dateStrategy: MappingOptions.DateStrategy?

    @Option(name: .customLong("data-strategy"), help: "strict or base64.")
    var dataStrategy: MappingOptions.DataStrategy?

    @Flag(name: .customLong("reject-unknown-keys"), help: "Refuse keys the schema does not define (default: ignore and count).")
    var rejectUnknownKeys = false

    @Flag(name: .customLong("percent-encode-map-keys"), help: "Store map keys with '.' or a leading '$' percent-encoded.")
    var percentEncodeMapKeys = false

    @Option(name: .long, help: "A configuration file to read instead of ./config.yaml.")
    var config: String?

    @OptionGroup var token: TokenOption

    func run() throws {
        try CommandFailure.report(hint: CommandFailure.writeHint) {
            let settings = try ConfigFile.load(explicitPath: config)
            let (realmPath, files) = try Self.split(paths, settings: settings)
            let options = try importOptions(settings)
            for file in files where !FileManagerProbe.exists(file) {
                let folder = RealmPaths.missingFolder(of: file).map { ": no folder '\($0)'" } ?? ""
                throw CommandFailure(.inputMissing, "no input file at '\(file)'\(folder)")
            }
            if RemoteRealms.names(realmPath) { return try importServed(realmPath, files, options) }
            try RealmPaths.requireRealm(realmPath, hint: ": create it with kura init")
            let rejectsPath = options.onError == .skip ? rejects ?? Self.defaultRejectsPath(for: files[0]) : nil
            // Checked before the realm is opened or an input read; created only for a first reject.
            let rejectsFile = try rejectsPath.map { path in
                RejectsFile(target: try OutputTarget(
                    path: path, role: "rejects", protecting: OutputTarget.realmFiles(realmPath) + Self.inputFiles(files)))
            }
            let realm = try Realm(path: realmPath)
            let readers = try files.map(openReader)
            let importer = DocumentImporter(realm: realm, options: options)
            if let rejectsFile { importer.onReject = { node, errors in try rejectsFile.write(node, errors: errors) } }
            InterruptTrap.install(message: options.onError == .stop || options.dryRun
                ? "import interrupted: nothing was written"
                : "import interrupted: the batches committed before it stay in the realm, the rest was not written")
            let progress = ProgressLine(totalBytes: files.reduce(0) { $0 + Self.size(of: $1) })
            importer.onProgress = { progress.update($0) }
            let summary: ImportSummary
            do {
                summary = try importer.run(readers)
            } catch {
                // Batches committed before the failure stay: so do the documents they rejected.
                try? rejectsFile?.finish()
                throw error
            }
            progress.finish()
            try rejectsFile?.finish()
            print(ImportReport(summary: summary, dryRun: options.dryRun, rejectsPath: rejectsPath).text, terminator: "")
        }
    }

    /// Imports into a served realm: the file streamed to the server as it is read, one atomic
    /// import there (in batches under `--on-error skip`); the server's errors placed in the file,
    /// the documents it set aside written to the rejects file as a local import writes them.
    private func importServed(_ url: String, _ files: [String], _ options: ImportOptions) throws {
        guard files.count == 1 else { throw CommandFailure(.usage, "a served realm takes one file per import") }
        let client = try RemoteRealms.client(url, tokenFile: token.tokenFile)
        let file = files[0]
        let chosen = try chosenFormat(of: file)
        let rejectsPath = options.onError == .skip ? rejects ?? Self.defaultRejectsPath(for: file) : nil
        let rejectsFile = try rejectsPath.map { path in
            RejectsFile(target: try OutputTarget(path: path, role: "rejects", protecting: Self.inputFiles(files)))
        }
        InterruptTrap.install(message: options.onError == .stop || options.dryRun
            ? "import interrupted: nothing was written"
            : "import interrupted: the batches the server committed before it stay in the realm, the rest was not written")
        let progress = ProgressLine(totalBytes: Self.size(of: file))
        let sent = SharedCount()
        let listed = RejectedList()
        let summary: ImportSummary
        do {
            summary = try RemoteRealms.wait(tick: { progress.update(ImportProgress(bytes: sent.value, documents: 0)) }) {
                try await client.importFile(file, format: chosen, options, onProgress: { bytes in sent.set(bytes) }, onRejected: { listed.set($0) })
            }
        } catch var lost as KuraError where lost.code == .remote(.connectionLost) && options.onError == .skip && !options.dryRun {
            // The server said nothing of what it committed: say what may be there.
            lost.message += "; the batches the server committed before stay in the realm"
            throw lost
        }
        progress.finish()
        if let rejectsFile {
            try writeRejects(listed.documents, of: file, to: rejectsFile)
            try rejectsFile.finish()
            let unlisted = summary.totalRejected - listed.documents.count
            if unlisted > 0 {
                let line = "kura: warning: \(Counted(unlisted, "rejected document")) beyond the first \(listed.documents.count) the server lists "
                    + "are not in \(rejectsPath ?? "the rejects file")\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
        }
        print(ImportReport(summary: summary, dryRun: options.dryRun, rejectsPath: rejectsPath).text, terminator: "")
    }

    /// Writes the documents of `file` that the server set aside, read again from the file, with
    /// the server's errors.
    private func writeRejects(_ rejected: [RejectedDocument], of file: String, to rejectsFile: RejectsFile) throws {
        guard !rejected.isEmpty else { return }
        var errorsByStart: [TextPosition: [String]] = [:]
        for document in rejected { errorsByStart[TextPosition(line: document.line, column: document.column)] = document.errors }
        let reader = try openReader(file)
        do {
            while !errorsByStart.isEmpty, let node = try reader.next() {
                let start = TextPosition(line: node.position.line, column: node.position.column)
                if let errors = errorsByStart.removeValue(forKey: start) { try rejectsFile.write(node, errors: errors) }
            }
        } catch {
            throw CommandFailure(.io, "cannot read \(file) again for its rejected documents: \(error)")
        }
    }

    /// The realm and the input files from the arguments: a realm first unless config.yaml names one
    /// and the first argument looks like a document file.
    static func split(_ paths: [String], settings: ConfigFile) throws -> (realm: String, files: [String]) {
        guard let first = paths.first else { throw CommandFailure(.usage, "give the files to import: kura import [REALM] FILE...") }
        let firstIsDocument = DocumentFormat(fileExtension: URL(fileURLWithPath: first).pathExtension) != nil
        if paths.count >= 2 && !(firstIsDocument && settings.realm != nil) {
            return (first, Array(paths.dropFirst()))
        }
        guard let realm = settings.realm else {
            throw CommandFailure(.usage, "a realm path is needed: give REALM before the files or set it in config.yaml")
        }
        return (realm, paths)
    }

    private func importOptions(_ settings: ConfigFile) throws -> ImportOptions {
        var options = ImportOptions(type: type)
        options.mode = try mode ?? Self.parse(settings.mode, "mode", UpdatePolicy.init(modeName:)) ?? .error
        options.onError = try onError ?? Self.parse(settings.onError, "onError", ImportOptions.ErrorPolicy.init(rawValue:)) ?? .stop
        options.dryRun = dryRun
        options.skipExisting = skipExisting
        if skipExisting && options.mode != .error { throw CommandFailure(.usage, "--skip-existing goes with --mode insert") }
        options.batchSize = batchSize ?? settings.batchSize ?? options.batchSize
        guard options.batchSize > 0 else { throw CommandFailure(.usage, "--batch-size must be at least 1") }
        options.mapping.dateStrategy = try dateStrategy
            ?? Self.parse(settings.dateStrategy, "dateStrategy", MappingOptions.DateStrategy.init(rawValue:)) ?? .strict
        options.mapping.dataStrategy = try dataStrategy
            ?? Self.parse(settings.dataStrategy, "dataStrategy", MappingOptions.DataStrategy.init(rawValue:)) ?? .strict
        options.mapping.rejectUnknownKeys = rejectUnknownKeys
        options.mapping.percentEncodeMapKeys = percentEncodeMapKeys
        if rejects != nil && options.onError != .skip {
            throw CommandFailure(.usage, "--rejects needs --on-error skip")
        }
        return options
    }

    private static func parse<T>(_ text: String?, _ key: String, _ make: (String) -> T?) throws -> T? {
        guard let text else { return nil }
        guard let value = make(text) else { throw CommandFailure(.usage, "config.yaml: '\(text)' is not a valid \(key)") }
        return value
    }

    /// The format of the input `path`: `--format`, else its extension's.
    private func chosenFormat(of path: String) throws -> DocumentFormat {
        guard let chosen = format ?? DocumentFormat(fileExtension: URL(fileURLWithPath: path).pathExtension) else {
            throw CommandFailure(.usage, "cannot tell the format of '\(path)' from its extension: give --format json|jsonl|yaml")
        }
        return chosen
    }

    private func openReader(_ path: String) throws -> any DocumentReader {
        let chosen = try chosenFormat(of: path)
        do {
            switch chosen {
            case .json: return try JSONReader(path: path, layout: .auto)
            case .jsonl: return try JSONReader(path: path, layout: .lines)
            case .yaml: return try YAMLReader(path: path)
            }
        } catch {
            throw CommandFailure(.io, error.description)
        }
    }

    /// The inputs, which no output may be.
    private static func inputFiles(_ files: [String]) -> [OutputTarget.Protected] {
        files.map { OutputTarget.Protected(path: $0, what: "the input") }
    }

    /// `people.json` → `people.rejects.jsonl`, in the input's folder, as the input was named.
    static func defaultRejectsPath(for input: String) -> String {
        let ext = URL(fileURLWithPath: input).pathExtension
        return (ext.isEmpty ? input : String(input.dropLast(ext.count + 1))) + ".rejects.jsonl"
    }

    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}

extension DocumentFormat: ExpressibleByArgument {}
extension UpdatePolicy: ExpressibleByArgument {}
extension ImportOptions.ErrorPolicy: ExpressibleByArgument {}
extension MappingOptions.DateStrategy: ExpressibleByArgument {}
extension MappingOptions.DataStrategy: ExpressibleByArgument {}
