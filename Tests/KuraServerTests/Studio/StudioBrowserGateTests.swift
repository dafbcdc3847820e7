import Foundation
import KuraTestSupport
import Testing

/// The Kura Studio walks never pass unseen when they cannot run: this test binary, run again on one
/// walk with a chromium that is not there, fails under `KURA_BROWSER_TESTS=required` and warns
/// without it, naming what is missing.
@Suite struct StudioBrowserGateTests {
    static let missingBrowser = "/nonexistent/chromium"

    /// The walk through keys of every kind, in a child run of this test binary.
    func runWalk(required: Bool) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["KURA_CHROMIUM"] = Self.missingBrowser
        environment["KURA_BROWSER_TESTS"] = required ? "required" : nil
        environment["NO_COLOR"] = "1"
        let output = try Fixtures.temporaryDirectory().appendingPathComponent("walk.out")
        try Data().write(to: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "StudioBrowserTests/linksAndBacklinksFollowKeysOfEveryKind"]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
    }

    static let missing = "no chromium at \(missingBrowser) (apt-get install chromium, or set KURA_CHROMIUM to its path)"

    @Test func aMissingBrowserFailsTheWalksWhenTheyAreRequired() throws {
        let run = try runWalk(required: true)
        #expect(run.status != 0, "\(run.output)")
        #expect(run.output.contains("KURA_BROWSER_TESTS=required, but the Kura Studio browser walks cannot run: \(Self.missing)"), "\(run.output)")
    }

    @Test func aMissingBrowserIsAWarningOtherwise() throws {
        let run = try runWalk(required: false)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains(
            "the Kura Studio browser walks did not run: \(Self.missing) (KURA_BROWSER_TESTS=required makes this an error)"), "\(run.output)")
        #expect(run.output.contains("warning"), "\(run.output)")
    }
}
