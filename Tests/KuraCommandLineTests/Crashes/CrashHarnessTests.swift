import Foundation
import KuraTestSupport
import Testing

/// The SIGKILL crash harness, short form: `kura import` (batched and atomic), `copy` (into an empty,
/// a missing and a populated realm, whole and a selection) and `migrate` killed at random moments;
/// every realm left must pass `kura check`, open, hold no duplicate keys and be exactly a committed
/// state. `Scripts/crash-harness.sh` runs the long form with release builds.
@Suite struct CrashHarnessTests {
    static let kinds = ["import-skip", "import-stop", "copy-whole", "copy-new", "copy-update", "copy-subset", "migrate"]

    @Test func killedJobsLeaveOnlyCommittedStates() throws {
        let trials = Self.kinds.count * 6
        let result = try Fixtures.run(
            Fixtures.executable("kura-crash"),
            ["--trials", String(trials), "--size", "600", "--batch-size", "60", "--kura", Fixtures.executable("kura")])
        // The report belongs in the CI log: where the kills landed, and `N passed, N failed`.
        print(result.stdout, result.stderr, separator: "")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "\(trials) passed, 0 failed")
        for kind in Self.kinds {
            #expect(lines.contains { $0.hasPrefix("\(kind): 6 trials ") }, "no report line for \(kind)")
        }
        // The kills must really interrupt work, not only find finished jobs.
        let midJob = lines.compactMap { line -> Int? in
            guard let range = line.range(of: " killed mid-job") else { return nil }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "")
        }
        #expect(midJob.count == Self.kinds.count)
        #expect(midJob.reduce(0, +) >= Self.kinds.count, "too few kills landed before a commit: \(midJob)")
    }

    @Test func usageErrorsAreRefused() throws {
        let harness = Fixtures.executable("kura-crash")
        let unknown = try Fixtures.run(harness, ["--jobs", "import,delete"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("kura-crash: unknown job kind 'delete'\nusage: kura-crash "))
        let noKura = try Fixtures.run(harness, ["--kura", "/nonexistent/kura", "--trials", "1"])
        #expect(noKura.status == 70)
        #expect(noKura.stderr == "kura-crash: no kura executable at /nonexistent/kura: build it, or give --kura PATH\n")
    }
}
