/// Gathers a check's findings: lists at most `limit` of one kind at one place (a badly broken realm
/// has millions) while counting them all, and turns a query that fails into a finding, so that one
/// unreadable table does not stop the checks of the others. The engine that runs the checks says
/// how its errors read in a finding.
final class FindingCollector {
    private struct Group: Hashable {
        let kind: CheckFinding.Kind
        let place: CheckFinding.Place
    }

    private let limit: Int
    private var findings: [CheckFinding] = []
    private var counts: [Group: (label: String, count: Int)] = [:]
    /// Per group that reached the limit, the index of its last listed finding: the line counting
    /// the unlisted ones goes after it.
    private var lastListed: [Int: Group] = [:]
    private var unreadable: Set<String> = []
    /// An error as one line, as the engine words it.
    private let describe: (any Error) -> String

    init(limit: Int, describing describe: @escaping (any Error) -> String) {
        self.limit = max(limit, 1)
        self.describe = describe
    }

    /// Adds `label: detail` as a finding of `kind` at `place` (grouped without the object id).
    func add(_ kind: CheckFinding.Kind, _ place: CheckFinding.Place, _ label: String, _ detail: String) {
        var site = place
        site.objectId = nil
        let group = Group(kind: kind, place: site)
        let seen = counts[group]?.count ?? 0
        counts[group] = (label, seen + 1)
        guard seen < limit else { return }
        findings.append(CheckFinding(kind, at: place, "\(label): \(detail)"))
        if seen + 1 == limit { lastListed[findings.count - 1] = group }
    }

    /// Runs the checks in `body`; an error they throw becomes an `unreadable` finding at `place`
    /// (once: the next checks of a table that cannot be read fail the same way).
    func attempt(_ place: CheckFinding.Place, _ label: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            let detail = "cannot be checked: \(describe(error))"
            guard unreadable.insert("\(label): \(detail)").inserted else { return }
            add(.unreadable, place, label, detail)
        }
    }

    /// Every listed finding, each group's unlisted ones counted in a line of their own after its
    /// listed ones, and the number of problems in all.
    func finish() -> (findings: [CheckFinding], problemCount: Int) {
        var all: [CheckFinding] = []
        for (index, finding) in findings.enumerated() {
            all.append(finding)
            guard let group = lastListed[index], let (label, count) = counts[group], count > limit else { continue }
            all.append(CheckFinding(group.kind, at: group.place, "\(label): \(count - limit) more \(group.kind.unlisted(count - limit).noun) not listed"))
        }
        return (all, counts.values.reduce(0) { $0 + $1.count })
    }
}
