/// Imports the documents of an input into a realm: each document mapped with the strict
/// rules and written under the import mode; `$id`/`$ref` and YAML anchors resolved across the whole
/// input; atomically under `.stop`, in batches with bad documents set aside under `.skip`.
public final class DocumentImporter {
    /// The realm written to.
    public let realm: Realm
    /// How the input is treated.
    public let options: ImportOptions
    /// Called with bad documents under `.skip`: the document and everything wrong with it.
    public var onReject: ((DocumentNode, [String]) throws -> Void)?
    /// Called now and then with how far the import has got.
    public var onProgress: ((ImportProgress) -> Void)?
    /// How many documents pass between progress reports.
    public var progressInterval = 1000

    private var summary = ImportSummary()

    /// How many documents pass between starts of the log's writeback (`Realm.startWritingBackLog`).
    private static let writebackInterval = 8192

    /// Makes an importer into `realm`.
    public init(realm: Realm, options: ImportOptions = ImportOptions()) {
        self.realm = realm
        self.options = options
    }

    /// A thrown value that undoes a dry run's transaction.
    private struct DryRunRollback: Error {}

    /// Imports every document of `reader` and returns what was done (for a dry run, what would be).
    public func run(_ reader: some DocumentReader) throws -> ImportSummary {
        try run([reader])
    }

    /// Imports the documents of several inputs, in order, as one import: under `.stop` all of them
    /// or nothing. `$id`/`$ref` resolve within each input.
    ///
    /// The inputs are read and mapped on a second thread (`DocumentPipeline`) while this one
    /// writes; the readers must not be used elsewhere until this returns.
    public func run(_ readers: [any DocumentReader]) throws -> ImportSummary {
        summary = ImportSummary()
        committed = (0, 0)
        if let type = options.type { try checkTopLevel(type, file: readers.first?.file ?? "", position: nil) }
        let schema = realm.schema
        var mapping = options.mapping
        mapping.defersMissingProperties = options.mode == .update || options.mode == .modified
        let mappers = readers.map { DocumentMapper(schema: schema, options: mapping, file: $0.file) }
        let type = options.type
        // Only a document set aside needs its text again; otherwise its position is enough.
        let keepsNodes = options.onError == .skip
        let pipeline = DocumentPipeline(readers: readers, mappers: mappers) { node, context, mapper in
            Self.prepare(node, context, mapper: mapper, type: type, keepingNode: keepsNodes)
        }
        pipeline.start()
        defer { pipeline.stop() }
        var files = readers.map(\.file).makeIterator()
        var current = files.next().map(Input.init)
        var bytesBefore = 0
        do {
            while current != nil {
                var written = 0
                pipeline.waitUntilReady()
                try realm.write {
                    // One transaction for a stop or dry-run import; batches otherwise, each closed only
                    // when no reference waits for a later document.
                    let transaction = try realm.requireTransaction()
                    if options.onError == .stop {
                        // Any error ends the import and rolls everything back: no document needs a savepoint.
                        transaction.savepointsPerChange = false
                        // Only this importer writes in the transaction, and only through it.
                        try transaction.storage.holdInserts()
                    } else {
                        // A document whose reference never resolves is withdrawn at the input's end.
                        transaction.keepsWithdrawalPoint = true
                    }
                    var inBatch = 0
                    while let input = current,
                        options.onError == .stop || options.dryRun || inBatch < options.batchSize || !input.scope.isResolved
                    {
                        switch pipeline.nextItem() {
                        case .document(let document, let bytesRead):
                            countDocument(bytesRead: bytesRead)
                            if try importDocument(document, file: input.file, scope: input.scope) {
                                written += 1
                                try input.hold(document, in: transaction)
                            }
                            if summary.documents % Self.writebackInterval == 0 { realm.startWritingBackLog() }
                            inBatch += 1
                        case .endOfInput(let bytes):
                            if options.onError == .skip { written -= try withdrawUnresolved(input, in: transaction) }
                            try requireResolved(input)
                            bytesBefore += bytes
                            current = files.next().map(Input.init)
                        case .failed(let error):
                            throw error
                        case nil:
                            current = nil
                        }
                    }
                    try addCounts(try realm.changeCounts())
                    if options.dryRun { throw DryRunRollback() }
                }
                committed.documents += written
                committed.batches += 1
            }
        } catch is DryRunRollback {
            // Everything was checked and counted; the transaction is undone.
        } catch {
            throw stopped(by: error)
        }
        summary.bytes = bytesBefore
        return summary
    }

