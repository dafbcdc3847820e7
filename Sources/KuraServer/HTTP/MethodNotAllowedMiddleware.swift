import Hummingbird
import Kura

/// Answers a request for a path the router has, with a method it lacks there, 405 with `Allow`
/// naming the path's methods, as HTTP asks (TRACE and OPTIONS included: neither is routed; HEAD
/// is, wherever GET is).
///
/// Added to the router after every route, it wraps only the responder of unrouted requests; a
/// path no route has stays 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// One routed path: its segments (`nil` for a parameter) and its methods.
    private struct RoutedPath {
        let segments: [Substring?]
        var methods: [String]
    }

    private let paths: [RoutedPath]
    /// The methods a routed path refuses for what it names (PUT of an object whose type has no
    /// primary key), given the request's path segments, percent-decoded.
    private let refused: @Sendable ([String]) async -> Set<String>

    /// The paths of `routes` (the router's, `{name}` marking a parameter) with their methods.
    init(routes: [(method: String, path: String)], refused: @escaping @Sendable ([String]) async -> Set<String>) {
        self.refused = refused
        var paths: [RoutedPath] = []
        for route in routes {
            let segments = route.path.split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? nil : $0 }
            let methods = route.method == "GET" ? ["GET", "HEAD"] : [route.method]
            if let index = paths.firstIndex(where: { $0.segments == segments }) {
                paths[index].methods += methods
            } else {
                paths.append(RoutedPath(segments: segments, methods: methods))
            }
        }
        self.paths = paths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/")
        let methods = paths.filter { path in
            path.segments.count == segments.count && zip(path.segments, segments).allSatisfy { $0.0 == nil || $0.0 == $0.1 }
        }.flatMap(\.methods)
        guard !methods.isEmpty else { return try await next(request, context) }
        let decoded = segments.map { $0.removingPercentEncoding ?? String($0) }
        let allow = Set(methods).subtracting(await refused(decoded)).sorted().joined(separator: ", ")
        throw Problem(
            status: 405, code: "method-not-allowed", detail: "\(MessageText.shown(request.method.rawValue)) is not a method of this path: it takes \(allow)",
            headers: [("Allow", allow)])
    }
}
