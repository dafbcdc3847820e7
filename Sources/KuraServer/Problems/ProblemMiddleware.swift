import Hummingbird
import Logging

/// Turns every error a route throws into its problem response (ProblemMapping decides which).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = ProblemMapping.problem(for: error)
            // A 503 (busy, or a realm gone) is the state of things, not a failure of the server.
            if problem.status == 500 {
                logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            }
            return TextResponse.problem(problem)
        }
    }
}
