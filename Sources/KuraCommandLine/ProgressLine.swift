import Foundation
import Kura

/// A one-line progress report on standard error, redrawn in place, only when it is a terminal.
/// `ProgressText` makes the text.
final class ProgressLine {
    private let totalBytes: Int
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private let isTerminal = isatty(STDERR_FILENO) != 0

    init(totalBytes: Int) { self.totalBytes = totalBytes }

    /// Redraws the line for an import, at most five times a second.
    func update(_ progress: ImportProgress) {
        draw { elapsed in
            ProgressText.importing(
                bytes: progress.bytes, totalBytes: totalBytes, documents: progress.documents, rejected: progress.rejected,
                elapsed: elapsed)
        }
    }

    /// Redraws the line for an export or a copy, at most five times a second.
    func update(_ progress: ExportProgress) {
        draw { elapsed in ProgressText.exporting(progress, elapsed: elapsed) }
    }

    private func draw(_ text: (Double) -> String) {
        let now = Date()
        guard isTerminal, now.timeIntervalSince(lastDrawn) >= 0.2 else { return }
        lastDrawn = now
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text(now.timeIntervalSince(start)))".utf8))
    }

    /// Clears the line.
    func finish() {
        guard isTerminal, lastDrawn != .distantPast else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
