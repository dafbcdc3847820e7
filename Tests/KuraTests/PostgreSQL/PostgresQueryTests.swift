import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// The predicate compiler's PostgreSQL dialect against the test server: every case of the query
/// table gives the same objects, in the same order, on a SQLite realm and on its copy in
/// PostgreSQL, and the answer worked out in plain Swift; `[c]`/`[d]` fold as Swift folds.
@Suite(.serialized) struct PostgresQueryTests {
    /// The query suite's graph in a SQLite realm and its PostgreSQL copy, made once.
    static let mirror = Result { () throws -> PostgresQueryMirror in
        let inputs = try QuerySuiteInputs()
        let path = inputs.folder.appendingPathComponent("graph.realm").path
        let realm = try Realm(path: path, schema: Schema(yaml: QueryGraph.schemaYAML))
        _ = try DocumentImporter(realm: realm).run(JSONReader(path: inputs.documentsPath))
        return try PostgresQueryMirror(realmPath: path, catalog: realm.catalog, label: "query")
    }

    @Test(arguments: QueryTable.cases)
    func postgresAnswersAsSQLiteAndPlainSwiftDo(_ queryCase: QueryCase) throws {
        guard PostgresTestServer.isReady() else { return }
        let mirror = try Self.mirror.get()
        let arguments = queryCase.arguments.map(QuerySuiteLibraryTests.value)
        let ids = try mirror.ids(queryCase.type, where: queryCase.query, arguments: arguments)
        #expect(ids.postgres == ids.sqlite, "\(queryCase.testDescription)")
        let keys = try mirror.keys(of: queryCase.type)
        queryCase.expect(ids.postgres.compactMap { keys[$0] }, via: "postgres")
    }

    /// Sort keys of every kind, nulls placed as SQLite places them, in both directions.
    @Test(arguments: [
        "name", "name DESC", "age", "age DESC", "born", "born DESC", "bestFriend.name", "bestFriend.name DESC",
        "dogs.@count", "dogs.@count DESC", "extra", "extra DESC", "name.@count", "nick.@count DESC", "budget", "budget DESC",
        "height", "height DESC", "address.city", "address.city DESC",
    ])
    func sortingOrdersAsSQLiteDoes(_ sort: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let mirror = try Self.mirror.get()
        let ids = try mirror.ids("Person", where: "TRUEPREDICATE", sortedBy: sort)
        #expect(ids.postgres == ids.sqlite, "sorted by \(sort)")
    }

