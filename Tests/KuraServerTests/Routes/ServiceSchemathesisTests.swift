import Foundation
import KuraTestSupport
import Testing

/// Whether schemathesis and openapi-spec-validator (Python) are here. Without them the test says
/// so: a warning, or, under `KURA_SCHEMATHESIS_TESTS=required` (which `.ci/run` sets, having
/// installed both), a failure, so that CI never skips it.
enum Schemathesis {
    static let isRequired = ProcessInfo.processInfo.environment["KURA_SCHEMATHESIS_TESTS"] == "required"

    /// What is missing, or nil when nothing is.
    static let missing: String? = {
        let found = try? Fixtures.run("/usr/bin/env", ["python3", "-c", "import schemathesis, openapi_spec_validator"])
        return found?.status == 0 ? nil : "python3 cannot import schemathesis and openapi_spec_validator (pip install schemathesis openapi-spec-validator)"
    }()

    /// Whether the test can run. When it cannot, records why: an error under
    /// `KURA_SCHEMATHESIS_TESTS=required`, a warning otherwise.
    static func isReady() -> Bool {
        guard let missing else { return true }
        if isRequired {
            Issue.record("KURA_SCHEMATHESIS_TESTS=required, but schemathesis cannot run: \(missing)")
        } else {
            Issue.record("the schemathesis test did not run: \(missing) (KURA_SCHEMATHESIS_TESTS=required makes this an error)", severity: .warning)
        }
        return false
    }

    /// Runs the schemathesis command line with `arguments`.
    static func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let launcher = "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; sys.exit(schemathesis())"
        return try Fixtures.run("/usr/bin/env", ["python3", "-c", launcher] + arguments, currentDirectory: folder)
    }
}

/// schemathesis, a tester no one here wrote, against the real `kura serve` over a realm with the
/// samples' objects, with an admin token and every check on: the server's answers match
/// `GET /openapi.json` (statuses, content types, headers, bodies, 405 for methods a path lacks),
/// and every operation the description lists is reached.
@Suite struct ServiceSchemathesisTests {
    /// Test cases per operation: enough for each phase to reach every operation, few enough to
    /// keep the run short on a small machine.
    static let examplesPerOperation = 8

    @Test func theServerAnswersAsItsDescriptionSays() throws {
        guard Schemathesis.isReady() else { return }
        let fixture = try ServiceFixture()
        for (sample, type) in [("dogs.yaml", nil), ("friends.json", nil)] as [(String, String?)] {
            let path = Fixtures.packageRoot.appendingPathComponent("Samples/\(sample)").path
            let imported = try Fixtures.run(fixture.kura, ["import", fixture.path("zoo.realm"), path] + (type.map { ["--type", $0] } ?? []))
            try #require(imported.status == 0, "\(imported.stderr)")
        }
        // A second realm, empty, for copies to go to.
        try #require(try Fixtures.run(fixture.kura, ["init", fixture.path("spare.realm"), "--schema", Fixtures.samplesSchemaPath]).status == 0)
        let made = try Fixtures.run(fixture.kura, ["token", "new", "tester", "--scope", "admin"])
        let lines = made.stdout.split(separator: "\n").map(String.init)
        let token = try #require(lines.first)
        try fixture.writeConfig("server:\n  tokens:\n" + lines.dropFirst().map { "    \($0)\n" }.joined())
        let server = try fixture.serve(["zoo.realm", "spare.realm"])
        let base = "http://127.0.0.1:\(server.port)"

        // The description the token sees is valid OpenAPI 3.1.
        let described = try server.request("/openapi.json", headers: ["Authorization": "Bearer \(token)"])
        #expect(described.status == 200)
        let documentPath = fixture.path("openapi.json")
        try described.body.write(to: URL(fileURLWithPath: documentPath))
        let validated = try Fixtures.run("/usr/bin/env", ["python3", "-m", "openapi_spec_validator", "--schema", "3.1", documentPath])
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: described.body) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: Set<String> = []
        for (path, methods) in paths { for method in methods.keys { operations.insert("\(method.uppercased()) \(path)") } }
        #expect(operations.contains("GET /v1/realms/zoo/objects/Person/{key}"))
        #expect(operations.contains("GET /v1/realms/{realm}/changes"))

        // Two runs: the examples and the boundary cases first, then random requests. In one run,
        // an operation whose examples and boundary cases are all left out is never fuzzed either.
        let settings = Fixtures.packageRoot.appendingPathComponent("Tests/Schemathesis/schemathesis.toml").path
        var reached: Set<String> = []
        for phases in ["examples,coverage", "fuzzing"] {
            let report = fixture.path("schemathesis-\(phases).xml")
            let run = try Schemathesis.run([
                "--config-file", settings, "run", base + "/openapi.json", "--header", "Authorization: Bearer \(token)", "--checks", "all",
                "--max-examples", String(Self.examplesPerOperation), "--seed", "1", "--workers", "1", "--no-shrink",
                // Hypothesis's health checks judge the generation, not the server; on a busy machine they skip operations.
                "--suppress-health-check", "all", "--phases", phases, "--request-timeout", "20",
                "--report", "junit", "--report-junit-path", report, "--output-truncate", "false",
            ], in: fixture.folder)
            #expect(run.status == 0, "schemathesis (\(phases)) found failures:\n\(run.stdout)\(run.stderr)")
            let results = try SchemathesisReport(junitPath: report)
            #expect(results.failures.isEmpty, "\(results.failures.joined(separator: "\n"))")
            reached.formUnion(results.operationsTested)
        }
        // schemathesis leaves out the operation that serves the description it reads.
        let missing = operations.subtracting(["GET /openapi.json"]).subtracting(reached)
        #expect(missing.isEmpty, "operations schemathesis did not reach: \(missing.sorted())")
        #expect(server.stop() == 0)
    }
}
