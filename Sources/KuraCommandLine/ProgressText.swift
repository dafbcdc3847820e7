import Foundation
import Kura

/// The text of a progress line: how much is done, of how much when that is known, the rates and the
/// time left at the rate so far.
///
/// An import measures its input in bytes: `12.5/50.0 MB (25%)  30000 documents  …  6 s left`. An
/// export measures what it counted before starting, documents of one type or every object of the
/// realm: `30000/120000 documents (25%)  12.5 MB  …  6 s left`.
enum ProgressText {
    /// The line of an import that has read `bytes` of `totalBytes` (0 when unknown) after `elapsed` seconds.
    static func importing(bytes: Int, totalBytes: Int, documents: Int, rejected: Int, elapsed: Double) -> String {
        let elapsed = max(elapsed, 0.001)
        var parts: [String] = []
        if bytes > 0 || totalBytes > 0 {
            var size = megabytes(bytes)
            if totalBytes > 0 { size = "\(megabytes(bytes, unit: false))/\(megabytes(totalBytes)) (\(percent(bytes, of: totalBytes)))" }
            parts.append(size)
        }
        parts.append("\(Counted(documents, "document"))  \(rate(documents, elapsed)) documents/s")
        if bytes > 0 { parts.append("\(megabytes(Int(Double(bytes) / elapsed)))/s") }
        if let left = timeLeft(done: bytes, of: totalBytes, elapsed: elapsed) { parts.append(left) }
        if rejected > 0 { parts.append("\(rejected) rejected") }
        return parts.joined(separator: "  ")
    }

    /// The line of an export (or a copy) `elapsed` seconds after it started.
    static func exporting(_ progress: ExportProgress, elapsed: Double) -> String {
        let elapsed = max(elapsed, 0.001)
        var parts: [String] = []
        let unit: String
        if case .objects = progress.total {
            unit = "object"
        } else {
            unit = "document"
        }
        if let (done, total) = progress.completed {
            parts.append("\(done)/\(Counted(total, unit)) (\(percent(done, of: total)))")
        } else {
            parts.append(Counted(progress.documents, unit).description)
        }
        if progress.bytes > 0 { parts.append(megabytes(progress.bytes)) }
        parts.append("\(rate(progress.completed?.done ?? progress.documents, elapsed)) \(unit)s/s")
        if progress.bytes > 0 { parts.append("\(megabytes(Int(Double(progress.bytes) / elapsed)))/s") }
        if let (done, total) = progress.completed, let left = timeLeft(done: done, of: total, elapsed: elapsed) {
            parts.append(left)
        }
        return parts.joined(separator: "  ")
    }

    /// `4 s left`, `2 min 5 s left`, `1 h 20 min left`, at the rate so far; nil when nothing is done yet
    /// or everything is.
    static func timeLeft(done: Int, of total: Int, elapsed: Double) -> String? {
        guard done > 0, total > done else { return nil }
        let seconds = Int((Double(total - done) * elapsed / Double(done)).rounded(.up))
        switch seconds {
        case ..<60: return "\(seconds) s left"
        case ..<3600: return "\(seconds / 60) min \(seconds % 60) s left"
        default: return "\(seconds / 3600) h \(seconds % 3600 / 60) min left"
        }
    }

    /// `12.5 MB`, or `12.5` without the unit.
    private static func megabytes(_ bytes: Int, unit: Bool = true) -> String {
        String(format: "%.1f", Double(bytes) / 1e6) + (unit ? " MB" : "")
    }

    /// `25%` of `total`, at most 100%.
    private static func percent(_ done: Int, of total: Int) -> String {
        total > 0 ? "\(min(done, total) * 100 / total)%" : "100%"
    }

    private static func rate(_ count: Int, _ elapsed: Double) -> String {
        String(format: "%.0f", Double(count) / elapsed)
    }
}