    /// `kura_fold`, `kura_fold_d` and `kura_fold_cd` give what `StringOptions.fold` gives, on the
    /// graph's names and on texts built to break a table of single scalars: combining marks, Hangul,
    /// final sigma, ligatures, dotted I, NUL, every Latin-1 and Greek letter, random letters and
    /// other scalars, some letters followed by a combining diacritical.
    @Test func foldingInPostgresIsSwiftsFolding() throws {
        guard PostgresTestServer.isReady() else { return }
        let mirror = try Self.mirror.get()
        var texts = QueryGraph.generated.people.map(\.name) + [
            "", "plain ascii", "ÀÉÎÕÜ àéîõü", "e\u{301}", "E\u{301}\u{327}", "\u{301}", "ΟΔΥΣΣΕΥΣ", "ὈΔΥΣΣΕΎΣ", "ﬁ ﬀ ß ẞ", "İstanbul ı",
            "\u{1100}\u{1161}\u{11A8}", "각", "Å Ω K", "a\u{0}é\u{0}", "ǅ ǈ ǋ", "Ⓐ Ａ", "𐐀𐐨 𞤀", "Straße", "ŒœÆæØøŁł", "^`~¨´",
            "é^`~a", "Zoë", "ÉMILE",
        ]
        texts += (0x80..<0x250).compactMap { Unicode.Scalar($0).map { "x" + String(Character($0)) + "Y" } }
        texts += (0x370..<0x400).compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<8 {
                // Letters (and anything not a mark), a combining diacritical after some: marks after
                // symbols or other marks, and marks beyond that block, fold by what comes before
                // them (U+0A02 goes after "a", stays after U+261C), which no table of scalars says.
                let value = UInt32(truncatingIfNeeded: generator.next() % 0x3000)
                guard let scalar = Unicode.Scalar(value), !Self.marks.contains(scalar.properties.generalCategory) else { continue }
                text.unicodeScalars.append(scalar)
                let isLetter = scalar.properties.isAlphabetic && !Self.marks.contains(scalar.properties.generalCategory)
                if isLetter, generator.next() % 3 == 0, let mark = Unicode.Scalar(0x300 + UInt32(generator.next() % 0x70)) {
                    text.unicodeScalars.append(mark)
                }
            }
            texts.append(text)
        }
        var mismatches: [String] = []
        for text in texts {
            let row = try mirror.session.rows(
                "SELECT kura_fold($1), kura_fold_d($1), kura_fold_cd($1)", [.blob(Data(text.utf8))]
            ).first ?? []
            let expected = PostgresFoldTable.kinds.map { StoredCell.blob(Data($0.options.fold(text).utf8)) }
            for (kind, (found, wanted)) in zip(row, expected).enumerated() where !found.isIdentical(to: wanted) {
                mismatches.append("kind \(kind + 1) of \(Self.hex(text)): \(found) not \(wanted)")
            }
            if row.count != expected.count { mismatches.append("\(Self.hex(text)): \(row.count) folds") }
        }
        #expect(mismatches.isEmpty, "folded otherwise than Swift: \(mismatches.prefix(20))")
    }

    private static let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]

    private static func hex(_ text: String) -> String {
        text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
    }

    /// Realm's LIKE on both engines: `?` is one character however many bytes, `*` any run.
    @Test(arguments: ["*", "?", "C*", "*e", "?é*", "*l?n*", "[*", "*?*?*?*?*?*?*?*?*", "C?line", "c*"])
    func likeMatchesAsSQLiteGlobDoes(_ pattern: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let mirror = try Self.mirror.get()
        let ids = try mirror.ids("Person", where: "name LIKE $0", arguments: [.string(pattern)])
        #expect(ids.postgres == ids.sqlite, "LIKE \(pattern)")
        let folded = try mirror.ids("Person", where: "name LIKE[c] $0", arguments: [.string(pattern)])
        #expect(folded.postgres == folded.sqlite, "LIKE[c] \(pattern)")
    }

    /// `kura_real` gives back the double of every pattern of bits, zeros' signs and subnormals included.
    @Test func realFromBitsIsExact() throws {
        guard PostgresTestServer.isReady() else { return }
        let mirror = try Self.mirror.get()
        let numbers: [Double] = [0, -0.0, 1, -1, 0.1, .pi, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                                 -.greatestFiniteMagnitude, .infinity, -.infinity, Double(bitPattern: 0x0000_1234_5678_9abc), 123456.789e200]
        for number in numbers {
            let back = try mirror.session.value("SELECT kura_real($1)", [.integer(Int64(bitPattern: number.bitPattern))])
            #expect(back?.isIdentical(to: .real(number)) == true, "\(number) came back as \(String(describing: back))")
        }
    }
}

extension PostgresQueryTests {
    /// Pages through cursors, limit and offset, and counts, on PostgreSQL as on SQLite: every
    /// sort key kind a cursor carries back (bytes of a string, a decimal compared by value, nulls).
    @Test(arguments: ["name", "budget DESC", "budget", "age", "born DESC", "height", "extra", "extra DESC"])
    func pagesFollowEachOtherAsOnSQLite(_ sort: String) throws {
        guard PostgresTestServer.isReady() else { return }
        let mirror = try Self.mirror.get()
        let predicate = "age > 20"
        let all = try mirror.ids("Person", where: predicate, sortedBy: sort)
        #expect(all.postgres == all.sqlite)
        var paged: [Int64] = []
        var cursor: QueryCursor?
        repeat {
            let query = try ObjectQuery(
                "Person", where: predicate, sortedBy: sort, limit: 8, after: cursor, catalog: mirror.postgresCatalog)
            let page = try query.page(mirror.session, limit: 7)
            paged += page.ids
            cursor = page.next
        } while cursor != nil && paged.count <= all.sqlite.count
        #expect(paged == all.sqlite, "paged by \(sort)")
        let query = try ObjectQuery("Person", where: predicate, sortedBy: sort, catalog: mirror.postgresCatalog)
        #expect(try query.count(mirror.session) == all.sqlite.count)
        #expect(try query.matchingIds(mirror.session, limit: 5, offset: 3) == Array(all.sqlite.dropFirst(3).prefix(5)))
    }
}
