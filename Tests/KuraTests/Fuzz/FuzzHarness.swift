import Foundation
@testable import Kura

/// A valid input the fuzzer starts from: its bytes, the schema its documents map against, and
/// the type of documents that do not name one with `$type`.
struct FuzzSeed {
    var bytes: [UInt8]
    var schema: Schema
    var type: String
}

/// An input that broke an invariant: which, and the input itself, to replay.
struct FuzzFinding: CustomStringConvertible {
    var iteration: Int
    var problem: String
    var input: [UInt8]

    var description: String {
        let shown = String(decoding: input.prefix(160), as: UTF8.self).debugDescription
        return "iteration \(iteration): \(problem) — input (\(input.count) bytes) \(shown)"
    }
}

/// Feeds one input to the JSON reader (array and lines layouts), the YAML reader and the mapper,
/// and checks what must hold for any input: every failure is a `KuraError` or `KuraError`
/// with a non-empty message and a position inside the input; reading in tiny chunks gives exactly
/// what reading at once gives; and a mapped document written as JSON, JSON Lines and YAML reads
/// and maps back to the same value. (A crash or a trap ends the test process itself.)
final class FuzzHarness {
    /// What the run did, for its report.
    struct Counts {
        var inputs = 0
        var documents = 0
        var readErrors = 0
        var mapped = 0
        var mappingErrors = 0
        var roundTrips = 0
        var unwritable = 0
    }

    private(set) var counts = Counts()
    private(set) var findings: [FuzzFinding] = []
    private var iteration = 0
    private var input: [UInt8] = []
    /// The input's line count, for checking positions.
    private var lineCount = 0

    /// Checks one input; `chunk` is the small chunk size the readers are compared at.
    func check(_ bytes: [UInt8], schema: Schema, type: String, iteration: Int, chunk: Int) {
        self.iteration = iteration
        input = bytes
        lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        counts.inputs += 1
        let readers: [(name: String, read: (Int) -> Outcome)] = [
            ("json array", { size in Self.readAll(JSONReader(bytes: bytes, file: "f", layout: .array, maxDepth: 512, chunkSize: size)) }),
            ("json lines", { size in Self.readAll(JSONReader(bytes: bytes, file: "f", layout: .lines, maxDepth: 512, chunkSize: size)) }),
            ("yaml", { size in Self.readAll(YAMLReader(bytes: bytes, file: "f", maxDepth: 512, chunkSize: size)) }),
        ]
        for reader in readers {
            // One chunk holding the whole input: as the default 1 MiB chunk would, without
            // allocating and zeroing 2 MiB per reader (slow in a debug build).
            let whole = reader.read(bytes.count + 1)
            let chunked = reader.read(chunk)
            if whole != chunked {
                record("\(reader.name): reading in \(chunk)-byte chunks differs: \(whole) vs \(chunked)")
            }
            if let error = whole.error {
                counts.readErrors += 1
                checkError(error, reader.name)
            }
            for node in whole.documents {
                counts.documents += 1
                map(node, schema: schema, type: DocumentMapper.declaredType(of: node) ?? type, reader.name)
            }
        }
    }

    /// The documents a reader returns before it ends or fails.
    struct Outcome: Equatable, CustomStringConvertible {
        var documents: [DocumentNode] = []
        var error: KuraError?

        var description: String { "\(documents.count) documents, \(error.map { "\($0)" } ?? "no error")" }
    }

    /// At most 1000 documents: mutants are small, so more would mean the reader is not advancing.
    static func readAll(_ reader: some DocumentReader) -> Outcome {
        var outcome = Outcome()
        do {
            while outcome.documents.count < 1000, let node = try reader.next() { outcome.documents.append(node) }
        } catch {
            outcome.error = error
        }
        return outcome
    }

    private func checkError(_ error: KuraError, _ reader: String) {
        guard !error.message.isEmpty, !error.message.contains("\n") else {
            return record("\(reader): message empty or not one line: \(error)")
        }
        guard let position = error.position else { return record("\(reader): error without a position: \(error)") }
        checkPosition(position, "\(reader): \(error)")
    }

    private func checkPosition(_ position: TextPosition, _ what: @autoclosure () -> String) {
        let offset = position.offset ?? -1
        guard position.line >= 1, position.line <= lineCount, position.column >= 1, offset >= 0, offset <= input.count
        else { return record("position \(position.line):\(position.column) @\(offset) outside the input: \(what())") }
    }

    /// Maps a document; a mapped one must survive a write and read in every format.
    private func map(_ node: DocumentNode, schema: Schema, type: String, _ reader: String) {
        let mapper = DocumentMapper(schema: schema, file: "f")
        let value: Value
        do {
            value = try mapper.map(node, as: type).value
        } catch {
            counts.mappingErrors += 1
            if error.code.domain != .mapping { record("\(reader): mapping failed without a mapping error: \(error)") }
            for item in error.allErrors {
                if item.message.isEmpty || item.description.contains("\n") || !(item.path ?? "").hasPrefix("$") {
                    record("\(reader): bad mapping error: \(item)")
                }
                guard let position = item.position else {
                    record("\(reader): mapping error without a position: \(item)")
                    continue
                }
                checkPosition(position, "\(reader): \(item)")
            }
            return
        }
        counts.mapped += 1
        for format in DocumentFormat.allCases {
            roundTrip(value, schema: schema, type: type, format: format, reader)
        }
    }

    private func roundTrip(_ value: Value, schema: Schema, type: String, format: DocumentFormat, _ reader: String) {
        let output = DocumentOutput()
        let writer = DocumentWriter(schema: schema, format: format, output: output)
        do {
            try writer.write(value, as: type)
            try writer.finish()
        } catch {
            // Documented refusals: values the format cannot carry so they read back the same.
            if error.code == .document(.unwritableValue) || error.code == .document(.depthLimit) {
                counts.unwritable += 1
            } else {
                record("\(reader) → \(format): write failed: \(error)")
            }
            return
        }
        let reread: Outcome
        let text = output.bytes
        switch format {
        case .json: reread = Self.readAll(JSONReader(bytes: text, file: "w", layout: .array, maxDepth: 512, chunkSize: text.count + 1))
        case .jsonl: reread = Self.readAll(JSONReader(bytes: text, file: "w", layout: .lines, maxDepth: 512, chunkSize: text.count + 1))
        case .yaml: reread = Self.readAll(YAMLReader(bytes: text, file: "w", maxDepth: 512, chunkSize: text.count + 1))
        }
        let written = String(decoding: output.bytes.prefix(300), as: UTF8.self).debugDescription
        guard reread.error == nil, reread.documents.count == 1 else {
            return record("\(reader) → \(format): written text does not read back (\(reread)): \(written)")
        }
        do {
            let again = try DocumentMapper(schema: schema, file: "w").map(reread.documents[0], as: type).value
            if again != value { record("\(reader) → \(format): maps back to a different value: \(written)") }
            counts.roundTrips += 1
        } catch {
            record("\(reader) → \(format): written text does not map back (\(error)): \(written)")
        }
    }

    private func record(_ problem: String) {
        findings.append(FuzzFinding(iteration: iteration, problem: problem, input: input))
    }
}
