import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run of a program whose peak resident set is read from the kernel when it is reaped
/// (`wait4`'s `ru_maxrss`): that process's own peak, whatever else the tests run at the time.
struct MeasuredRun {
    let status: Int32
    /// The program's peak resident set in bytes.
    let peakResidentBytes: Int
    /// What it wrote on standard output and standard error.
    let stdout: String
    let stderr: String

    /// Runs `program` with `arguments`, its standard input from /dev/null and its output to files
    /// in `folder`, and waits for it.
    static func run(_ program: String, _ arguments: [String], in folder: URL) throws -> MeasuredRun {
        let name = UUID().uuidString
        let outputPath = folder.appendingPathComponent("\(name).out").path
        let errorPath = folder.appendingPathComponent("\(name).err").path
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([program] + arguments).map { strdup($0) }
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            environment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, program, &actions, nil, argv + [nil], environment + [nil])
        guard started == 0 else { throw RunFailure(description: "cannot start \(program): \(String(cString: strerror(started)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw RunFailure(description: "wait4 failed: \(String(cString: strerror(errno)))") }
        }
        // The exit status when the program exited, else 128 + the signal that ended it.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return MeasuredRun(
            status: exitStatus, peakResidentBytes: usage.ru_maxrss * 1024,
            stdout: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }

    struct RunFailure: Error, CustomStringConvertible {
        let description: String
    }
}
