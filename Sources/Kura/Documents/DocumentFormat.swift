/// The text formats documents are read from and written to.
public enum DocumentFormat: String, Sendable, CaseIterable {
    /// One JSON array whose elements are the documents.
    case json
    /// JSON Lines: one compact JSON document per line.
    case jsonl
    /// A YAML stream: each document starts with a `---` line.
    case yaml

    /// The format a file extension names: `json`; `jsonl` or `ndjson`; `yaml` or `yml`. A leading
    /// dot and letter case are ignored; nil for any other extension.
    public init?(fileExtension: String) {
        var name = fileExtension.lowercased()
        if name.hasPrefix(".") { name.removeFirst() }
        switch name {
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        case "yaml", "yml": self = .yaml
        default: return nil
        }
    }
}
