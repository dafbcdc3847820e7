import ArgumentParser
import Dispatch
import Foundation
import Kura
import KuraServer
import Logging

/// `kura serve [REALM...]`: the realms over HTTP, until SIGTERM or SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve realms over HTTP: import, export, queries and objects, with bearer tokens, and Kura Studio.",
        discussion: """
            Realms given as arguments are served under their file name without extension \
            (Samples/samples.realm is 'samples'), a PostgreSQL realm's URL under its schema's name \
            (postgres://kura@db/app?schema=people is 'people'); server.realms in config.yaml names more. With \
            neither, the realm config.yaml names is served. Settings come from the server: section of \
            config.yaml (host, port, realms, tokens, maxBodyBytes, writeWait, shutdownGrace); --host and \
            --port override it. Without tokens the server only listens on a loopback address.

            Example:
              kura serve Samples/samples.realm --port 8080 &
              curl -fsS 'localhost:8080/v1/realms/samples/objects/Person?limit=2'
              curl -fsS -H 'Content-Type: application/json' -d '{"name": "Dana"}' \\
                localhost:8080/v1/realms/samples/objects/Person    # 201, Location
              curl -fsS -X PATCH -H 'Content-Type: application/json' \\
                -d '{"name": "Ann"}' localhost:8080/v1/realms/samples/objects/Person/1
              curl -fsS localhost:8080/openapi.json                  # every route

            Kura Studio, a web console for the served realms (browse, query, follow links, import and \
            export files), is at / (http://127.0.0.1:8080/ here).

            One line per request goes to standard error; the listening address to standard output.
            """)

    @Argument(help: "Realms to serve: files, each under its file name without extension, and postgres:// URLs, each under its schema's name.")
    var realms: [String] = []

    @Option(name: .long, help: "A configuration file to read instead of ./config.yaml.")
    var config: String?

    @Option(name: .long, help: "The address to listen on (default: server.host, else 127.0.0.1).")
    var host: String?

    @Option(name: .long, help: "The port to listen on; 0 picks a free one (default: server.port, else 8080).")
    var port: Int?

    func run() throws {
        try CommandFailure.report {
            let settings = try ConfigFile.load(explicitPath: config)
            var server = settings.server ?? ServerConfiguration()
            if let host { server.host = host }
            if let port { server.port = port }
            for path in realms { try Self.add(path, to: &server) }
            if server.realms.isEmpty, let realm = settings.realm { try Self.add(realm, to: &server) }
            let service: KuraService
            do {
                service = try KuraService(configuration: server, logger: Self.logger())
            } catch {
                throw Self.failure(error)
            }
            if let failure = Self.runBlocking(service) { throw failure }
        }
    }

    /// Serves `path` under its file name without extension (a server realm under its schema's
    /// name), refusing a name served twice.
    private static func add(_ path: String, to server: inout ServerConfiguration) throws {
        let name = Realm.Configuration(path: path).name
        if let other = server.realms[name], other != path {
            throw CommandFailure(.usage, "two realms would be served as '\(name)': '\(other)' and '\(path)'")
        }
        server.realms[name] = path
    }

    private static func logger() -> Logger {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        return Logger(label: "kura.serve")
    }

    /// Runs the service to its end on this (main) thread; the error that stopped it, if any.
    private static func runBlocking(_ service: KuraService) -> CommandFailure? {
        let finished = DispatchSemaphore(value: 0)
        let outcome = ServeOutcome()
        Task {
            do {
                try await service.run { host, port in
                    let names = service.configuration.realms.keys.sorted().joined(separator: ", ")
                    FileHandle.standardOutput.write(Data("Serving \(names) on http://\(host):\(port)\nKura Studio: http://\(host):\(port)/\n".utf8))
                }
            } catch {
                outcome.failure = failure(error)
            }
            finished.signal()
        }
        finished.wait()
        return outcome.failure
    }

    private static func failure(_ error: any Error) -> CommandFailure {
        guard let setup = error as? ServerSetupError else { return CommandFailure(.io, "the server stopped: \(error)") }
        switch setup.code {
        case .invalidSetting: return CommandFailure(.usage, setup.message)
        case .realmMissing: return CommandFailure(.inputMissing, setup.message)
        case .realmUnopenable: return CommandFailure(.badData, setup.message)
        }
    }
}

/// The failure a served run ended with, set by its task and read once it has finished.
private final class ServeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: CommandFailure?

    var failure: CommandFailure? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
