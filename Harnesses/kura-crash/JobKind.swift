/// The kinds of job the harness kills.
enum JobKind: String, CaseIterable {
    /// `kura import --on-error skip --batch-size B`: a commit every B documents.
    case importSkip = "import-skip"
    /// `kura import` (`--on-error stop`): one transaction, into a realm that already holds objects.
    case importStop = "import-stop"
    /// `kura copy SOURCE DEST` of a whole realm into an empty one.
    case copyWhole = "copy-whole"
    /// `kura copy SOURCE DEST` of a whole realm to a path where no realm is yet: DEST is created.
    case copyNew = "copy-new"
    /// `kura copy SOURCE DEST --mode update` of a whole realm into one holding objects with the same keys.
    case copyUpdate = "copy-update"
    /// `kura copy SOURCE DEST --type Person --where … --mode modified`: a selection and what it links to.
    case copySubset = "copy-subset"
    /// `kura migrate`: a new autoIncrement primary key, a rename and a new property over every entry.
    case migrate

    /// Kinds from a comma-separated list of names, `import`, `copy` or `all`.
    static func parseList(_ text: String) throws(UsageError) -> [JobKind] {
        var kinds: [JobKind] = []
        for name in text.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            let named: [JobKind]
            switch name {
            case "all": named = allCases
            case "import": named = [.importSkip, .importStop]
            case "copy": named = [.copyWhole, .copyNew, .copyUpdate, .copySubset]
            default:
                guard let kind = JobKind(rawValue: name) else { throw UsageError("unknown job kind '\(name)'") }
                named = [kind]
            }
            kinds += named.filter { !kinds.contains($0) }
        }
        guard !kinds.isEmpty else { throw UsageError("--jobs names no job kind") }
        return kinds
    }
}
