import Foundation
import Kura

/// Prepares the job plans once per run: writes the schemas and inputs, builds the realms the trials
/// start from, and runs each job uninterrupted (and the batched import once per batch count) to
/// record the states a kill may leave and how long each job takes.
final class JobWorkshop {
    let kura: String
    let folder: String
    let size: Int
    let batch: Int

    init(kura: String, folder: String, size: Int, batch: Int) throws {
        self.kura = kura
        self.folder = folder
        self.size = size
        self.batch = batch
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write("people.yaml", CrashData.peopleSchema)
        try write("entries-v1.yaml", CrashData.entriesV1)
        try write("entries-v2.yaml", CrashData.entriesV2)
    }

    /// The plan of one kind of job.
    func plan(_ kind: JobKind) throws -> JobPlan {
        switch kind {
        case .importSkip: try batchedImport()
        case .importStop: try atomicImport()
        case .copyWhole: try copy(.copyWhole, into: try emptyPeopleRealm(), options: [])
        case .copyNew: try copy(.copyNew, into: nil, options: [])
        case .copyUpdate: try copy(.copyUpdate, into: try populatedPeopleRealm(), options: ["--mode", "update"])
        case .copySubset:
            try copy(.copySubset, into: try populatedPeopleRealm(),
                     options: ["--type", "Person", "--where", "ANY dogs.age >= 14 OR name ENDSWITH '7'", "--mode", "modified"])
        case .migrate: try migration()
        }
    }

    // MARK: The jobs

    /// Every state after k batches is the import of the input's first k x batch documents, made with
    /// the same command into a fresh realm.
    private func batchedImport() throws -> JobPlan {
        let lines = CrashData.people(count: size, seed: 1)
        let input = try write("people.jsonl", lines.joined(separator: "\n") + "\n")
        let empty = try emptyPeopleRealm()
        let batches = (size + batch - 1) / batch
        let flags = ["--on-error", "skip", "--batch-size", String(batch)]
        var states = [try state("0 of \(batches) batches", at: empty)]
        for count in 1..<batches {
            let prefix = try write("people-\(count).jsonl", lines.prefix(count * batch).joined(separator: "\n") + "\n")
            let realm = try copyRealm(empty, to: "import-skip-\(count).realm")
            try runKura(["import", realm, prefix, "--rejects", "\(folder)/rejects-\(count).jsonl"] + flags)
            states.append(try state("\(count) of \(batches) batches", at: realm))
        }
        return try measured(
            JobPlan(
                kind: .importSkip, startingFiles: [(empty, "realm")],
                arguments: ["import", "{}/realm", input, "--rejects", "{}/rejects.jsonl"] + flags,
                realm: "realm", states: states, duration: 0),
            final: "\(batches) of \(batches) batches")
    }

    /// The second half of the people imported in one transaction into a realm holding the first half.
    private func atomicImport() throws -> JobPlan {
        let half = size / 2
        let lines = CrashData.people(count: size, seed: 2, fileBreak: half)
        let first = try write("stop-first.jsonl", lines.prefix(half).joined(separator: "\n") + "\n")
        let second = try write("stop-second.jsonl", lines.dropFirst(half).joined(separator: "\n") + "\n")
        let base = try copyRealm(try emptyPeopleRealm(), to: "import-stop-base.realm")
        try runKura(["import", base, first])
        return try measured(
            JobPlan(
                kind: .importStop, startingFiles: [(base, "realm")], arguments: ["import", "{}/realm", second],
                realm: "realm", states: [try state("before", at: base)], duration: 0),
            final: "imported")
    }

    /// A copy into `destination`, or (when it is `nil`) into a realm the copy creates.
    private func copy(_ kind: JobKind, into destination: String?, options: [String]) throws -> JobPlan {
        let source = try sourceRealm()
        return try measured(
            JobPlan(
                kind: kind, startingFiles: [(source, "source")] + (destination.map { [($0, "realm")] } ?? []),
                arguments: ["copy", "{}/source", "{}/realm"] + options, realm: "realm",
                states: [try destination.map { try state("before", at: $0) } ?? .absent],
                untouched: [("source", try inspect(source).export)], duration: 0),
            final: "copied")
    }

    private func migration() throws -> JobPlan {
        let input = try write("entries.jsonl", CrashData.entries(count: size * 8).joined(separator: "\n") + "\n")
        let base = "\(folder)/entries-v1.realm"
        try runKura(["init", base, "--schema", "\(folder)/entries-v1.yaml"])
        try runKura(["import", base, input, "--type", "Entry"])
        return try measured(
            JobPlan(
                kind: .migrate, startingFiles: [(base, "realm")],
                arguments: ["migrate", "{}/realm", "--schema", "\(folder)/entries-v2.yaml"], realm: "realm",
                states: [try state("version 1", at: base)], duration: 0),
            final: "version 2")
    }

