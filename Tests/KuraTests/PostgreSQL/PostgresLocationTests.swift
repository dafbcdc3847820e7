import Foundation
import KuraTestSupport
import Testing

@testable import Kura

/// Reading a PostgreSQL realm's URL, and finding its password as libpq's programs do.
@Suite struct PostgresLocationTests {
    private let environment = ["USER": "ann", "HOME": "/nonexistent"]

    @Test func defaultsComeFromLibpqsRules() throws {
        let location = try PostgresLocation(url: "postgres://db.example.com/app", environment: environment)
        #expect(location.user == "ann")
        #expect(location.host == "db.example.com")
        #expect(location.port == 5432)
        #expect(location.database == "app")
        #expect(location.schema == "public")
        #expect(location.tlsMode == .prefer)
        #expect(location.description == "postgres://ann@db.example.com:5432/app?schema=public")
        let bare = try PostgresLocation(url: "postgresql://", environment: ["PGUSER": "bob", "PGPORT": "6543"])
        #expect(bare.description == "postgres://bob@localhost:6543/bob?schema=public")
    }

    @Test func everyParameterIsRead() throws {
        let location = try PostgresLocation(
            url: "postgres://k%40ura@[::1]:6000/my%20db?schema=Zoo%20Animals&sslmode=verify-full&sslrootcert=/ca.pem"
                + "&connect_timeout=3&application_name=loader",
            environment: environment)
        #expect(location.user == "k@ura")
        #expect(location.host == "::1")
        #expect(location.port == 6000)
        #expect(location.database == "my db")
        #expect(location.schema == "Zoo Animals")
        #expect(location.tlsMode == .verifyFull)
        #expect(location.rootCertificates == "/ca.pem")
        #expect(location.connectTimeout == 3)
        #expect(location.applicationName == "loader")
        #expect(location.quotedSchema == "\"Zoo Animals\"")
        #expect(location.description == "postgres://k%40ura@[::1]:6000/my%20db?schema=Zoo%20Animals")
        let socket = try PostgresLocation(url: "postgres://kura@/app?host=/var/run/postgresql", environment: environment)
        #expect(socket.socketFolder == "/var/run/postgresql")
        #expect(socket.host == nil)
        #expect(socket.passwordFileHost == "localhost")
    }

    @Test func aPasswordInTheURLIsRefusedWithoutShowingIt() {
        for url in ["postgres://kura:s3cret@host/db", "postgres://kura@host/db?password=s3cret"] {
            let error = #expect(throws: KuraError.self) { try PostgresLocation(url: url, environment: environment) }
            #expect(error?.code == .store(.openFailed))
            #expect(
                error?.message
                    == "a realm's URL carries no password (it would show in logs and process lists): put it in PGPASSWORD or ~/.pgpass")
            #expect(error?.description.contains("s3cret") == false)
        }
    }

    @Test func badURLsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("postgres://host/db?sslmode=always",
             "'postgres://host/db?sslmode=always' is no PostgreSQL realm URL: sslmode 'always' is none of disable, allow, prefer, require, verify-ca, verify-full"),
            ("postgres://host/db?schema=x&colour=red",
             "'postgres://host/db?schema=x&colour=red' is no PostgreSQL realm URL: unknown parameter 'colour' (known: schema, sslmode, sslrootcert, connect_timeout, application_name, host, user, port, dbname)"),
            ("postgres://host:70000/db", "'postgres://host:70000/db' is no PostgreSQL realm URL: the port 70000 is not between 1 and 65535"),
            ("postgres://host/db?schema=", "'postgres://host/db?schema=' is no PostgreSQL realm URL: the schema name must have 1 to 63 bytes"),
            ("postgres://host/a/b", "'postgres://host/a/b' is no PostgreSQL realm URL: the database 'a/b' holds a '/'"),
            ("postgres://host/db?connect_timeout=0",
             "'postgres://host/db?connect_timeout=0' is no PostgreSQL realm URL: connect_timeout '0' is no whole number of seconds above 0"),
        ]
        for (url, message) in cases {
            let error = #expect(throws: KuraError.self) { try PostgresLocation(url: url, environment: environment) }
            #expect(error?.message == message)
            #expect(error?.code == .store(.openFailed))
        }
    }

    @Test func thePasswordComesFromPGPASSWORDThenThePasswordFile() throws {
        let folder = try Fixtures.temporaryDirectory()
        let file = folder.appendingPathComponent("pgpass").path
        try """
            # comment:*:*:*:nope
            other:5432:*:kura:wrong-host
            db.example.com:5432:app:kura:first\\:colon\\\\slash
            *:*:*:kura:fallback
            """.write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let location = try PostgresLocation(url: "postgres://kura@db.example.com/app", environment: environment)
        let other = try PostgresLocation(url: "postgres://kura@db.example.com/elsewhere", environment: environment)
        #expect(PostgresPassword.find(for: location, environment: ["PGPASSFILE": file]) == "first:colon\\slash")
        #expect(PostgresPassword.find(for: other, environment: ["PGPASSFILE": file]) == "fallback")
        #expect(PostgresPassword.find(for: location, environment: ["PGPASSFILE": file, "PGPASSWORD": "env"]) == "env")
        #expect(PostgresPassword.find(for: location, environment: ["HOME": folder.path]) == nil)
        // Others may read it: ignored, as libpq ignores it.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(PostgresPassword.find(for: location, environment: ["PGPASSFILE": file]) == nil)
    }

    @Test func copyTextKeepsEveryValueExact() {
        var text = PostgresCopyText()
        text.append(.integer(-42))
        text.append(.null)
        text.append(.text("tab\there\\ and\nnew\rline"))
        text.append(.blob(Data([0, 0x5c, 0xff])))
        text.append(.real(-0.0))
        text.endRow()
        text.append(.real(.infinity))
        text.append(.real(.nan))
        text.append(.text(""))
        text.endRow()
        let written = String(decoding: text.buffer.readableBytesView, as: UTF8.self)
        #expect(written == "-42\t\\N\ttab\\there\\\\ and\\nnew\\rline\t\\\\x005cff\t-0.0\nInfinity\tNaN\t\n")
    }
}
