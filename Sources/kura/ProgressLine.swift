import Foundation
import Kura

/// A one-line progress report on standard error, redrawn in place, only when it is a terminal.
final class ProgressLine {
    private let totalBytes: Int
    private let start = Date()
    private var lastDrawn = Date.distantPast
    private let isTerminal = isatty(STDERR_FILENO) != 0

    init(totalBytes: Int) { self.totalBytes = totalBytes }

    /// Redraws the line for an import, at most five times a second.
    func update(_ progress: ImportProgress) {
        update(bytes: progress.bytes, documents: progress.documents, rejected: progress.rejected)
    }

    /// Redraws the line for an export, at most five times a second.
    func update(_ progress: ExportProgress) {
        update(bytes: progress.bytes, documents: progress.documents, rejected: 0)
    }

    private func update(bytes: Int, documents: Int, rejected: Int) {
        let progress = (bytes: bytes, documents: documents, rejected: rejected)
        let now = Date()
        guard isTerminal, now.timeIntervalSince(lastDrawn) >= 0.2 else { return }
        lastDrawn = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let bytesPerSecond = Double(progress.bytes) / elapsed
        var parts: [String] = []
        if progress.bytes > 0 || totalBytes > 0 {
            var size = String(format: "%.1f MB", Double(progress.bytes) / 1e6)
            if totalBytes > 0 {
                size += String(format: "/%.1f MB (%d%%)", Double(totalBytes) / 1e6, progress.bytes * 100 / totalBytes)
            }
            parts.append(size)
        }
        parts.append(String(format: "%d documents  %.0f documents/s", progress.documents, Double(progress.documents) / elapsed))
        if progress.bytes > 0 { parts.append(String(format: "%.1f MB/s", bytesPerSecond / 1e6)) }
        if bytesPerSecond > 0, totalBytes > progress.bytes {
            parts.append(String(format: "%.0f s left", Double(totalBytes - progress.bytes) / bytesPerSecond))
        }
        var line = parts.joined(separator: "  ")
        if progress.rejected > 0 { line += "  \(progress.rejected) rejected" }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// Clears the line.
    func finish() {
        guard isTerminal, lastDrawn != .distantPast else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
