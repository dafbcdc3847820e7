import Foundation
import KuraTestSupport
import Testing

/// Every case of the query table through the real `kura` program: the realm made once with
/// `kura init` and `kura import`, each predicate given to `kura export --type T --where P`, the
/// primary keys of the documents it prints compared with the answer worked out in plain Swift.
/// Cases with `$0` arguments are left to the library and the service: the command line takes none.
@Suite struct QuerySuiteCommandLineTests {
    /// One realm for the whole suite: exports only read it.
    static let realm = Result { () throws -> String in
        let inputs = try QuerySuiteInputs()
        let path = inputs.folder.appendingPathComponent("graph.realm").path
        try inputs.kura(["init", path, "--schema", inputs.schemaPath])
        try inputs.kura(["import", path, inputs.documentsPath])
        return path
    }

    @Test(arguments: QueryTable.cases.filter(\.arguments.isEmpty))
    func kuraExportAnswersAsPlainSwiftDoes(_ queryCase: QueryCase) throws {
        let path = try Self.realm.get()
        let result = try Fixtures.run(
            Fixtures.executable("kura"), ["export", path, "--type", queryCase.type, "--where", queryCase.query])
        try #require(result.status == 0, "kura export --where \(queryCase.query): \(result.stderr)")
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let keys = try documents.map { document in try #require(document["id"] as? Int, "a document without an id: \(document)") }
        queryCase.expect(keys, via: "kura export")
    }
}
