import Foundation
import KuraTestSupport
import Testing

/// Every case of the query table through a real `kura serve`: one server for the whole suite, its
/// realm made with `kura init` and filled by `POST …/import`, each predicate asked as
/// `GET /v1/realms/graph/objects/{type}?where=…&limit=1000` (its `$0` … as `args`), the pages
/// followed through `next`, and the primary keys compared with the answer worked out in plain Swift;
/// the sorted cases again in pages of three.
@Suite(.queryGraphService) struct QuerySuiteServiceTests {
    @Test(arguments: QueryTable.cases)
    func kuraServeAnswersAsPlainSwiftDoes(_ queryCase: QueryCase) throws {
        queryCase.expect(try Self.keys(queryCase, pageSize: 1000), via: "kura serve")
    }

    /// Pages of three, each starting after the cursor of the one before, give the order one page does.
    @Test(arguments: QueryTable.cases.filter(\.isOrdered))
    func pagesOfThreeKeepTheOrderOfSortDistinctAndLimit(_ queryCase: QueryCase) throws {
        queryCase.expect(try Self.keys(queryCase, pageSize: 3), via: "kura serve, pages of 3")
    }

    /// The primary keys of every object the query selects, page after page.
    static func keys(_ queryCase: QueryCase, pageSize: Int) throws -> [Int] {
        let service = try #require(QueryGraphService.current, "the suite's server is not running")
        var path = "/v1/realms/graph/objects/\(queryCase.type)?where=\(Self.encoded(queryCase.query))&limit=\(pageSize)"
        if !queryCase.arguments.isEmpty { path += "&args=\(Self.encoded(SuiteArgument.json(queryCase.arguments)))" }
        var keys: [Int] = []
        var page: String? = path
        while let next = page {
            let reply = try service.get(next)
            try #require(reply.status == 200, "GET \(next): \(reply.status) \(reply.text)")
            let body = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
            let objects = try #require(body["objects"] as? [[String: Any]], "no objects in \(reply.text)")
            keys += try objects.map { object in try #require(object["id"] as? Int, "an object without an id: \(object)") }
            #expect(body["count"] as? Int == keys.count || body["next"] is String, "the last page's count is not the objects listed")
            page = body["next"] as? String
        }
        return keys
    }

    /// A query string value: every byte but unreserved ASCII percent-encoded, `+` and spaces included.
    static func encoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// Where the suite's server listens.
struct QueryGraphEndpoint: Sendable {
    let port: Int
    let folder: URL

    func get(_ path: String) throws -> HTTPReply {
        try HTTPReply.fetch("GET", "http://127.0.0.1:\(port)\(path)", headers: [:], body: nil, in: folder)
    }
}

/// Runs one `kura serve` around the whole suite and stops it when the suite ends, pass or fail.
struct QueryGraphService: SuiteTrait, TestScoping {
    @TaskLocal static var current: QueryGraphEndpoint?

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let inputs = try QuerySuiteInputs()
        try inputs.kura(["init", "graph.realm", "--schema", inputs.schemaPath])
        let server = try ServerProcess(in: inputs.folder, ["graph.realm"])
        defer { _ = server.stop() }
        let endpoint = QueryGraphEndpoint(port: server.port, folder: inputs.folder)
        let imported = try HTTPReply.fetch(
            "POST", "http://127.0.0.1:\(server.port)/v1/realms/graph/import", headers: ["Content-Type": "application/json"],
            body: try Data(contentsOf: URL(fileURLWithPath: inputs.documentsPath)), in: inputs.folder)
        guard imported.status == 200 else { throw QuerySuiteFailure("POST …/import: \(imported.status) \(imported.text)") }
        try await Self.$current.withValue(endpoint) { try await function() }
    }
}

extension Trait where Self == QueryGraphService {
    static var queryGraphService: Self { Self() }
}
