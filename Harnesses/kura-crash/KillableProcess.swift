#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// One run of a program that may be killed with SIGKILL after a delay: started with `posix_spawn`
/// (no threads of the harness in between), its output going to files for the report.
struct KillableProcess {
    /// How a run ended.
    enum Ending: Equatable {
        /// It exited by itself, with this status, before the kill.
        case exited(Int32)
        /// SIGKILL ended it (or another signal, named by its number).
        case signalled(Int32)
    }

    /// What a run did: how it ended and how long it ran, in seconds.
    struct Outcome {
        var ending: Ending
        var seconds: Double
    }

    let program: String
    let arguments: [String]
    /// Files that receive the program's standard output and standard error.
    let outputPath: String
    let errorPath: String

    /// Runs the program to its end.
    func run() throws -> Outcome {
        try run(killAfter: nil)
    }

    /// Runs the program and, unless it has ended by then, kills it with SIGKILL `delay` seconds
    /// after it was started.
    func run(killAfter delay: Double?) throws -> Outcome {
        let start = Self.now()
        let pid = try spawn()
        var status: Int32 = 0
        if let delay {
            Self.sleep(until: start + delay)
            if waitpid(pid, &status, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                try Self.wait(pid, &status)
            }
        } else {
            try Self.wait(pid, &status)
        }
        let seconds = Self.now() - start
        // The status word as <sys/wait.h> lays it out: a signal in the low 7 bits, or the exit code above.
        let signal = status & 0x7f
        return Outcome(ending: signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal), seconds: seconds)
    }

    /// What the program wrote on standard error (the start of it), for a report.
    var errorText: String {
        let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return String(text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(400))
    }

    private func spawn() throws -> pid_t {
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
        let result = posix_spawn(&pid, program, &actions, nil, argv + [nil], environment + [nil])
        guard result == 0 else {
            throw HarnessError("cannot start \(program): \(String(cString: strerror(result)))")
        }
        return pid
    }

    private static func wait(_ pid: pid_t, _ status: inout Int32) throws {
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw HarnessError("waitpid failed: \(String(cString: strerror(errno)))") }
        }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func sleep(until deadline: Double) {
        while true {
            let left = deadline - now()
            if left <= 0 { return }
            var request = timespec(tv_sec: Int(left), tv_nsec: Int((left - Double(Int(left))) * 1e9))
            nanosleep(&request, nil)
        }
    }
}

/// Something the harness itself could not do (as opposed to a trial that failed).
struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
