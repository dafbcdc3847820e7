import AsyncHTTPClient

/// The HTTP client of the client's in-process tests: it waits an hour for a response where the
/// library's waits five minutes. Those tests' pieces move on Swift's shared threads, which the
/// whole suite's synchronous tests can hold until most of them have run; what the tests check is
/// what the answers say, not how soon they come.
enum PatientHTTPClient {
    static let shared = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: HTTPClient.Configuration(timeout: HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .hours(1))))
}
