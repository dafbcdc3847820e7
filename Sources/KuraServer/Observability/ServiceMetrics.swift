import Prometheus
import Synchronization

/// The server's Prometheus metrics: requests by route, method and status with their durations, and
/// documents and bytes imported and exported by realm.
final class ServiceMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
        .milliseconds(500), .seconds(1), .seconds(5), .seconds(30),
    ]

    private static func name(_ base: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "kura", metricName: base, unitName: unit, helpText: help)
    }

    private static var requests: MetricNameDescriptor { name("http_requests", "total", "HTTP requests answered") }
    private static var durations: MetricNameDescriptor { name("http_request_duration", "seconds", "Time to answer an HTTP request, streamed bodies excluded") }
    private static var documentsImported: MetricNameDescriptor { name("documents_imported", "total", "Documents imported over HTTP") }
    private static var bytesImported: MetricNameDescriptor { name("bytes_imported", "total", "Body bytes imported over HTTP") }
    private static var documentsExported: MetricNameDescriptor { name("documents_exported", "total", "Documents exported over HTTP") }
    private static var bytesExported: MetricNameDescriptor { name("bytes_exported", "total", "Bytes exported over HTTP") }

    /// One request series: its counter and its histogram of durations.
    private struct RequestSeries {
        let count: Counter
        let durations: DurationHistogram
    }

    /// The series made so far by route, method and status, so that a request finds its own without
    /// the registry building and checking names and labels again.
    private let series = Mutex<[RequestSeriesKey: RequestSeries]>([:])

    private struct RequestSeriesKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    /// Counts a finished request and records how long it took.
    func request(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestSeriesKey(route: route, method: method, status: status)
        let found = series.withLock { known in
            if let made = known[key] { return made }
            let made = RequestSeries(
                count: registry.makeCounter(descriptor: Self.requests, labels: [("route", route), ("method", method), ("status", String(status))]),
                durations: registry.makeDurationHistogram(
                    descriptor: Self.durations, labels: [("route", route), ("method", method)], buckets: Self.durationBuckets))
            known[key] = made
            return made
        }
        found.count.increment()
        found.durations.record(duration)
    }

    /// Counts what an import wrote into `realm`.
    func imported(realm: String, documents: Int, bytes: Int) {
        registry.makeCounter(descriptor: Self.documentsImported, labels: [("realm", realm)]).increment(by: Int64(documents))
        registry.makeCounter(descriptor: Self.bytesImported, labels: [("realm", realm)]).increment(by: Int64(bytes))
    }

    /// Counts what an export sent from `realm`.
    func exported(realm: String, documents: Int, bytes: Int) {
        registry.makeCounter(descriptor: Self.documentsExported, labels: [("realm", realm)]).increment(by: Int64(documents))
        registry.makeCounter(descriptor: Self.bytesExported, labels: [("realm", realm)]).increment(by: Int64(bytes))
    }

    /// The metrics in Prometheus' text format.
    var text: String { registry.emitToString() }
}
