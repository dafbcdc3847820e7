// `map FILE --schema SCHEMA --type TYPE [--format json|jsonl|yaml] [--parse-only]`: streams FILE with
// the JSON reader (layout .array for json, .lines for jsonl) or the YAML reader, maps every document
// with DocumentMapper as TYPE (or, with --parse-only, only reads it), and prints one line:
//
//   documents=N unknownKeys=K errors=E bytes=B seconds=S
//
// N documents read; K unknown keys in the mapped documents; E mapping errors (the first is also
// printed on standard error); B input bytes consumed; S seconds on a monotonic clock around the
// read-and-map loop. A read error (I/O, syntax, UTF-8) ends the run with a message and status 1.
import Foundation
import Kura

/// The options of one `map` run.
struct MapOptions {
    enum Format: String {
        case json, jsonl, yaml
    }

    var file: String
    var schema: String
    var type: String
    var format: Format
    var parseOnly: Bool

    static let usage = "usage: kura-probe map FILE --schema SCHEMA --type TYPE [--format json|jsonl|yaml] [--parse-only]"

    /// Parses the arguments after `map`; the format defaults from the file's extension (json otherwise).
    init(_ arguments: [String]) {
        var file: String?
        var schema: String?
        var type: String?
        var format: Format?
        var parseOnly = false
        var remaining = arguments[...]
        func value(of flag: String) -> String {
            guard let value = remaining.popFirst() else { fail("\(flag) needs a value\n\(Self.usage)") }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--parse-only":
                parseOnly = true
            case "--schema":
                schema = value(of: argument)
            case "--type":
                type = value(of: argument)
            case "--format":
                let name = value(of: argument)
                guard let chosen = Format(rawValue: name) else { fail("unknown format '\(name)'\n\(Self.usage)") }
                format = chosen
            default:
                guard !argument.hasPrefix("--"), file == nil else { fail("unexpected argument '\(argument)'\n\(Self.usage)") }
                file = argument
            }
        }
        guard let file, let schema, let type else { fail(Self.usage) }
        self.file = file
        self.schema = schema
        self.type = type
        self.format = format ?? Self.format(forExtensionOf: file)
        self.parseOnly = parseOnly
    }

    private static func format(forExtensionOf file: String) -> Format {
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "jsonl", "ndjson": .jsonl
        case "yaml", "yml": .yaml
        default: .json
        }
    }
}

/// A JSON or YAML reader behind one `next()`.
enum DocumentStream {
    case json(JSONReader)
    case yaml(YAMLReader)

    init(path: String, format: MapOptions.Format) throws(KuraError) {
        switch format {
        case .json: self = .json(try JSONReader(path: path, layout: .array))
        case .jsonl: self = .json(try JSONReader(path: path, layout: .lines))
        case .yaml: self = .yaml(try YAMLReader(path: path))
        }
    }

    func next() throws(KuraError) -> DocumentNode? {
        switch self {
        case .json(let reader): try reader.next()
        case .yaml(let reader): try reader.next()
        }
    }

    var bytesRead: Int {
        switch self {
        case .json(let reader): reader.bytesRead
        case .yaml(let reader): reader.bytesRead
        }
    }
}

func runMap(_ arguments: [String]) {
    let options = MapOptions(arguments)
    let schema: Schema
    do {
        schema = try Schema(contentsOfFile: options.schema)
    } catch {
        fail("\(error)")
    }
    guard schema[type: options.type] != nil else { fail("the schema has no type '\(options.type)'") }
    let mapper = DocumentMapper(schema: schema, file: options.file)

    var documents = 0
    var unknownKeys = 0
    var errors = 0
    let stream: DocumentStream
    do {
        stream = try DocumentStream(path: options.file, format: options.format)
    } catch {
        fail("\(error)")
    }
    let clock = ContinuousClock()
    let start = clock.now
    do {
        while let node = try stream.next() {
            documents += 1
            if options.parseOnly { continue }
            do {
                unknownKeys += try mapper.map(node, as: options.type).unknownKeys
            } catch {
                if errors == 0, let first = error.errors.first {
                    FileHandle.standardError.write(Data("kura-probe: first mapping error: \(first)\n".utf8))
                }
                errors += max(error.errors.count, 1)
            }
        }
    } catch {
        fail("\(error)")
    }
    let elapsed = start.duration(to: clock.now)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("documents=\(documents) unknownKeys=\(unknownKeys) errors=\(errors) bytes=\(stream.bytesRead) seconds=\(String(format: "%.4f", seconds))")
}
