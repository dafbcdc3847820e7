import Kura
import Synchronization

/// Follows the change version of each served realm that a `/changes` stream follows, with one
/// follower per realm shared by all of its streams, and wakes the streams when it moves: commits of
/// this server and of any other process on the same file count alike.
///
/// A follower runs only while its realm has listeners. It reads the library's stream of committed
/// versions (`Realm.committedVersions()`, whose notifier watches the file) and, beside it, tells
/// the listeners when a keep-alive comment is due. A realm that cannot be read for a while is
/// followed again after `retryInterval`.
final class ChangeFeeds: Sendable {
    /// What a listener is woken for.
    enum Signal: Sendable, Equatable {
        /// The realm's change version is now this (or was, when read): read the changes after yours.
        case changed(Int64)
        /// Nothing for a while: send a keep-alive comment so that proxies keep the stream open.
        case keepAlive
    }

    private struct Feed {
        var listeners: [Int: AsyncStream<Signal>.Continuation] = [:]
        var follower: Task<Void, Never>?
    }

    private struct State {
        var feeds: [String: Feed] = [:]
        var nextListener = 0
    }

    private let realms: ServedRealms
    private let retryInterval: Duration
    private let keepAliveInterval: Duration
    private let state = Mutex(State())

    /// Feeds for `realms`, following a realm again `retryInterval` after it could not be read, and
    /// asking for a keep-alive every `keepAliveInterval`.
    init(realms: ServedRealms, retryInterval: Duration = .milliseconds(250), keepAliveInterval: Duration = .seconds(15)) {
        self.realms = realms
        self.retryInterval = retryInterval
        self.keepAliveInterval = keepAliveInterval
    }

    /// Starts listening to realm `name`: the signals, and the number to stop listening with.
    func listen(to name: String) -> (id: Int, signals: AsyncStream<Signal>) {
        // Only the latest signal matters: a listener reads every change after its own cursor anyway.
        let (signals, continuation) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.nextListener
            state.nextListener += 1
            var feed = state.feeds[name] ?? Feed()
            feed.listeners[id] = continuation
            if feed.follower == nil { feed.follower = startFollower(name) }
            state.feeds[name] = feed
            return id
        }
        return (id, signals)
    }

    /// Stops listener `id` of realm `name`; the realm's follower stops with its last listener.
    func stopListening(to name: String, id: Int) {
        let (continuation, follower) = state.withLock { state -> (AsyncStream<Signal>.Continuation?, Task<Void, Never>?) in
            guard var feed = state.feeds[name] else { return (nil, nil) }
            let continuation = feed.listeners.removeValue(forKey: id)
            if feed.listeners.isEmpty {
                state.feeds[name] = nil
                return (continuation, feed.follower)
            }
            state.feeds[name] = feed
            return (continuation, nil)
        }
        continuation?.finish()
        follower?.cancel()
    }

    private func broadcast(_ signal: Signal, to name: String) {
        let listeners = state.withLock { state in state.feeds[name].map { Array($0.listeners.values) } ?? [] }
        for listener in listeners { listener.yield(signal) }
    }

    private func startFollower(_ name: String) -> Task<Void, Never> {
        let realms = self.realms
        let retryInterval = self.retryInterval
        let keepAliveInterval = self.keepAliveInterval
        return Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: keepAliveInterval)
                        if !Task.isCancelled { self?.broadcast(.keepAlive, to: name) }
                    }
                }
                group.addTask {
                    var lastVersion: Int64?
                    while !Task.isCancelled {
                        do {
                            let versions = try await realms.work.run { try realms.reading(name) { $0.committedVersions() } }
                            // The first version is signalled too: a commit may have come between a
                            // listener's first read and the start of the stream.
                            for try await version in versions where version != lastVersion {
                                lastVersion = version
                                self?.broadcast(.changed(version), to: name)
                            }
                        } catch {
                            // Unreadable for now (busy, or gone): follow it again after a pause.
                        }
                        try? await Task.sleep(for: retryInterval)
                    }
                }
            }
        }
    }
}
