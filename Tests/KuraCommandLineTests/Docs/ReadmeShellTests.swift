import Foundation
import KuraTestSupport
import Testing

/// The shell examples of the README and the docs run as a new user runs them: page after page in
/// the order `pages` gives, each in the order shown, in a copy of this folder's samples, after the
/// main job, with `kura` standing for the built binary. Each command must end with the exit status
/// its comment gives and print the lines shown under it.
@Suite struct ReadmeShellTests {
    /// How long one command may take before it counts as hung.
    static let commandLimit: TimeInterval = 60

    /// The pages whose ```sh blocks form one session, in the order docs/tour.md gives: each goes on
    /// from the realms the pages before it left.
    static let pages = [
        "README.md", "docs/tour.md", "docs/queries.md", "docs/migrations.md", "docs/realm-files.md", "docs/service.md",
    ]

    @Test func everyShellExampleOfTheReadmeRunsInOrderWithTheOutputItShows() throws {
        var commands: [(page: String, command: ReadmeShellScript.Command)] = []
        for page in Self.pages {
            let markdown = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(page), encoding: .utf8)
            commands += ReadmeShellScript(markdown: markdown).commands.map { (page, $0) }
        }
        #expect(commands.count >= 40)
        let folder = try Self.scratchCopy()
        var session = ReadmeShellSession(folder: folder)
        defer { session.stop() }
        var ran = 0
        for (page, command) in commands {
            if try session.run(command, page: page) { ran += 1 }
        }
        // The main job, the walk, the service with its server, the tokens: nearly every command runs.
        #expect(ran >= commands.count - 3)
        #expect(session.served, "no example started kura serve")
    }

    /// No page of the docs holds a shell example the session above leaves out.
    @Test func everyPageWithShellExamplesIsRun() throws {
        let docs = Fixtures.packageRoot.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        for name in names {
            let markdown = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            if !ReadmeShellScript(markdown: markdown).commands.isEmpty {
                #expect(Self.pages.contains("docs/\(name)"), "docs/\(name) has shell examples no test runs")
            }
        }
    }

    @Test func theOutputShownMatchesOnlyWhatWasPrinted() {
        typealias Script = ReadmeShellScript
        #expect(Script.matches(["migrated to schema version 2 in 0.09 s"], ["migrated to schema version 2 in … s"]))
        #expect(!Script.matches(["migrated to schema version 3 in 0.09 s"], ["migrated to schema version 2 in … s"]))
        #expect(Script.matches(["a", "b", "c", "d"], ["a", "…", "d"]))
        #expect(Script.matches(["a", "d"], ["a", "…", "d"]))
        #expect(!Script.matches(["a", "b"], ["a"]))
        #expect(!Script.matches(["a"], ["a", "b"]))
        #expect(!Script.matches([], ["a"]))
        #expect(Script.matches(["kura_abc"], ["kura_…"]))
        #expect(!Script.matches(["kura"], ["kura_…"]))
        let parsed = Script(markdown: """
            ```sh
            # prose
            kura import x.json --type Person   # refused (exit 65):
            # kura: x.json:1:1: error
            curl -s -X POST \\
              localhost:8080/v1/copy          # until you stop it

            # more prose
            kura check
            ```
            """)
        #expect(parsed.commands.map(\.line) == [3, 5, 9])
        #expect(parsed.commands.map(\.exitStatus) == [65, 0, 0])
        #expect(parsed.commands.map(\.output) == [["kura: x.json:1:1: error"], [], []])
        #expect(parsed.commands[1].code == "curl -s -X POST localhost:8080/v1/copy")
        #expect(parsed.commands[1].runsUntilStopped)
    }

    /// A new folder holding the samples and config.yaml, as a fresh clone has them.
    static func scratchCopy() throws -> URL {
        let folder = try Fixtures.temporaryDirectory()
        for item in ["Samples", "config.yaml"] {
            try FileManager.default.copyItem(
                at: Fixtures.packageRoot.appendingPathComponent(item), to: folder.appendingPathComponent(item))
        }
        return folder
    }
}

/// Runs the docs' commands one after another in one folder, with `kura` on the path and, once an
/// example starts `kura serve`, that server's port in place of 8080.
struct ReadmeShellSession {
    let folder: URL
    private let path: String
    private var server: ServerProcess?
    private var port: Int?
    private var step = 0

