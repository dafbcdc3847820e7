import Foundation

/// Reads and maps an import's documents on a thread of its own, a bounded queue ahead of the writer:
/// parsing and mapping are about a third of an import's work and need no realm, so on a machine
/// with two cores they overlap with writing. Documents come out in input order, each with what
/// mapping made of it (or the error), so the writer decides exactly as it would reading them itself.
final class DocumentPipeline: @unchecked Sendable {
    // @unchecked: the readers are used by the producer thread alone, from `start` until it ends;
    // everything else shared is guarded by `condition`.

    /// One step of the input, in order.
    enum Item: Sendable {
        /// A document and what preparing it gave, with the bytes read up to its end (all inputs).
        case document(PreparedDocument, bytesRead: Int)
        /// The end of one input, with the bytes it held.
        case endOfInput(bytes: Int)
        /// The input cannot be read on (a syntax error, say); nothing follows.
        case failed(any Error)
    }

    /// How many prepared documents may wait for the writer: enough to keep both threads busy,
    /// few enough that memory stays flat.
    static let capacity = 128
    /// Items pass between the threads in runs of this many, so the lock is taken once a run.
    static let run = 32

    /// What the reader tells of a document besides its node.
    struct Context {
        /// The document's path, such as `$[12]`.
        let path: String
        /// Set when the reader read the document but found a value in it that it cannot hold.
        let readError: KuraError?
        /// The anchors that earlier documents of the same YAML document defined (nil for JSON).
        let anchors: SharedAnchors?
    }

    private let readers: [any DocumentReader]
    private let prepare: @Sendable (DocumentNode, Context, DocumentMapper) -> PreparedDocument
    private let mappers: [DocumentMapper]
    private let condition = NSCondition()
    /// Items handed over by the producer, not yet taken by the writer.
    private var queue: [Item] = []
    /// Items the writer is done with, for the producer to free: freeing a document's nodes and
    /// values is a tenth of the writing thread's work, and the producer has time to spare.
    private var spent: [Item] = []
    /// Items the writer has taken, and how far it has got through them (writer's thread only).
    private var taken: [Item] = []
    private var next = 0
    private var isCancelled = false
    private var isFinished = false

    /// Makes a pipeline over `readers`, each mapped with its mapper and prepared by `prepare`.
    init(
        readers: [any DocumentReader], mappers: [DocumentMapper],
        prepare: @escaping @Sendable (DocumentNode, Context, DocumentMapper) -> PreparedDocument
    ) {
        self.readers = readers
        self.mappers = mappers
        self.prepare = prepare
    }

    /// Starts the producer thread.
    func start() {
        let thread = Thread { [self] in produce() }
        thread.stackSize = 8 << 20  // as the main thread's: mapping nests as deep as documents do
        thread.name = "kura-read"
        thread.start()
    }

    /// The next item, waiting for the producer when it is behind; `nil` after the last input's end.
    func nextItem() -> Item? {
        if next == taken.count {
            next = 0
            condition.lock()
            if spent.isEmpty { swap(&spent, &taken) } else { spent.append(contentsOf: taken) }
            taken.removeAll(keepingCapacity: true)
            while queue.isEmpty && !isFinished { condition.wait() }
            swap(&queue, &taken)
            condition.broadcast()
            condition.unlock()
        }
        guard next < taken.count else { return nil }
        defer { next += 1 }
        return taken[next]
    }

    /// Waits until a full queue of documents is ready for the writer, or the input has ended: the
    /// writer takes the realm's lock only then, so that an input slow to arrive (a client sending a
    /// body bit by bit, or not at all) keeps no other writer waiting while nothing can be written.
    func waitUntilReady() {
        if taken.count - next >= Self.capacity { return }
        condition.lock()
        while taken.count - next + queue.count < Self.capacity && !isFinished { condition.wait() }
        condition.unlock()
    }

    /// Stops the producer and waits until it has let go of the readers.
    func stop() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        while !isFinished { condition.wait() }
        condition.unlock()
    }

    private func produce() {
        var pending: [Item] = []
        var garbage: [Item] = []
        defer {
            condition.lock()
            queue.append(contentsOf: pending)
            isFinished = true
            condition.broadcast()
            condition.unlock()
        }
        var bytesBefore = 0
        for (reader, mapper) in zip(readers, mappers) {
            var documents = 0
            let yaml = reader as? YAMLReader
            let anchors = yaml.map { _ in SharedAnchors() }
            while true {
                let node: DocumentNode?
                var readError: KuraError?
                do {
                    node = try reader.next()
                } catch {
                    if let document = error.document {
                        // The document's own error: it is refused like a document the mapper refuses.
                        node = document
                        readError = error
                    } else {
                        // A file that cannot be read is no fault of its documents, and stays an I/O error.
                        pending.append(.failed(error.code == .document(.io) ? error : KuraError.transfer(
                            .badInput, error.message, file: error.file, position: error.position, underlying: error)))
                        return
                    }
                }
                guard let node else { break }
                if let anchors, yaml?.continuesSequence != true { anchors.reset() }
                let prepared = prepare(node, Context(path: "$[\(documents)]", readError: readError, anchors: anchors), mapper)
                documents += 1
                pending.append(.document(prepared, bytesRead: bytesBefore + reader.bytesRead))
                if pending.count == Self.run {
                    guard hand(&pending, collecting: &garbage) else { return }
                    garbage.removeAll(keepingCapacity: true)
                }
            }
            bytesBefore += reader.bytesRead
            pending.append(.endOfInput(bytes: reader.bytesRead))
        }
    }

    /// Hands `items` to the writer, waiting while the queue is full; false once the pipeline is stopped.
    /// Takes the writer's spent items, to be freed on this thread outside the lock.
    private func hand(_ items: inout [Item], collecting garbage: inout [Item]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.capacity && !isCancelled { condition.wait() }
        guard !isCancelled else { return false }
        queue.append(contentsOf: items)
        items.removeAll(keepingCapacity: true)
        swap(&garbage, &spent)
        condition.broadcast()
        return true
    }
}

/// A document as the pipeline hands it to the writer.
struct PreparedDocument: Sendable {
    /// What preparing a document gave.
    enum Outcome: Sendable {
        /// A whole-realm export's `{"$realm": …}` document: the counters it raises.
        case counters([String: Int64])
        /// The document mapped to the properties of an object of `typeName`.
        case mapped(MappedDocument)
    }

    let node: DocumentNode
    /// The document's path, such as `$[12]`.
    let path: String
    /// The document's type as far as it is known (`?` before a whole-realm document names it).
    let typeName: String
    let outcome: Result<Outcome, any Error>
}