    /// Completes `plan` by running its job uninterrupted three times, each from fresh starting files:
    /// the median time is its duration (one run on this busy machine can be off by half), the
    /// realm left is its final state, and all three runs must leave that same state.
    private func measured(_ plan: JobPlan, final label: String) throws -> JobPlan {
        var plan = plan
        var times: [Double] = []
        var final: JobPlan.State?
        for run in 1...3 {
            let runFolder = "\(folder)/\(plan.kind.rawValue)-run-\(run)"
            try FileManager.default.createDirectory(atPath: runFolder, withIntermediateDirectories: true)
            for (from, name) in plan.startingFiles { _ = try copyRealm(from, to: "\(plan.kind.rawValue)-run-\(run)/\(name)") }
            times.append(try runKura(plan.arguments(in: runFolder)))
            let state = try self.state(label, at: "\(runFolder)/\(plan.realm)")
            if let final, final.schema != state.schema || final.export != state.export {
                throw HarnessError("\(plan.kind.rawValue): two uninterrupted runs left different realms (\(folder)/\(plan.kind.rawValue)-run-*)")
            }
            final = state
        }
        plan.duration = times.sorted()[1]
        if let final { plan.states.append(final) }
        return plan
    }

    // MARK: Realms shared by the jobs

    private var built: [String: String] = [:]

    /// A realm made once and reused: `make` builds it at the path it is given.
    private func shared(_ name: String, _ make: (String) throws -> Void) throws -> String {
        if let path = built[name] { return path }
        let path = "\(folder)/\(name)"
        try make(path)
        built[name] = path
        return path
    }

    private func emptyPeopleRealm() throws -> String {
        try shared("people-empty.realm") { try runKura(["init", $0, "--schema", "\(folder)/people.yaml"]) }
    }

    /// The realm copies read from: every person of the batched import's input.
    private func sourceRealm() throws -> String {
        try shared("people-source.realm") { path in
            let input = try write("source.jsonl", CrashData.people(count: size, seed: 1).joined(separator: "\n") + "\n")
            try runKura(["init", path, "--schema", "\(folder)/people.yaml"])
            try runKura(["import", path, input])
        }
    }

    /// A destination that already holds people, with keys the source's people also have.
    private func populatedPeopleRealm() throws -> String {
        try shared("people-populated.realm") { path in
            let input = try write("populated.jsonl", CrashData.people(count: size / 2, seed: 3).joined(separator: "\n") + "\n")
            try runKura(["init", path, "--schema", "\(folder)/people.yaml"])
            try runKura(["import", path, input])
        }
    }

    // MARK: Helpers

    @discardableResult
    private func write(_ name: String, _ text: String) throws -> String {
        let path = "\(folder)/\(name)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func copyRealm(_ path: String, to name: String) throws -> String {
        let target = "\(folder)/\(name)"
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try? FileManager.default.removeItem(atPath: target + suffix)
            try FileManager.default.copyItem(atPath: path + suffix, toPath: target + suffix)
        }
        return target
    }

    /// Runs `kura` to its end; it must succeed. Returns how long it took.
    @discardableResult
    private func runKura(_ arguments: [String]) throws -> Double {
        let process = KillableProcess(
            program: kura, arguments: arguments, outputPath: "\(folder)/kura.out", errorPath: "\(folder)/kura.err")
        let outcome = try process.run()
        guard outcome.ending == .exited(0) else {
            throw HarnessError("kura \(arguments.joined(separator: " ")) ended with \(outcome.ending): \(process.errorText)")
        }
        return outcome.seconds
    }

    /// A reference realm must be healthy itself, or no trial could be judged against it.
    private func inspect(_ path: String) throws -> RealmInspection {
        let inspection = try RealmInspection(path: path)
        guard inspection.problems.isEmpty, inspection.duplicateKeys.isEmpty else {
            throw HarnessError("the reference realm \(path) is not healthy: \((inspection.problems + inspection.duplicateKeys).prefix(3))")
        }
        return inspection
    }

    private func state(_ label: String, at path: String) throws -> JobPlan.State {
        let inspection = try inspect(path)
        return JobPlan.State(label: label, schema: inspection.schema, export: inspection.export)
    }
}
