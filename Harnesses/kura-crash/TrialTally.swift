/// The counts of one kind of job over a run, printed at the end so a reader sees where the kills
/// landed: before the job committed (mid-job), after its last commit, or after it had exited.
struct TrialTally {
    let plan: JobPlan
    var trials = 0
    var failed = 0
    /// Killed while the realm was still in an earlier committed state.
    var midJob = 0
    /// Killed after the last commit, before the process ended.
    var afterCommit = 0
    /// The job had exited by itself before the kill.
    var finished = 0
    /// Trials whose realm had a non-empty `-wal` file when the kill left it.
    var walLeft = 0
    /// How many trials ended in each committed state.
    var statesSeen: [Int: Int] = [:]

    init(plan: JobPlan) { self.plan = plan }

    mutating func add(_ result: Trial.Result) {
        trials += 1
        switch result {
        case .failed:
            failed += 1
        case .passed(let state, let killed, let walBytes):
            statesSeen[state, default: 0] += 1
            if walBytes > 0 { walLeft += 1 }
            if !killed {
                finished += 1
            } else if state == plan.states.count - 1 {
                afterCommit += 1
            } else {
                midJob += 1
            }
        }
    }

    /// One line: `import-skip: 10 trials (uninterrupted job 0.31 s), 7 killed mid-job, …; states seen: …`.
    var line: String {
        let states = plan.states.indices.compactMap { index in statesSeen[index].map { "\(plan.states[index].label) \($0)" } }
            .joined(separator: ", ")
        let seconds = (plan.duration * 1000).rounded() / 1000
        return "\(plan.kind.rawValue): \(trials) trials (uninterrupted job \(seconds) s), \(midJob) killed mid-job (before the last commit), "
            + "\(afterCommit) killed after it, \(finished) exited before the kill, \(failed) failed; WAL left by \(walLeft); states seen: \(states.isEmpty ? "none" : states)"
    }
}
