import Foundation
import Kura
import KuraTestSupport
import Testing

/// Keyset page cursors through the public API: `ExportOptions.after` and `ExportSummary.next`.
@Suite struct PageCursorTests {
    private let schemaText = """
        schemaVersion: 1
        types:
          Owner:
            properties:
              name: string?
          Item:
            properties:
              name: string?
              score: double?
              amount: decimal?
              tag: mixed
              owner: Owner?
        """

    /// A realm of 60 items whose values repeat, are null, and (for `tag`) are of several kinds.
    private func makeRealm() throws -> Realm {
        let realm = try Realm(path: ":memory:", schema: try Schema(yaml: schemaText))
        let amounts = try ["1.5", "1.50", "-2", "10"].map { try #require(Decimal128($0)) }
        let tags: [Value] = [.null, .int(3), .string("b"), .double(2.5), .bool(true), .int(-1), .string("a")]
        try realm.write {
            for index in 0..<60 {
                let owner: Value = index % 4 == 0 ? .null : .map(["name": index % 3 == 0 ? .null : .string("O\(index % 5)")])
                try realm.create("Item", value: .map([
                    "name": index % 6 == 0 ? .null : .string("N\(index % 4)"),
                    "score": index % 5 == 0 ? .null : .double(Double(index % 3) / 2),
                    "amount": index % 7 == 0 ? .null : .decimal(amounts[index % amounts.count]),
                    "tag": tags[index % tags.count], "owner": owner,
                ]))
            }
        }
        return realm
    }

    private func export(_ realm: Realm, _ options: ExportOptions) throws -> (text: String, next: QueryCursor?) {
        let output = DocumentOutput()
        let summary = try RealmExporter(realm: realm, options: options).run(to: DocumentWriter(schema: realm.schema, format: .jsonl, output: output))
        return (String(decoding: output.bytes, as: UTF8.self), summary.next)
    }

    @Test func pagesJoinedAreTheWholeSortedExportWhateverTheSort() throws {
        let realm = try makeRealm()
        let sorts: [String?] = [nil, "name", "name desc", "score desc, name", "amount", "amount desc, score", "tag", "tag desc", "owner.name desc, score"]
        for sort in sorts {
            let whole = try export(realm, ExportOptions(type: "Item", sort: sort)).text
            var joined = ""
            var after: QueryCursor?
            var pages = 0
            repeat {
                var options = ExportOptions(type: "Item", sort: sort, limit: 7)
                options.after = after
                let page = try export(realm, options)
                joined += page.text
                // The token is what a client carries between pages.
                after = try page.next.map { try QueryCursor(token: $0.token) }
                pages += 1
            } while after != nil && pages < 20
            #expect(pages == 9, "\(sort ?? "no sort")")
            #expect(joined == whole, "\(sort ?? "no sort")")
        }
    }

    @Test func aCursorOfAnotherSortOrNoCursorAtAllIsRefused() throws {
        let realm = try makeRealm()
        let first = try export(realm, ExportOptions(type: "Item", sort: "name", limit: 5))
        let cursor = try #require(first.next)
        var options = ExportOptions(type: "Item", sort: "score", limit: 5)
        options.after = cursor
        #expect(throws: KuraError.query(.invalidCursor, "the cursor belongs to another sort order: start again without it")) {
            _ = try export(realm, options)
        }
        #expect(throws: KuraError.query(.invalidCursor, "'AQ' is not a cursor of this query: start again without it")) {
            _ = try QueryCursor(token: "AQ")
        }
        expectKuraError(.query) { _ = try QueryCursor(token: "not base64 at all!") }
        #expect(try QueryCursor(token: cursor.token) == cursor)
        // The last page has no next.
        #expect(try export(realm, ExportOptions(type: "Item", sort: "name", limit: 60)).next == nil)
        #expect(try export(realm, ExportOptions(type: "Item", sort: "name", limit: 59)).next != nil)
    }
}