    /// The documents written and the transactions committed so far, for an import that fails.
    private var committed = (documents: 0, batches: 0)

    /// How many documents the last run committed: all of them after a success, and under
    /// `.skip` those of the batches committed before a failure (a dry run commits none).
    public var committedDocuments: Int { committed.documents }

    /// One input being imported: its name, the scope its references resolve in, and (under
    /// `.skip`) the documents written since a reference was left waiting for a later document.
    private final class Input {
        let file: String
        let scope = ReferenceScope()
        /// Written again without those that never resolve, should some not (`withdrawUnresolved`).
        var held: [PreparedDocument] = []
        /// Whether more documents waited than are kept, so a reference left unresolved fails the import.
        var heldTooMany = false

        /// How many documents are kept for withdrawal at most: each costs several times its text
        /// in memory, and a reference that resolves only far ahead would keep the whole input.
        static let maxHeld = 10_000

        init(file: String) { self.file = file }

        /// Keeps `document` while the transaction can withdraw it; lets go of them all once every
        /// reference has resolved, or when there would be more than `maxHeld`.
        func hold(_ document: PreparedDocument, in transaction: WriteTransaction) throws {
            guard transaction.holdsWithdrawalPoint else { return }
            if scope.isResolved || held.count == Self.maxHeld {
                heldTooMany = heldTooMany || !scope.isResolved
                try transaction.releaseWithdrawalPoint()
                held.removeAll()
            } else {
                held.append(document)
            }
        }
    }

    /// At the end of an input under `.skip`: while references remain that no document defined,
    /// withdraws the documents written since the first was made and writes them again, refusing
    /// those that make one (and, in a later round, those that needed a refused one). Returns how
    /// many fewer documents are written.
    private func withdrawUnresolved(_ input: Input, in transaction: WriteTransaction) throws -> Int {
        var refused = 0
        while !input.scope.isResolved, transaction.holdsWithdrawalPoint {
            input.scope.markUnresolvable()
            try transaction.withdrawHeldChanges()
            let documents = input.held
            input.held = []
            for document in documents {
                if try importDocument(document, file: input.file, scope: input.scope) {
                    try input.hold(document, in: transaction)
                } else {
                    refused += 1
                }
            }
        }
        if input.scope.isResolved {
            try transaction.releaseWithdrawalPoint()
            input.held = []
        }
        return refused
    }

    /// At the end of an input, every reference in it must have found its document.
    private func requireResolved(_ input: Input) throws {
        guard let first = input.scope.firstUnresolved else { return }
        let reason = input.heldTooMany ? " (more than \(Input.maxHeld) documents followed it, too many to set it aside)" : ""
        throw KuraError.transfer(.badDocument, first.message + reason, file: input.file, position: first.position)
    }

