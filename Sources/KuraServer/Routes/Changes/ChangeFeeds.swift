import Kura
import Synchronization

/// Watches the change version of each served realm that a `/changes` stream follows, with one
/// poller per realm shared by all of its streams, and wakes the streams when it moves: commits of
/// this server and of any other process on the same file count alike.
///
/// A poller runs only while its realm has listeners; it reads the version on a timer (a cheap read
/// of the realm file's change log, never a busy loop) and also tells the listeners when a
/// keep-alive comment is due. A realm that cannot be read for a while is simply read again.
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
        var poller: Task<Void, Never>?
    }

    private struct State {
        var feeds: [String: Feed] = [:]
        var nextListener = 0
    }

    private let realms: ServedRealms
    private let pollInterval: Duration
    private let keepAliveInterval: Duration
    private let state = Mutex(State())

    /// Feeds for `realms`, reading each followed realm's version every `pollInterval` and asking for
    /// a keep-alive every `keepAliveInterval`.
    init(realms: ServedRealms, pollInterval: Duration = .milliseconds(250), keepAliveInterval: Duration = .seconds(15)) {
        self.realms = realms
        self.pollInterval = pollInterval
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
            if feed.poller == nil { feed.poller = startPoller(name) }
            state.feeds[name] = feed
            return id
        }
        return (id, signals)
    }

    /// Stops listener `id` of realm `name`; the realm's poller stops with its last listener.
    func stopListening(to name: String, id: Int) {
        let (continuation, poller) = state.withLock { state -> (AsyncStream<Signal>.Continuation?, Task<Void, Never>?) in
            guard var feed = state.feeds[name] else { return (nil, nil) }
            let continuation = feed.listeners.removeValue(forKey: id)
            if feed.listeners.isEmpty {
                state.feeds[name] = nil
                return (continuation, feed.poller)
            }
            state.feeds[name] = feed
            return (continuation, nil)
        }
        continuation?.finish()
        poller?.cancel()
    }

    private func broadcast(_ signal: Signal, to name: String) {
        let listeners = state.withLock { state in state.feeds[name].map { Array($0.listeners.values) } ?? [] }
        for listener in listeners { listener.yield(signal) }
    }

    private func startPoller(_ name: String) -> Task<Void, Never> {
        let realms = self.realms
        let pollInterval = self.pollInterval
        let keepAliveInterval = self.keepAliveInterval
        return Task { [weak self] in
            let clock = ContinuousClock()
            var lastVersion: Int64?
            var keepAliveDue = clock.now + keepAliveInterval
            while !Task.isCancelled {
                if let version = try? await realms.work.run({ try realms.reading(name) { try $0.changeVersion } }) {
                    // The first reading is signalled too: a commit may have come between a listener's
                    // first read and this one.
                    if version != lastVersion {
                        lastVersion = version
                        self?.broadcast(.changed(version), to: name)
                    }
                }
                if clock.now >= keepAliveDue {
                    keepAliveDue = clock.now + keepAliveInterval
                    self?.broadcast(.keepAlive, to: name)
                }
                try? await Task.sleep(for: pollInterval)
            }
        }
    }
}
