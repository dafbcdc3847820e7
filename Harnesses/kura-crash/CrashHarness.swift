import Foundation

/// A run of the harness: prepares every job kind once, then runs the trials in turn, each killing
/// its job at a moment drawn from the run's seed and the trial's number.
struct CrashHarness {
    let options: HarnessOptions

    /// Runs the trials and prints the report; returns whether every trial passed.
    func run() throws -> Bool {
        guard FileManager.default.isExecutableFile(atPath: options.kura) else {
            throw HarnessError("no kura executable at \(options.kura): build it, or give --kura PATH")
        }
        let started = KillableProcess.now()
        let work = options.work ?? FileManager.default.temporaryDirectory.appendingPathComponent("kura-crash-\(UUID().uuidString)").path
        let kinds = options.jobs.map(\.rawValue).joined(separator: ",")
        print("kura-crash: seed \(options.seed), \(options.trials) trials over \(kinds), \(options.size) documents, batches of \(options.batch)")
        print("kura: \(options.kura); work folder: \(work)")
        fflush(nil)
        let workshop = try JobWorkshop(kura: options.kura, folder: "\(work)/prepared", size: options.size, batch: options.batch)
        let plans = try options.jobs.map(workshop.plan)
        var tallies = plans.map(TrialTally.init)
        let numbers = options.onlyTrial.map { [$0] } ?? Array(0..<options.trials)
        var failures = 0
        for number in numbers {
            let index = number % plans.count
            var random = SeededRandom(seed: options.seed, trial: number)
            let share = Double(random.next() >> 11) / Double(UInt64(1) << 53)
            let trial = Trial(number: number, plan: plans[index], share: share, folder: "\(work)/trials/\(number)-\(plans[index].kind.rawValue)")
            let result = trial.run(kura: options.kura)
            tallies[index].add(result)
            switch result {
            case .passed:
                if !options.keep { try? FileManager.default.removeItem(atPath: trial.folder) }
            case .failed(let reason):
                failures += 1
                let moment = String(format: "killed at %.3f s (%.0f%% of 1.2 x %.3f s)", trial.delay, share * 100, plans[index].duration)
                print("FAIL trial \(number) \(plans[index].kind.rawValue), \(moment): \(reason)")
                print("  files: \(trial.folder); replay: \(replayCommand(trial: number))")
                fflush(nil)
            }
        }
        for tally in tallies where tally.trials > 0 { print(tally.line) }
        print(String(format: "%d trials in %.1f s (seed %llu)", numbers.count, KillableProcess.now() - started, options.seed))
        print("\(numbers.count - failures) passed, \(failures) failed")
        fflush(nil)
        if failures == 0 && !options.keep && options.work == nil {
            try? FileManager.default.removeItem(atPath: work)
        }
        return failures == 0
    }

    private func replayCommand(trial: Int) -> String {
        let jobs = options.jobs.map(\.rawValue).joined(separator: ",")
        return "kura-crash --seed \(options.seed) --size \(options.size) --batch-size \(options.batch) --jobs \(jobs) --trial \(trial) --kura \(options.kura)"
    }
}
