import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// The connection to a realm's PostgreSQL server, against the test server: values in and out
/// exactly, COPY, and a clear error for each way a connection fails, never showing a password.
@Suite struct PostgresSessionTests {
    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Every stored form, with the values that break careless code.
    private let cells: [StoredCell] = [
        .integer(.min), .integer(.max), .integer(0), .real(-0.0), .real(.infinity), .real(-.infinity),
        .real(0.1), .real(.leastNonzeroMagnitude), .real(1.7976931348623157e308), .text(""), .text("tab\t\\ \"quote\" 'single' \n\r"),
        .text("naïve 🐕 ∑"), .blob(Data()), .blob(Data((0...255).map(UInt8.init))), .blob(Data("plain text".utf8)),
        .blob(Data(#"\x41 back\slash"#.utf8 + [0, 9, 10, 13, 0x7f])), .null,
    ]

    @Test func valuesGoInAndComeBackExactly() throws {
        guard PostgresTestServer.isReady() else { return }
        let session = try PostgresSession(PostgresLocation(url: PostgresTestServer.freshRealmURL()))
        for cell in cells {
            let type = switch cell {
            case .integer: "bigint"
            case .real: "double precision"
            case .text: "text"
            case .blob: "bytea"
            case .null: "text"
            }
            let back = try session.value("SELECT $1::\(type)", [cell])
            #expect(back?.isIdentical(to: cell) == true, "\(cell) came back as \(String(describing: back))")
        }
        #expect(try session.value("SELECT 'NaN'::double precision").map { if case .real(let x) = $0 { x.isNaN } else { false } } == true)
        #expect(try session.value("SELECT true") == .integer(1))
        #expect(try session.rows("SELECT 1 WHERE false").isEmpty)
    }

    /// A session whose search path is a schema made for the test, for tables of its own.
    private func sessionInNewSchema() throws -> PostgresSession {
        let location = try PostgresLocation(url: PostgresTestServer.freshRealmURL())
        let session = try PostgresSession(location)
        try session.execute("CREATE SCHEMA \(location.quotedSchema)")
        return session
    }

    @Test func copyLoadsEveryValueExactly() throws {
        guard PostgresTestServer.isReady() else { return }
        let session = try sessionInNewSchema()
        try session.execute(##"CREATE TABLE "we""ird" ("n" bigint, "r" double precision, "t" text, "b" bytea, "#pos" bigint)"##)
        var text = PostgresCopyText()
        var expected: [[StoredCell]] = []
        for (position, cell) in cells.enumerated() {
            let row: [StoredCell] = [
                cell.objectId.map(StoredCell.integer) ?? .null,
                { if case .real = cell { cell } else { .null } }(),
                { if case .text = cell { cell } else { .null } }(),
                { if case .blob = cell { cell } else { .null } }(),
                .integer(Int64(position)),
            ]
            for column in row { text.append(column) }
            text.endRow()
            expected.append(row)
        }
        try session.copy(into: "we\"ird", columns: ["n", "r", "t", "b", "#pos"], text.buffer)
        let back = try session.rows(##"SELECT "n", "r", "t", "b", "#pos" FROM "we""ird" ORDER BY "#pos""##)
        #expect(back.count == expected.count)
        for (got, want) in zip(back, expected) {
            #expect(zip(got, want).allSatisfy { $0.isIdentical(to: $1) }, "\(got) is not \(want)")
        }
        // A bad line fails the COPY whole, with the server's words, and the connection goes on.
        var bad = PostgresCopyText()
        bad.append(.text("not a number"))
        bad.endRow()
        let error = #expect(throws: KuraError.self) { try session.copy(into: "we\"ird", columns: ["n"], bad.buffer) }
        #expect(error?.message.hasPrefix("PostgreSQL error 22P02: invalid input syntax for type bigint: \"not a number\"") == true)
        #expect(error?.sql == #"COPY "we""ird" FROM STDIN"#)
        #expect(try session.value(#"SELECT count(*) FROM "we""ird""#) == .integer(Int64(cells.count)))
    }

    @Test func stagedCellsLoadAsTheirColumnsStoreThem() throws {
        guard PostgresTestServer.isReady() else { return }
        let session = try sessionInNewSchema()
        try session.execute(##"CREATE TABLE "staged" ("b" bytea, "m" bytea, "n" bigint, "r" double precision, "#pos" bigint)"##)
        // Texts as bytea in its escape form or its hex form, whichever is shorter; a number in a
        // mixed value's bytea as its decimal text.
        let texts = ["", "plain", #"\x41 reads like hex"#, "tab\t nl\n cr\r nul\u{0} del\u{7f} \\", "naïve 🐕 ∑", "🐕🐕🐕🐕", #"\\"#]
        let stage = RowStage()
        var text = PostgresCopyText()
        for (position, value) in texts.enumerated() {
            let mark = stage.mark
            stage.appendText(value)
            stage.appendInteger(Int64(position) - 3)
            stage.appendInteger(.min + Int64(position))
            stage.appendReal(-0.0)
            stage.appendInteger(Int64(position))
            for index in mark.cell..<stage.cellCount { text.appendStaged(stage, at: index) }
            text.endRow()
            stage.reset(to: mark)
        }
        try session.copy(into: "staged", columns: ["b", "m", "n", "r", "#pos"], text.buffer)
        let back = try session.rows(##"SELECT "b", "m", "n", "r" FROM "staged" ORDER BY "#pos""##)
        #expect(back.count == texts.count)
        for (position, (row, value)) in zip(back, texts).enumerated() {
            let expected: [StoredCell] = [
                .blob(Data(value.utf8)), .blob(Data(String(position - 3).utf8)), .integer(.min + Int64(position)), .real(-0.0),
            ]
            #expect(zip(row, expected).allSatisfy { $0.isIdentical(to: $1) }, "\(row) is not \(expected)")
        }
    }

    @Test func copyBatchesStartedTogetherLoadInOrderAndStopAtTheFirstError() throws {
        guard PostgresTestServer.isReady() else { return }
        let session = try sessionInNewSchema()
        try session.execute(##"CREATE TABLE "numbers" ("#row" bigint GENERATED ALWAYS AS IDENTITY, "n" bigint)"##)
        try session.execute(#"CREATE TABLE "names" ("t" text)"#)
        func batch(_ values: [StoredCell]) -> PostgresCopyText {
            var text = PostgresCopyText()
            for value in values {
                text.append(value)
                text.endRow()
            }
            return text
        }
        // More batches than may wait at once, into two tables by turns: the server takes each
        // table's in the order they were started, as its row numbers show.
        for start in stride(from: 0, to: 60, by: 6) {
            try session.startCopy(into: "numbers", columns: ["n"], batch((start..<start + 6).map { .integer(Int64($0)) }).buffer)
            try session.startCopy(into: "names", columns: ["t"], batch([.text("name \(start)")]).buffer)
        }
        let numbers = try session.rows(##"SELECT "n" FROM "numbers" ORDER BY "#row""##)
        #expect(numbers == (0..<60).map { [StoredCell.integer(Int64($0))] })
        #expect(try session.value(#"SELECT count(*) FROM "names""#) == .integer(10))
        // In a transaction, the second batch fails: its error is the one told, by the next call
        // (a COPY's, if the server has answered by then), and the batches behind it are never sent.
        try session.execute("BEGIN")
        try session.startCopy(into: "numbers", columns: ["n"], batch([.integer(100)]).buffer)
        try session.startCopy(into: "numbers", columns: ["n"], batch([.text("one hundred and one")]).buffer)
        let error = #expect(throws: KuraError.self) {
            try session.startCopy(into: "names", columns: ["t"], batch([.text("after the error")]).buffer)
            _ = try session.value("SELECT 1")
        }
        #expect(error?.description.hasPrefix(#"error: PostgreSQL error 22P02: invalid input syntax for type bigint: "one hundred and one""#) == true)
        #expect(error?.sql == #"COPY "numbers" FROM STDIN"#)
        try session.execute("ROLLBACK")
        #expect(try session.value(#"SELECT count(*) FROM "numbers""#) == .integer(60))
        #expect(try session.value(#"SELECT count(*) FROM "names" WHERE "t" = 'after the error'"#) == .integer(0))
        // Told once: the session goes on.
        try session.copy(into: "names", columns: ["t"], batch([.text("later")]).buffer)
        #expect(try session.value(#"SELECT count(*) FROM "names""#) == .integer(11))
    }

    @Test func anSQLErrorNamesTheStateAndTheStatement() throws {
        guard PostgresTestServer.isReady() else { return }
        let session = try PostgresSession(PostgresLocation(url: PostgresTestServer.freshRealmURL()))
        let error = #expect(throws: KuraError.self) { try session.rows("SELECT * FROM nowhere") }
        #expect(error?.code == .store(.database))
        #expect(error?.description == #"error: PostgreSQL error 42P01: relation "nowhere" does not exist (SQL: SELECT * FROM nowhere)"#)
    }

    @Test func aStatementSentWithoutWaitingHasItsErrorToldByTheNext() throws {
        guard PostgresTestServer.isReady() else { return }
        let session = try PostgresSession(PostgresLocation(url: PostgresTestServer.freshRealmURL()))
        try session.send("SELECT * FROM nowhere")
        let error = #expect(throws: KuraError.self) { try session.value("SELECT 1") }
        #expect(error?.description == #"error: PostgreSQL error 42P01: relation "nowhere" does not exist (SQL: SELECT * FROM nowhere)"#)
        // Told once; a transaction sent the same way holds the statements after it.
        #expect(try session.value("SELECT 2") == .integer(2))
        try session.send("BEGIN")
        try session.execute("CREATE TEMPORARY TABLE \"sent\" (\"n\" bigint)")
        try session.send("ROLLBACK")
        #expect(try session.value("SELECT to_regclass('pg_temp.sent') IS NULL") == .integer(1))
    }

    @Test func aWrongOrMissingPasswordSaysSoAndNeverShowsIt() throws {
        guard PostgresTestServer.isReady() else { return }
        let location = try PostgresLocation(url: PostgresTestServer.url("schema=public"))
        let wrong = #expect(throws: KuraError.self) {
            try PostgresSession(location, environment: ["PGPASSWORD": "not-the-password"])
        }
        #expect(wrong?.code == .store(.openFailed))
        #expect(
            wrong?.message
                == "cannot open realm '\(location.description)': 28P01: password authentication failed for user \"\(location.user)\"")
        #expect(wrong?.description.contains("not-the-password") == false)
        let missing = #expect(throws: KuraError.self) { try PostgresSession(location, environment: ["HOME": "/nonexistent"]) }
        #expect(
            missing?.message
                == "cannot open realm '\(location.description)': the server asks for a password for user '\(location.user)' and none is set: put it in PGPASSWORD or ~/.pgpass")
    }

    @Test func anUnreachableServerOrMissingTLSIsAClearError() throws {
        guard PostgresTestServer.isReady() else { return }
        let closed = try PostgresLocation(url: "postgres://kura@127.0.0.1:1/postgres?schema=zoo")
        let refused = #expect(throws: KuraError.self) { try PostgresSession(closed) }
        #expect(refused?.code == .store(.openFailed))
        #expect(refused?.message == "cannot open realm 'postgres://kura@127.0.0.1:1/postgres?schema=zoo': connection refused")
        let tls = try PostgresLocation(url: PostgresTestServer.url("schema=zoo&sslmode=require"))
        let noTLS = #expect(throws: KuraError.self) { try PostgresSession(tls) }
        #expect(noTLS?.message == "cannot open realm '\(tls.description)': the server does not speak TLS, which sslmode=require requires")
        let missingDatabase = try PostgresLocation(url: PostgresTestServer.url("dbname=no_such_db"))
        let noDatabase = #expect(throws: KuraError.self) { try PostgresSession(missingDatabase) }
        #expect(noDatabase?.message == "cannot open realm '\(missingDatabase.description)': 3D000: database \"no_such_db\" does not exist")
    }

    @Test func aLostConnectionIsNamedAndTheNextConnectionWorks() throws {
        guard PostgresTestServer.isReady() else { return }
        let location = try PostgresLocation(url: PostgresTestServer.freshRealmURL())
        let session = try PostgresSession(location)
        guard case .integer(let pid)? = try session.value("SELECT pg_backend_pid()") else {
            Issue.record("no backend pid")
            return
        }
        try PostgresTestServer.psql("SELECT pg_terminate_backend(\(pid))")
        let error = #expect(throws: KuraError.self) { try session.rows("SELECT 1") }
        // With the server's reason when its message arrives before the connection is seen closed.
        let lost = "the connection to realm '\(location.description)' was lost"
        #expect([lost, lost + ": PostgreSQL error 57P01: terminating connection due to administrator command"].contains(error?.message))
        #expect(try PostgresSession(location).value("SELECT 2") == .integer(2))
    }

    @Test func manyWaitingCallersFromTasksDoNotStarveEachOther() async throws {
        guard PostgresTestServer.isReady() else { return }
        let location = try PostgresLocation(url: PostgresTestServer.freshRealmURL())
        // More callers than the shared pool has threads, each blocking its thread while it waits.
        let total = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let session = try PostgresSession(location)
                    var sum: Int64 = 0
                    for step in 0..<20 {
                        if case .integer(let value)? = try session.value("SELECT $1::bigint", [.integer(Int64(index * step))]) {
                            sum += value
                        }
                    }
                    return sum
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(total == (0..<16).reduce(Int64(0)) { $0 + Int64($1 * 190) })
    }
}
