import Hummingbird

/// Records every request in `ServiceMetrics`, under its route's pattern (not its path, so realm
/// names and keys do not multiply the series).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        metrics.request(
            route: context.endpointPath ?? "unknown", method: request.method.rawValue, status: Int(response.status.code),
            duration: ContinuousClock.now - started)
        return response
    }
}
