import Foundation

extension Schema {
    /// Parses a schema from YAML text; `file` names it in error messages.
    public init(yaml: String, file: String = "<schema>") throws(KuraError) {
        var parser = SchemaParser(file: file)
        self = try parser.parse(yaml)
    }

    /// Parses the schema a realm stores, by the rules it was stored under (see `SchemaValidator.Purpose`).
    init(storedYAML text: String) throws(KuraError) {
        var parser = SchemaParser(file: "<stored schema>", purpose: .storedForm)
        self = try parser.parse(text)
    }

    /// Reads and parses a schema file.
    public init(contentsOfFile path: String) throws(KuraError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw KuraError.schema(.unreadableFile, "cannot read schema file '\(path)'", underlying: error)
        }
        try self.init(yaml: text, file: path)
    }

    /// The schema in the YAML format it is read from.
    public var yaml: String { SchemaWriter.yaml(for: self) }
}