    var served: Bool { server != nil }

    init(folder: URL) {
        self.folder = folder
        let bin = folder.appendingPathComponent(".bin")
        try? FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(
            atPath: bin.appendingPathComponent("kura").path, withDestinationPath: Fixtures.executable("kura"))
        path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    mutating func stop() {
        if let server { _ = server.stop() }
        server = nil
    }

    /// Runs one command and checks it; false when it is one left to the reader (building, the
    /// suite itself, the long scripts).
    mutating func run(_ command: ReadmeShellScript.Command, page: String = "README.md") throws -> Bool {
        let code = command.code.replacingOccurrences(of: "swift run kura", with: "kura")
        if code.hasPrefix("swift ") || code.hasPrefix("Scripts/") { return false }
        let place = "\(page):\(command.line): \(command.text)"
        if command.isBackground && code.hasPrefix("kura serve ") {
            try serve(code, command, place)
            return true
        }
        let shown = command.output.map(local)
        step += 1
        let out = folder.appendingPathComponent(".out-\(step)")
        let err = folder.appendingPathComponent(".err-\(step)")
        let text = local(code)
        let process = try launch(text, out, err)
        let deadline = Date().addingTimeInterval(command.runsUntilStopped ? 10 : ReadmeShellTests.commandLimit)
        while process.isRunning && Date() < deadline {
            if command.runsUntilStopped, ReadmeShellSession.startsWith(Self.lines(out), shown) { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let stopped = process.isRunning
        if stopped {
            // The whole process group: Foundation reaps the shell only once every process holding
            // its exit-watching descriptor (curl, started by the shell) has gone. SIGKILL, as the
            // commands inherit this test's blocked signals, SIGTERM among them.
            kill(-process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let printed = Self.lines(out) + Self.lines(err)
        var report = "\(place)\nprinted:\n\(printed.joined(separator: "\n"))"
        if let server { report += "\nthe server's log ends:\n" + server.log.split(separator: "\n").suffix(5).joined(separator: "\n") }
        if command.runsUntilStopped {
            #expect(ReadmeShellSession.startsWith(printed, shown), "the output shown did not come\n\(report)")
            return true
        }
        #expect(!stopped, "still running after \(Int(ReadmeShellTests.commandLimit)) s\n\(report)")
        #expect(process.terminationStatus == command.exitStatus, "exit status \(process.terminationStatus), not \(command.exitStatus)\n\(report)")
        if !shown.isEmpty {
            #expect(ReadmeShellScript.matches(printed, shown), "the output differs from the page's\n\(report)")
        }
        return true
    }

    /// Starts `kura serve` as the example does, on a free port instead of the one it names.
    private mutating func serve(_ code: String, _ command: ReadmeShellScript.Command, _ place: String) throws {
        var arguments = code.dropFirst("kura serve ".count).dropLast().split(separator: " ").map(String.init)
        if let index = arguments.firstIndex(of: "--port"), index + 1 < arguments.count { arguments.removeSubrange(index...(index + 1)) }
        let started = try ServerProcess(in: folder, arguments)
        server = started
        port = started.port
        let shown = command.output.map(local)
        let deadline = Date().addingTimeInterval(10)
        var printed: [String] = []
        repeat {
            printed = started.output.split(separator: "\n").map(String.init)
            if ReadmeShellScript.matches(printed, shown) { return }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        Issue.record("the server's output differs from the page's\n\(place)\nprinted:\n\(printed.joined(separator: "\n"))")
    }

    /// `text` with the example's port replaced by the running server's.
    private func local(_ text: String) -> String {
        guard let port else { return text }
        return text.replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
    }

    private func launch(_ text: String, _ out: URL, _ err: URL) throws -> Process {
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        // Foundation starts it in a process group of its own, which `run` stops whole.
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", text]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return process
    }

    /// The lines of a file, without a final newline's empty line or the `\r` of HTTP headers.
    static func lines(_ file: URL) -> [String] {
        // "\r\n" is one Character to Swift: the lines are split after it is made "\n".
        let text = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Whether the first of `lines` are what `shown` shows.
    static func startsWith(_ lines: [String], _ shown: [String]) -> Bool {
        (0...lines.count).contains { ReadmeShellScript.matches(Array(lines.prefix($0)), shown) }
    }
}
