/// What checking a realm file found: the problems, and the size of what was checked.
public struct CheckReport: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The realm file checked.
    public var path: String
    /// The problems found, in the order the checks ran; at most `RealmChecker.listedPerCheck` of one
    /// kind at one place, followed by a line counting the others.
    public var findings: [CheckFinding]
    /// How many problems there are, those not listed in `findings` included.
    public var problemCount: Int
    /// The objects stored, in every type (embedded ones included).
    public var objectCount: Int
    /// The types of the stored schema.
    public var typeCount: Int
    /// The stored schema's version; `nil` when the schema cannot be read.
    public var schemaVersion: Int64?

    /// Makes a report.
    public init(
        path: String, findings: [CheckFinding], problemCount: Int, objectCount: Int, typeCount: Int, schemaVersion: Int64?
    ) {
        self.path = path
        self.findings = findings
        self.problemCount = problemCount
        self.objectCount = objectCount
        self.typeCount = typeCount
        self.schemaVersion = schemaVersion
    }

    /// Whether no problem was found.
    public var isHealthy: Bool { problemCount == 0 }

    /// The findings' messages.
    public var messages: [String] { findings.map(\.message) }

    /// What `kura check` prints: `PATH: ok (…)`, or one line per finding and a count.
    public var description: String {
        if isHealthy {
            return "\(path): ok (\(Counted(objectCount, "object")) in \(Counted(typeCount, "type")), schema version \(schemaVersion.map(String.init) ?? "unknown"))"
        }
        return (messages + ["\(Counted(problemCount, "problem")) found"]).joined(separator: "\n")
    }
}
