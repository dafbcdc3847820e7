import Kura

/// The closing summary of an import: one line per type, then the totals.
struct ImportReport {
    let summary: ImportSummary
    let dryRun: Bool
    let rejectsPath: String?

    var text: String {
        var lines: [String] = []
        if dryRun { lines.append("dry run: nothing was written") }
        for type in summary.types {
            let counts = summary.counts[type] ?? ChangeCounts()
            var line = "\(type): \(counts.summaryText)"
            if let rejected = summary.rejected[type] { line += ", \(rejected) rejected" }
            if let unknown = summary.unknownKeys[type] { line += ", \(Counted(unknown, "unknown key")) ignored" }
            lines.append(line)
        }
        var total = "\(Counted(summary.documents, "document")), \(Counted(summary.bytes, "byte"))"
        if summary.totalRejected > 0, let rejectsPath {
            total += "; \(summary.totalRejected) rejected, written to \(rejectsPath)"
        }
        lines.append(total)
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ChangeCounts {
    /// The counts as the import and copy summaries print them; deletions (embedded objects an
    /// update or replace dropped) only when there were some.
    var summaryText: String {
        let text = "\(inserted) inserted, \(updated) updated, \(unchanged) unchanged"
        return deleted > 0 ? text + ", \(deleted) deleted" : text
    }
}
