/// Imports the documents of an input into a realm (SPEC §3–§4): each document mapped with the strict
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

    /// Makes an importer into `realm`.
    public init(realm: Realm, options: ImportOptions = ImportOptions()) {
        self.realm = realm
        self.options = options
    }

    /// A thrown value that undoes a dry run's transaction.
    private struct DryRunRollback: Error {}

    /// Imports every document of `reader` and returns what was done (for a dry run, what would be).
    public func run(_ reader: some DocumentReader) throws -> ImportSummary {
        summary = ImportSummary()
        if let type = options.type { try checkTopLevel(type, file: reader.file, position: nil) }
        let scope = ReferenceScope()
        let mapper = DocumentMapper(schema: realm.schema, options: options.mapping, file: reader.file)
        var finished = false
        do {
            while !finished {
                try realm.write {
                    // One transaction for a stop or dry-run import; batches otherwise, each closed only
                    // when no reference waits for a later document.
                    var inBatch = 0
                    while options.onError == .stop || options.dryRun || inBatch < options.batchSize || !scope.isResolved {
                        guard let node = try read(reader) else {
                            finished = true
                            break
                        }
                        try importDocument(node, mapper: mapper, scope: scope)
                        inBatch += 1
                    }
                    try addCounts(try realm.changeCounts())
                    // An unresolved reference stops the commit; a dry run checks the same before undoing.
                    if options.dryRun && scope.isResolved { throw DryRunRollback() }
                }
            }
        } catch is DryRunRollback {
            // Everything was checked and counted; the transaction is undone.
        } catch let error as StoreError where error.code == .unresolvedReference {
            throw TransferError(.badDocument, error.message, file: reader.file, underlying: error)
        }
        summary.bytes = reader.bytesRead
        return summary
    }

    private func read(_ reader: some DocumentReader) throws -> DocumentNode? {
        let node: DocumentNode?
        do {
            node = try reader.next()
        } catch {
            throw TransferError(.badInput, error.message, file: error.file, position: error.position, underlying: error)
        }
        if node != nil {
            summary.documents += 1
            if summary.documents % progressInterval == 0 {
                onProgress?(ImportProgress(bytes: reader.bytesRead, documents: summary.documents, rejected: summary.totalRejected))
            }
        }
        summary.bytes = reader.bytesRead
        return node
    }

    private func importDocument(_ node: DocumentNode, mapper: DocumentMapper, scope: ReferenceScope) throws {
        let path = "$[\(summary.documents - 1)]"
        var typeName = options.type ?? "?"
        do {
            if options.type == nil {
                guard let declared = DocumentMapper.declaredType(of: node) else {
                    throw TransferError(
                        .badDocument, "\(path): a document of a whole-realm input names its type with \"$type\" (or give --type)",
                        file: mapper.file, position: node.position)
                }
                typeName = declared
                try checkTopLevel(declared, file: mapper.file, position: node.position, path: path)
            }
            let mapped = try mapper.map(node, as: typeName, path: path)
            if mapped.unknownKeys > 0 { summary.unknownKeys[typeName, default: 0] += mapped.unknownKeys }
            do {
                try realm.create(typeName, value: mapped.value, update: options.mode, references: scope, path: path)
            } catch let error as StoreError {
                throw TransferError(.badDocument, error.message, file: mapper.file, position: node.position, underlying: error)
            }
        } catch {
            guard options.onError == .skip, !(error is TransferError && (error as? TransferError)?.code == .usage) else {
                throw error
            }
            summary.rejected[typeName, default: 0] += 1
            try onReject?(node, Self.messages(of: error))
        }
    }

    private func checkTopLevel(_ type: String, file: String, position: TextPosition?, path: String? = nil) throws {
        // A type named on the command line is a usage error; one named by a document makes it a bad document.
        let code: TransferError.Code = path == nil ? .usage : .badDocument
        let prefix = path.map { "\($0): " } ?? ""
        guard let schema = realm.schema[type: type] else {
            throw TransferError(code, "\(prefix)the realm has no type '\(type)'", file: file, position: position)
        }
        if schema.isEmbedded {
            throw TransferError(
                code, "\(prefix)\(type) is embedded: import its documents nested in their parents", file: file, position: position)
        }
    }

    private func addCounts(_ counts: [String: ChangeCounts]) throws {
        for (type, change) in counts {
            summary.counts[type, default: ChangeCounts()].inserted += change.inserted
            summary.counts[type, default: ChangeCounts()].updated += change.updated
            summary.counts[type, default: ChangeCounts()].unchanged += change.unchanged
        }
    }

    private static func messages(of error: any Error) -> [String] {
        if let errors = error as? MappingErrors { return errors.errors.map(\.description) }
        return ["\(error)"]
    }
}