    /// The error that ends an import, saying what was committed: always when the realm or the disk
    /// failed rather than a document, and for any error once a batch with documents was committed,
    /// since a client that retries would write those documents again.
    private func stopped(by error: any Error) -> any Error {
        let committedNote: String
        switch committed {
        case (0, _): committedNote = "nothing was committed"
        case (let documents, let batches):
            let documentsText = documents == 1 ? "1 document" : "\(documents) documents"
            let batchesText = batches == 1 ? "1 batch" : "\(batches) batches"
            committedNote = "\(documentsText) in \(batchesText) \(documents == 1 ? "was" : "were") committed before the failure"
        }
        let isLeftBehind = committed.documents > 0
        guard var failure = error as? KuraError else { return error }
        switch failure.code.domain {
        case .store where failure.isStoreFailure || isLeftBehind:
            // The statement goes before the note, which ends the line.
            if let sql = failure.sql { failure.message += " (SQL: \(sql))" }
            failure.sql = nil
        case .transfer where (failure.underlying as? KuraError)?.isStoreFailure == true || isLeftBehind,
            .document where failure.code == .document(.io) || isLeftBehind:
            break
        default:
            return error
        }
        failure.message += "; \(committedNote)"
        return failure
    }

    private func countDocument(bytesRead: Int) {
        summary.documents += 1
        if summary.documents % progressInterval == 0 {
            onProgress?(ImportProgress(bytes: bytesRead, documents: summary.documents, rejected: summary.totalRejected))
        }
    }

    /// What the pipeline's thread makes of a document before it is written: the counters of a
    /// `{"$realm": …}` document, or the object values mapped from it, or what is wrong with it.
    /// Unless `keepingNode`, a mapped document keeps only its node's position: its tree goes here,
    /// so a large document's tree and its mapped values are not both held while it is written.
    private static func prepare(
        _ node: DocumentNode, _ context: DocumentPipeline.Context, mapper: DocumentMapper, type: String?,
        keepingNode: Bool
    ) -> PreparedDocument {
        let path = context.path
        var typeName = type ?? "?"
        var isMapped = false
        // A refused document's anchors stay defined for the documents after it.
        defer { if !isMapped, let anchors = context.anchors { anchors.register(node, mapper: mapper) } }
        do {
            if let readError = context.readError {
                typeName = type ?? DocumentMapper.declaredType(of: node) ?? "?"
                throw KuraError.transfer(.badDocument, readError.message, file: readError.file, position: readError.position, underlying: readError)
            }
            if let counters = try RealmDocument.counters(in: node, file: mapper.file, path: path) {
                return PreparedDocument(node: node, path: path, typeName: typeName, outcome: .success(.counters(counters)))
            }
            if type == nil {
                guard let tag = DocumentMapper.typeTag(of: node) else {
                    throw KuraError.transfer(
                        .badDocument, "\(path): a document of a whole-realm input names its type with \"$type\" (or give --type)",
                        file: mapper.file, position: node.position)
                }
                // Errors in the type's name are placed at it, as a mixed value's are.
                guard case .string(let declared) = tag.value else {
                    throw KuraError.transfer(
                        .badDocument, "\(path).$type: expected a type name, found \(MappingContext.describe(tag.value))",
                        file: mapper.file, position: tag.position)
                }
                typeName = declared
                try checkTopLevel(declared, schema: mapper.schema, file: mapper.file, position: tag.position, path: "\(path).$type")
            }
            isMapped = true
            let mapped = try mapper.map(node, as: typeName, path: path, anchors: context.anchors)
            let kept = keepingNode ? node : DocumentNode(value: .null, position: node.position)
            return PreparedDocument(node: kept, path: path, typeName: typeName, outcome: .success(.mapped(mapped)))
        } catch {
            return PreparedDocument(node: node, path: path, typeName: typeName, outcome: .failure(error))
        }
    }

