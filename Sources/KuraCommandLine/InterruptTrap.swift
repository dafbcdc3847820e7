import Dispatch
import Foundation
import Synchronization

/// Stops a command on SIGINT or SIGTERM without leaving anything behind: the temporary files of
/// outputs not yet complete are removed, one line says what was stopped, and the exit code is 128
/// plus the signal's number (130 for Ctrl-C).
///
/// The signal is taken by a dispatch source, so the work runs on an ordinary thread, not inside a
/// signal handler; the realm's open transaction is never committed, which SQLite undoes.
enum InterruptTrap {
    private struct State {
        var temporaryFiles: Set<String> = []
        var message = "interrupted"
    }

    private static let state = Mutex(State())
    /// The sources stay alive while the command runs; set once, from the main thread.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Catches SIGINT and SIGTERM from now on; `message` ("import interrupted: nothing was
    /// written") is the line printed when one arrives.
    static func install(message: String) {
        state.withLock { $0.message = message }
        guard sources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop(signalNumber) }
            source.resume()
            sources.append(source)
        }
    }

    /// Changes the line printed when a signal arrives.
    static func update(message: String) {
        state.withLock { $0.message = message }
    }

    /// Removes `paths` (files another part makes, or may) if a signal stops the command.
    static func removeOnInterrupt(_ paths: [String]) {
        state.withLock { $0.temporaryFiles.formUnion(paths) }
    }

    /// Runs `create`, which makes a temporary file and returns its descriptor and path (`nil` when
    /// it made none), so that a signal stops the command either before the file exists or after it
    /// is known: it is removed if a signal stops the command before `forget(path)`.
    static func creatingTemporaryFile(_ create: () -> (descriptor: Int32, path: String)?) -> (descriptor: Int32, path: String)? {
        state.withLock { state in
            let created = create()
            if let created { state.temporaryFiles.insert(created.path) }
            return created
        }
    }

    /// Writes an error line to standard error, unless a signal is stopping the command: the work
    /// fails when its temporary files are removed under it, and that failure is no news after
    /// the line saying what was stopped. (Stopping holds the lock until the process exits.)
    static func writeError(_ line: String) {
        state.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// `path` is complete or gone: a signal leaves it alone.
    static func forget(_ path: String) {
        _ = state.withLock { $0.temporaryFiles.remove(path) }
    }

    private static func stop(_ signalNumber: Int32) {
        // Holds the lock to the end, so no temporary file is made after these are removed.
        state.withLock { state in
            for file in state.temporaryFiles { unlink(file) }
            let name = signalNumber == SIGINT ? "SIGINT" : "SIGTERM"
            // Clears a progress line first, when there may be one.
            let clear = isatty(STDERR_FILENO) != 0 ? "\r\u{1B}[K" : ""
            FileHandle.standardError.write(Data("\(clear)kura: \(state.message) (\(name))\n".utf8))
            // The working thread may have made a realm's -wal or -shm again while the line was written.
            for file in state.temporaryFiles { unlink(file) }
            _exit(128 + signalNumber)
        }
    }
}
