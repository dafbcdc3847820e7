import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives every response an `X-Request-Id` (the client's, or a new one) and logs one line per
/// request: method, path, status, duration and id. Headers are never logged, so no token is.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIdField: HTTPField.Name { HTTPField.Name("X-Request-Id")! }

    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let id = Self.acceptedId(request.headers[Self.requestIdField]) ?? UUID().uuidString.lowercased()
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = TextResponse.problem(ProblemMapping.problem(for: error))
        }
        response.headers[Self.requestIdField] = id
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info(
            "\(request.method) \(request.uri.path) \(response.status.code) \(String(format: "%.1f", milliseconds))ms",
            metadata: ["request-id": .string(id)])
        return response
    }

    /// The client's id when it is short printable ASCII, so it can go back in a header and a log line safely.
    private static func acceptedId(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 200 else { return nil }
        return value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f } ? value : nil
    }
}
