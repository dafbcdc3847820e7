import Foundation
import KuraTestSupport
import Testing
@testable import Kura

/// A seeded mutation fuzzer over the JSON and YAML readers and the mapper (see `FuzzHarness` for
/// the invariants). A fixed budget runs with the suite; a longer run is by hand:
///
///     KURA_FUZZ_ITERATIONS=2000000 KURA_FUZZ_SEED=7 swift test -c release -Xswiftc -enable-testing --filter FuzzTests
///
/// `KURA_FUZZ_START` skips to an iteration (with ITERATIONS=1, replays one input), and
/// `KURA_FUZZ_TRACE=FILE` writes each input to FILE before it runs, so a crash leaves it behind.
@Suite struct FuzzTests {
    static let defaultIterations = 3000
    static let defaultSeed: UInt64 = 0x4B55_5241

    @Test func mutatedDocumentsGiveCleanErrorsOrRoundTrip() throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = environment["KURA_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? Self.defaultIterations
        let seed = environment["KURA_FUZZ_SEED"].flatMap { UInt64($0) } ?? Self.defaultSeed
        let start = environment["KURA_FUZZ_START"].flatMap { Int($0) } ?? 0
        let trace = environment["KURA_FUZZ_TRACE"]

        let seeds = try FuzzCorpus.seeds()
        let mutator = FuzzMutator(corpus: seeds.map(\.bytes))
        let harness = FuzzHarness()
        // The unmutated corpus must pass too, and must reach the mapper and the writers.
        for (index, entry) in seeds.enumerated() {
            harness.check(entry.bytes, schema: entry.schema, type: entry.type, iteration: -1 - index, chunk: 3)
        }
        #expect(harness.findings.isEmpty, "\(harness.findings.prefix(3))")
        #expect(harness.counts.roundTrips > 50)

        let clock = ContinuousClock()
        let began = clock.now
        var slowest = (time: Duration.zero, iteration: 0)
        for iteration in start..<(start + iterations) {
            var rng = SplitMix64(seed: seed, iteration: iteration)
            let base = seeds[rng.below(seeds.count)]
            let input = mutator.mutate(base.bytes, using: &rng)
            let chunk = 1 + rng.below(16)
            if let trace { _ = FileManager.default.createFile(atPath: trace, contents: Data(input)) }
            let before = clock.now
            harness.check(input, schema: base.schema, type: base.type, iteration: iteration, chunk: chunk)
            let took = clock.now - before
            if took > slowest.time { slowest = (took, iteration) }
            if iterations >= 100_000 && (iteration - start + 1) % 100_000 == 0 {
                print("fuzz: \(iteration - start + 1) inputs, \(clock.now - began), findings \(harness.findings.count)")
            }
        }
        let counts = harness.counts
        print(
            "fuzz: seed \(seed), iterations \(start)..<\(start + iterations) in \(clock.now - began): \(counts.inputs) inputs, "
                + "\(counts.documents) documents read, \(counts.readErrors) read errors, \(counts.mapped) mapped, "
                + "\(counts.mappingErrors) mapping errors, \(counts.roundTrips) round trips, \(counts.unwritable) unwritable; "
                + "slowest input \(slowest.time) (iteration \(slowest.iteration)); findings \(harness.findings.count)")
        for finding in harness.findings.prefix(10) { print("fuzz finding: \(finding)") }
        #expect(harness.findings.isEmpty, "\(harness.findings.prefix(3))")
        // Bounded work: no input may take long (generous, for a loaded machine and a debug build).
        #expect(slowest.time < .seconds(5))
        // Most mutants must still get past the readers, or the mapper is not being fuzzed.
        #expect(counts.mapped > counts.inputs / 10)
    }
}
