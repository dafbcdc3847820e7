import Foundation
import Kura
import NIOCore
import Synchronization

/// Copies with a served realm on one side or both, as `kura copy` copies between files: the
/// selected objects (the whole realm without `options.type`) and everything they link to, each
/// once, cycles and shared objects without a key kept, as a stream of JSON Lines documents into
/// one atomic import. The destination's schema is checked first; a copy that fails or loses its
/// connection writes nothing.
extension KuraClient {
    /// Copies from the realm at `path` (a file or a PostgreSQL URL) into this served realm.
    public func copy(fromRealmAt path: String, _ options: CopyOptions = CopyOptions()) async throws(KuraError) -> ImportSummary {
        let source = try Self.opened(path)
        let schema = try await self.schema()
        try Self.checked { try source.schema.checkCopy(of: try source.typesCopied(by: options), into: schema) }
        let channel = ChunkChannel()
        let selection = Self.selection(options)
        // The export blocks: it runs on a thread of its own, the network takes its bytes as they come.
        Thread.detachNewThread {
            do {
                let output = DocumentOutput(name: path) { bytes in try channel.send(bytes) }
                _ = try RealmExporter(realm: source, options: selection).run(to: DocumentWriter(schema: source.schema, format: .jsonl, output: output))
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        do {
            return try await importDocuments(channel, format: .jsonl, Self.importing(options), name: path)
        } catch {
            channel.cancel()
            throw error
        }
    }

    /// Copies from this served realm into `destination`, a served realm on this server or another;
    /// the bytes pass through this program as they come, never held whole.
    public func copy(to destination: KuraClient, _ options: CopyOptions = CopyOptions()) async throws(KuraError) -> ImportSummary {
        let schema = try await self.schema()
        let types = try await typesCopied(by: options, schema: schema)
        let destinationSchema = try await destination.schema()
        try Self.checked { try schema.checkCopy(of: types, into: destinationSchema) }
        let (channel, download) = startDownload(options)
        do {
            return try await destination.importDocuments(channel, format: .jsonl, Self.importing(options), name: realm.description)
        } catch {
            channel.cancel()
            throw await download.value ?? error
        }
    }

    /// Copies from this served realm into `destination`, a realm on this machine or in
    /// PostgreSQL, in one transaction there.
    public func copy(into destination: Realm, _ options: CopyOptions = CopyOptions()) async throws(KuraError) -> ImportSummary {
        let schema = try await self.schema()
        let types = try await typesCopied(by: options, schema: schema)
        try Self.checked { try schema.checkCopy(of: types, into: destination.schema) }
        let (channel, download) = startDownload(options)
        let importing = Self.importing(options)
        let name = realm.description
        // The thread lets go of the realm before it answers: whoever made the realm may close it
        // (and move a new file into place) as soon as the copy returns.
        let handed = Mutex<Realm?>(destination)
        let imported = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ImportSummary, any Error>, Never>) in
            // The import blocks: it runs on a thread of its own and reads the download as it comes.
            Thread.detachNewThread {
                let outcome = Result<ImportSummary, any Error>(catching: {
                    guard let realm = handed.withLock({ $0.take() }) else { throw CancellationError() }
                    let reader = ChannelInput.reader(of: channel, file: name)
                    return try DocumentImporter(realm: realm, options: importing).run(reader)
                })
                continuation.resume(returning: outcome)
            }
        }
        switch imported {
        case .success(let summary):
            return summary
        case .failure(let error):
            channel.cancel()
            // A download that failed is the cause; the reader's error only repeats it.
            if let cause = await download.value { throw cause }
            throw Self.kuraError(error)
        }
    }

    /// The types of which a copy with `options` may take objects, as the server holds them: those
    /// reachable from the selected type (every type without one), those with no objects left out.
    /// Embedded types are kept, as the server counts their objects only within their owners.
    func typesCopied(by options: CopyOptions, schema: Schema) async throws(KuraError) -> [String] {
        let candidates = options.type.map { schema.typesReachable(from: $0) } ?? schema.types.map(\.name)
        var types: [String] = []
        for name in candidates {
            guard let type = schema[type: name] else { continue }
            if type.isEmbedded {
                types.append(name)
            } else if try await count(name) > 0 {
                types.append(name)
            }
        }
        return types
    }

    /// Starts exporting the copy's documents into a channel; the task ends with the download's
    /// error, if it failed.
    private func startDownload(_ options: CopyOptions) -> (ChunkChannel, Task<KuraError?, Never>) {
        let channel = ChunkChannel()
        let selection = Self.selection(options)
        let download = Task { () -> KuraError? in
            do {
                try await export(selection, format: .jsonl) { chunk in try await channel.put(chunk) }
                channel.finish()
                return nil
            } catch {
                channel.finish(throwing: error)
                return Self.kuraError(error)
            }
        }
        return (channel, download)
    }

    /// What the copy exports: the selection, and with a type, everything it links to.
    private static func selection(_ options: CopyOptions) -> ExportOptions {
        var selection = ExportOptions(type: options.type, predicate: options.predicate)
        selection.arguments = options.arguments
        selection.followingLinks = options.type != nil
        return selection
    }

    /// How the copy's documents are imported: under its mode, atomically.
    private static func importing(_ options: CopyOptions) -> ImportOptions {
        var importing = ImportOptions()
        importing.mode = options.mode
        importing.skipExisting = options.skipExisting
        return importing
    }

    /// The realm at `path`, opened to read.
    private static func opened(_ path: String) throws(KuraError) -> Realm {
        try checked { try Realm(configuration: Realm.Configuration(path: path, readOnly: true)) }
    }

    /// Runs `body`, its errors as the library's.
    private static func checked<T>(_ body: () throws -> T) throws(KuraError) -> T {
        do {
            return try body()
        } catch {
            throw kuraError(error)
        }
    }

    static func kuraError(_ error: any Error) -> KuraError {
        error as? KuraError ?? KuraError(.store(.database), String(describing: error), underlying: error)
    }
}
