import Dispatch
import Foundation
import Kura
import KuraClient
import NIOCore
import Synchronization

/// Realms served by `kura serve` on other machines, as the commands reach them: by URL, with the
/// token from `KURA_TOKEN` or a token file (never from the arguments, which other users can see).
enum RemoteRealms {
    /// Whether `realm` names a served realm rather than a file or a database URL.
    static func names(_ realm: String) -> Bool { RemoteRealmURL.names(realm) }

    /// A client of the served realm `url`, with the token of `tokenFile` or `KURA_TOKEN`.
    static func client(_ url: String, tokenFile: String?) throws -> KuraClient {
        KuraClient(realm: try RemoteRealmURL(url), token: try token(file: tokenFile))
    }

    /// The token: the first line of `file`, else `KURA_TOKEN`, else none.
    static func token(file: String?) throws -> String? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(.inputMissing, "no token file at '\(file)'")
            }
            let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let token = line.trimmingCharacters(in: .whitespaces)
            guard !token.isEmpty else { throw CommandFailure(.usage, "the token file '\(file)' holds no token") }
            return token
        }
        let token = ProcessInfo.processInfo.environment["KURA_TOKEN"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        return token?.isEmpty == false ? token : nil
    }

    /// Runs `body` and waits for it: the commands are synchronous, and nothing else runs on the
    /// thread that waits. `tick`, when given, runs on this thread every fifth of a second meanwhile
    /// (to redraw a progress line).
    static func wait<T: Sendable>(tick: (() -> Void)? = nil, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        // The task lets go of `body` (and whatever it holds, such as a realm the caller closes
        // next) before it says it is done.
        let work = Mutex<(@Sendable () async throws -> T)?>(body)
        let done = DispatchSemaphore(value: 0)
        Task {
            let result = await { () async -> Result<T, any Error> in
                guard let body = work.withLock({ $0.take() }) else { return .failure(CancellationError()) }
                do {
                    return .success(try await body())
                } catch {
                    return .failure(error)
                }
            }()
            outcome.withLock { $0 = result }
            done.signal()
        }
        while done.wait(timeout: .now() + .milliseconds(200)) == .timedOut { tick?() }
        guard let result = outcome.withLock({ $0 }) else { throw CommandFailure(.internal, "a request ended without an answer") }
        return try result.get()
    }
}

/// A count one thread sets and another reads: the bytes an upload has sent, for its progress line.
final class SharedCount: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func set(_ value: Int) { count.store(value, ordering: .relaxed) }
}

/// The rejected documents a served import's answer lists, handed from the request's task to the command.
final class RejectedList: Sendable {
    private let listed = Mutex<[RejectedDocument]>([])

    var documents: [RejectedDocument] { listed.withLock { $0 } }

    func set(_ documents: [RejectedDocument]) { listed.withLock { $0 = documents } }
}
