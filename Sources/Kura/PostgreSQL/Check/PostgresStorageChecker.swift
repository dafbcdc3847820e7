/// Checks a realm in a PostgreSQL schema: that PostgreSQL holds its indexes valid, then Kura's
/// invariants (`PostgresLayoutCheck`, `PostgresValueCheck`, `PostgresLinkCheck`,
/// `PostgresEmbeddedCheck`, `PostgresContainerCheck`, `PostgresIndexCheck`, `PostgresKeyCheck`), all
/// in one repeatable-read, read-only transaction on a connection of its own, so that the report
/// describes one state of the realm while others write to it, and nothing is written.
struct PostgresStorageChecker: StorageChecking {
    /// The realm's URL.
    let url: String

    func check(listedPerCheck: Int) throws(KuraError) -> StorageCheckResult {
        let location = try PostgresLocation(url: url)
        // A server that cannot be reached or refuses the user throws the error opening a realm throws.
        let session = try PostgresSession(location)
        defer { session.close() }
        let outcome = Result(catching: { () throws(KuraError) -> StorageCheckResult in
            try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // Ended by a rollback: nothing was written.
            defer { try? session.execute("ROLLBACK") }
            guard try PostgresSchemaInstaller.isInstalled(session) else {
                throw KuraError.check(
                    .notARealm, "'\(location.description)' is not a realm: its schema '\(location.schema)' holds no Kura tables")
            }
            return check(PostgresCheckQueries(session: session), listedPerCheck: listedPerCheck)
        })
        switch outcome {
        case .success(let result): return result
        case .failure(let error) where error.code.domain == .check: throw error
        case .failure(let error): throw KuraError.check(.unreadable, "cannot read '\(location.description)': \(error.message)")
        }
    }

    private func check(_ queries: PostgresCheckQueries, listedPerCheck: Int) -> StorageCheckResult {
        let findings = FindingCollector(limit: listedPerCheck, describing: Self.describe)
        let indexes = PostgresIndexCheck(queries: queries, findings: findings)
        indexes.checkIntegrity()
        var layout: CheckedLayout?
        findings.attempt(.init(table: "#meta"), "#meta") { layout = try PostgresLayoutCheck(queries: queries, findings: findings).run() }
        guard let layout else { return result(findings, layout: nil, objects: 0) }
        PostgresValueCheck(queries: queries, findings: findings, layout: layout).run()
        PostgresLinkCheck(queries: queries, findings: findings, layout: layout).run()
        PostgresEmbeddedCheck(queries: queries, findings: findings, layout: layout).run()
        PostgresContainerCheck(queries: queries, findings: findings, layout: layout).run()
        indexes.run(layout)
        let objects = PostgresKeyCheck(queries: queries, findings: findings, layout: layout).run()
        return result(findings, layout: layout, objects: objects)
    }

    private func result(_ findings: FindingCollector, layout: CheckedLayout?, objects: Int) -> StorageCheckResult {
        let (listed, total) = findings.finish()
        return StorageCheckResult(findings: listed, problemCount: total, objectCount: objects, schema: layout?.schema)
    }

    /// An error as one line: the server's SQLSTATE and message for a statement that failed.
    static func describe(_ error: any Error) -> String {
        (error as? KuraError)?.message ?? "\(error)"
    }
}
