extension Realm {
    /// The realm's change version (``changeVersion``) now, then each new one as commits move it,
    /// from this process or any other.
    ///
    /// The stream starts with the version when observing begins and yields a version only when it
    /// differs from the last one yielded; a consumer that falls behind gets the newest (versions only
    /// grow: read the commits since the last one handled with ``changes(after:limit:)``). New
    /// versions are seen within the poll interval of the realm's change notifier, which one file's
    /// observers share. The stream ends with an error when the file can no longer be read, and stops
    /// observing when its consumer stops iterating.
    public func committedVersions() -> AsyncThrowingStream<Int64, any Error> {
        let (versions, continuation) = AsyncThrowingStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let token = NotificationToken()
        continuation.onTermination = { _ in token.invalidate() }
        do {
            try ChangeNotifier.notifier(for: self).add(VersionObserver(continuation: continuation, token: token), token: token)
        } catch {
            continuation.finish(throwing: error)
        }
        return versions
    }
}
