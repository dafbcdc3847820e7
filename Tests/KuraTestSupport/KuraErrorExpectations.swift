import Kura
import Testing

/// Expects `body` to throw a `KuraError` of `domain`, and returns it.
@discardableResult
package func expectKuraError<Result>(
    _ domain: KuraError.Domain, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Result
) -> KuraError? {
    let error = #expect(throws: KuraError.self, sourceLocation: sourceLocation) { _ = try body() }
    #expect(error?.code.domain == domain, "\(String(describing: error))", sourceLocation: sourceLocation)
    return error
}

/// Expects `body` to throw a `KuraError` of `domain`, and returns it.
@discardableResult
package func expectKuraError<Result>(
    _ domain: KuraError.Domain, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Result
) async -> KuraError? {
    let error = await #expect(throws: KuraError.self, sourceLocation: sourceLocation) { _ = try await body() }
    #expect(error?.code.domain == domain, "\(String(describing: error))", sourceLocation: sourceLocation)
    return error
}
