import Dispatch
import Foundation
import Kura
import NIOCore
import Synchronization

/// A served realm's objects as the library's Codable models, and its documents one by one.
extension KuraClient {
    /// The objects of `T` that `predicate` selects, sorted and limited as `kura export` takes
    /// them, decoded into the same models the library reads from a realm on this machine.
    ///
    /// The objects they link to come in the same answer and are decoded with them, so links, lists
    /// of links and cycles between the models are filled in. The model types `T` reaches are found
    /// from it, as `DocumentDecoder` finds them; `models` adds any it cannot name.
    public func objects<T: KuraObject>(
        _ type: T.Type, where predicate: String? = nil, arguments: [Value] = [], sortedBy sort: String? = nil, limit: Int? = nil,
        models: [any KuraObject.Type] = []
    ) async throws(KuraError) -> [T] {
        var options = ExportOptions(type: T.typeName, predicate: predicate, sort: sort, limit: limit)
        options.arguments = arguments
        options.followingLinks = true
        let response = try await exportResponse(options, format: .jsonl)
        guard let selected = response.headers.first(name: "Kura-Selected-Count").flatMap({ Int($0) }) else {
            throw KuraError(.remote(.serverFailed), "realm '\(realm)' did not say how many objects it selected (Kura-Selected-Count)")
        }
        var bytes: [UInt8] = []
        do {
            for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
        } catch {
            throw lost(error)
        }
        var listed: [any KuraObject.Type] = [T.self]
        for model in models where !listed.contains(where: { $0.typeName == model.typeName }) { listed.append(model) }
        do {
            let decoder = try DocumentDecoder(models: listed)
            let decoded = try decoder.decode(T.self, from: JSONReader(bytes: bytes, file: realm.description, layout: .lines))
            // The selection comes first; objects of `T` it links to follow it.
            return Array(decoded.prefix(selected))
        } catch let error as KuraError {
            throw error
        } catch {
            throw KuraError(.mapping(.invalidValue), "realm '\(realm)': \(error)", underlying: error)
        }
    }

    /// The documents `options` selects, one at a time as they arrive, parsed with their positions
    /// in the stream: what `kura export` writes, never held whole. Stopping early (breaking out of
    /// the loop) ends the download.
    public func documents(_ options: ExportOptions = ExportOptions()) -> DocumentSequence {
        DocumentSequence(client: self, options: options)
    }
}

/// The documents of a served realm's export as they arrive: a few parsed ahead of the reader, the
/// rest still on the network.
public struct DocumentSequence: AsyncSequence, Sendable {
    public typealias Element = DocumentNode

    let client: KuraClient
    let options: ExportOptions

    public func makeAsyncIterator() -> Iterator {
        let (documents, continuation) = AsyncThrowingStream.makeStream(of: DocumentNode.self)
        let room = ParsedAhead(limit: Iterator.ahead)
        let channel = ChunkChannel()
        let (client, options, name) = (client, options, client.realm.description)
        Task {
            do {
                try await client.export(options, format: .jsonl) { chunk in try await channel.put(chunk) }
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        // The JSON reader blocks: it reads on a thread of its own, a few documents ahead.
        Thread.detachNewThread {
            let reader = ChannelInput.reader(of: channel, file: name)
            do {
                while let document = try reader.next() {
                    guard room.take(unless: { channel.isCancelled }) else { return }
                    if case .terminated = continuation.yield(document) { break }
                }
                continuation.finish()
            } catch {
                // A download that broke is the cause; the reader only saw its input end.
                continuation.finish(throwing: ((error as? KuraError)?.underlying as? KuraError) ?? error)
            }
        }
        // The download then stops at its next piece (cancelling its task instead can leave the
        // connection unusable for the client's next request).
        continuation.onTermination = { _ in channel.cancel() }
        return Iterator(documents: documents.makeAsyncIterator(), room: room)
    }

    /// Takes the documents in order, making room for the reader to parse the next.
    public struct Iterator: AsyncIteratorProtocol {
        static let ahead = 64

        var documents: AsyncThrowingStream<DocumentNode, any Error>.Iterator
        let room: ParsedAhead

        public mutating func next() async throws -> DocumentNode? {
            let document = try await documents.next()
            if document != nil { room.give() }
            return document
        }
    }
}

/// How many documents the reader may parse ahead of the loop taking them. A count under a lock
/// with a semaphore only to wake the reader: a counting semaphore must be back at its starting
/// value when freed, which a loop that stops early never allows.
final class ParsedAhead: Sendable {
    private struct State {
        var ahead = 0
        var readerWaits = false
    }

    private let state = Mutex(State())
    private let roomMade = DispatchSemaphore(value: 0)
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes room for one more document, waiting while the reader is `limit` ahead; false once
    /// `stopped` says the loop has gone.
    func take(unless stopped: () -> Bool) -> Bool {
        while true {
            let taken = state.withLock { state in
                guard state.ahead < limit else {
                    state.readerWaits = true
                    return false
                }
                state.ahead += 1
                return true
            }
            if taken { return true }
            if stopped() { return false }
            _ = roomMade.wait(timeout: .now() + .milliseconds(200))
        }
    }

    /// Gives back the room of a document the loop took.
    func give() {
        let wake = state.withLock { state in
            state.ahead -= 1
            defer { state.readerWaits = false }
            return state.readerWaits
        }
        if wake { roomMade.signal() }
    }
}