    /// Writes one document; returns whether it was written (under `.skip`, a bad one is refused).
    /// A failure of the realm or the disk is never the document's: it ends the import.
    private func importDocument(_ document: PreparedDocument, file: String, scope: ReferenceScope) throws -> Bool {
        let node = document.node
        let typeName = document.typeName
        do {
            switch try document.outcome.get() {
            case .counters(let counters):
                try raiseCounters(counters, file: file, node: node, path: document.path)
            case .mapped(let mapped):
                if mapped.unknownKeys > 0 { summary.unknownKeys[typeName, default: 0] += mapped.unknownKeys }
                scope.position = node.position
                if options.skipExisting,
                    try realm.holdsObject(typeName, mapped: mapped.object)
                        || realm.holdsMatch(typeName, mapped: mapped.object, references: scope, path: document.path)
                {
                    summary.counts[typeName, default: ChangeCounts()].unchanged += 1
                    return true
                }
                do {
                    try realm.create(typeName, mapped: mapped.object, update: options.mode, references: scope, path: document.path)
                } catch let error as KuraError where error.code.domain == .store && (!error.isStoreFailure || error.code == .store(.counterExhausted)) {
                    // An exhausted counter is the realm's, but the document that met it is named.
                    throw KuraError.transfer(.badDocument, error.message, file: file, position: node.position, underlying: error)
                }
            }
            return true
        } catch {
            guard options.onError == .skip, Self.isDocumentError(error) else { throw error }
            summary.rejected[typeName, default: 0] += 1
            try onReject?(node, Self.messages(of: error))
            return false
        }
    }

    /// Whether `error` is the document's own, to be refused under `.skip`: not a usage error, nor
    /// a failure of the realm or the disk.
    private static func isDocumentError(_ error: any Error) -> Bool {
        guard let error = error as? KuraError else { return true }
        return switch error.code.domain {
        case .store: !error.isStoreFailure
        case .transfer: error.code != .transfer(.usage) && (error.underlying as? KuraError)?.isStoreFailure != true
        default: true
        }
    }

    /// Applies a whole-realm export's `{"$realm": {"autoIncrement": …}}`: counters are raised, never lowered.
    private func raiseCounters(_ counters: [String: Int64], file: String, node: DocumentNode, path: String) throws {
        let transaction = try realm.requireTransaction()
        for (type, last) in counters.sorted(by: { $0.key < $1.key }) {
            let place = "\(path).$realm.autoIncrement.\(MessageText.shown(type))"
            guard let declared = realm.schema[type: type] else {
                throw KuraError.transfer(.badDocument, "\(place): \(realm.schema.noTypeMessage(type))", file: file, position: node.position)
            }
            guard let key = declared.primaryKeyProperty, key.isAutoIncrement else {
                throw KuraError.transfer(
                    .badDocument, "\(place): \(MessageText.shown(type)) has no autoIncrement primary key",
                    file: file, position: node.position)
            }
            try transaction.noteExplicitKey(type, last)
        }
    }

    private func checkTopLevel(_ type: String, file: String, position: TextPosition?) throws {
        try Self.checkTopLevel(type, schema: realm.schema, file: file, position: position, path: nil)
    }

    private static func checkTopLevel(_ type: String, schema: Schema, file: String, position: TextPosition?, path: String?) throws {
        // A type named on the command line is a usage error; one named by a document makes it a bad document.
        let code: KuraError.TransferCode = path == nil ? .usage : .badDocument
        let prefix = path.map { "\($0): " } ?? ""
        guard let schema = schema[type: type] else {
            throw KuraError.transfer(code, prefix + schema.noTypeMessage(type), file: file, position: position)
        }
        if schema.isEmbedded {
            throw KuraError.transfer(
                code, "\(prefix)\(MessageText.shown(type)) is embedded: import its documents nested in their parents", file: file, position: position)
        }
    }

    private func addCounts(_ counts: [String: ChangeCounts]) throws {
        for (type, change) in counts {
            summary.counts[type, default: ChangeCounts()].inserted += change.inserted
            summary.counts[type, default: ChangeCounts()].updated += change.updated
            summary.counts[type, default: ChangeCounts()].unchanged += change.unchanged
            summary.counts[type, default: ChangeCounts()].deleted += change.deleted
        }
    }

    private static func messages(of error: any Error) -> [String] {
        if let error = error as? KuraError, error.code.domain == .mapping { return error.allErrors.map(\.description) }
        return ["\(error)"]
    }
}
