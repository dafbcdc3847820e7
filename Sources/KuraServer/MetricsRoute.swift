import Hummingbird

/// `GET /metrics`: Prometheus' text format (read scope when tokens are configured).
struct MetricsRoute: RouteSet {
    let metrics: ServiceMetrics

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("metrics") { _, _ in
            ResponseMaking.text(metrics.text, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
