import Foundation

/// A real `kura serve` process on 127.0.0.1 with an ephemeral port, for the service tests.
package final class ServerProcess {
    package let process = Process()
    package let folder: URL
    /// The port the server reported on standard output.
    package private(set) var port = 0

    private var outputPath: URL { folder.appendingPathComponent("serve.out") }
    private var logPath: URL { folder.appendingPathComponent("serve.log") }

    /// Starts `kura serve ARGUMENTS --port 0` in `folder` and waits until it listens.
    package init(in folder: URL, _ arguments: [String]) throws {
        self.folder = folder
        try Data().write(to: outputPath)
        try Data().write(to: logPath)
        process.executableURL = URL(fileURLWithPath: Fixtures.executable("kura"))
        process.arguments = ["serve"] + arguments + ["--port", "0"]
        process.currentDirectoryURL = folder
        process.standardOutput = try FileHandle(forWritingTo: outputPath)
        process.standardError = try FileHandle(forWritingTo: logPath)
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOf: outputPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: "on http://127.0.0.1:"), let end = text[range.upperBound...].firstIndex(of: "\n"),
                let found = Int(text[range.upperBound..<end])
            {
                port = found
                return
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { process.terminate() }
        throw ServerStartFailure(log: log)
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// What the server wrote to standard output.
    package var output: String { (try? String(contentsOf: outputPath, encoding: .utf8)) ?? "" }

    /// What the server logged (standard error).
    package var log: String { (try? String(contentsOf: logPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and returns the exit status.
    package func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Sends SIGTERM, waits for the exit, and returns how long it took; the test checks the exit.
    package func stopTimed() -> TimeInterval {
        let signalled = Date()
        process.terminate()
        process.waitUntilExit()
        return Date().timeIntervalSince(signalled)
    }

    /// A request to this server.
    package func request(_ path: String, method: String = "GET", headers: [String: String] = [:], body: Data? = nil) throws -> HTTPReply {
        try HTTPReply.fetch(method, "http://127.0.0.1:\(port)\(path)", headers: headers, body: body, in: folder)
    }
}

package struct ServerStartFailure: Error, CustomStringConvertible {
    package let log: String
    package init(log: String) { self.log = log }
    package var description: String { "kura serve did not start: \(log)" }
}

/// An HTTP response read by curl: status, headers (names lowercased) and body.
package struct HTTPReply: Sendable {
    package let status: Int
    package let headers: [String: String]
    package let body: Data

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    /// Runs curl for one request, the body (if any) sent from a file.
    package static func fetch(_ method: String, _ url: String, headers: [String: String], body: Data?, in folder: URL) throws -> HTTPReply {
        let name = UUID().uuidString
        let headerFile = folder.appendingPathComponent("\(name).headers")
        let bodyFile = folder.appendingPathComponent("\(name).body")
        defer {
            try? FileManager.default.removeItem(at: headerFile)
            try? FileManager.default.removeItem(at: bodyFile)
        }
        var arguments = ["-s", "-S", "-g", "-X", method, "-D", headerFile.path, "-o", bodyFile.path, "-w", "%{http_code}"]
        for (field, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(field): \(value)"] }
        if let body {
            let upload = folder.appendingPathComponent("\(name).upload")
            try body.write(to: upload)
            arguments += ["--data-binary", "@\(upload.path)"]
        }
        arguments.append(url)
        let result = try Fixtures.run("/usr/bin/curl", arguments)
        guard let status = Int(result.stdout) else { throw ServerStartFailure(log: "curl failed: \(result.stderr)") }
        var fields: [String: String] = [:]
        let headerText = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
        for line in headerText.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: fields, body: (try? Data(contentsOf: bodyFile)) ?? Data())
    }
}
