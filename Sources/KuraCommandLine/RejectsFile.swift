import Kura

/// The rejects file of an import, created only when the first document is rejected: an import with
/// nothing to reject writes no file, and leaves an earlier one as it was.
final class RejectsFile {
    let target: OutputTarget
    private var writer: RejectsWriter?

    init(target: OutputTarget) { self.target = target }

    /// Appends a rejected document with its errors.
    func write(_ document: DocumentNode, errors: [String]) throws {
        if writer == nil { writer = RejectsWriter(output: try target.open()) }
        try writer?.write(document, errors: errors)
    }

    /// Closes the file and moves it into place, if it was created.
    func finish() throws {
        guard let writer else { return }
        try writer.close()
        try target.commit()
    }
}
