import Foundation

/// One trial: a job started from its plan's files, killed with SIGKILL at a seeded moment, and the
/// realm it leaves judged against the plan's committed states.
struct Trial {
    /// How a trial came out.
    enum Result {
        /// The realm is the committed state `state` of the plan; `killed` tells whether SIGKILL ended
        /// the job (otherwise it had exited, successfully, before the kill).
        case passed(state: Int, killed: Bool, walBytes: Int)
        case failed(String)
    }

    let number: Int
    let plan: JobPlan
    /// The kill moment as a share of 1.2 x the job's measured duration, in [0, 1).
    let share: Double
    let folder: String

    /// Seconds after the start at which the job is killed.
    var delay: Double { share * 1.2 * plan.duration }

    /// Runs the trial; the folder holds the realm, the job's output and a snapshot of the files as
    /// the kill left them.
    func run(kura: String) -> Result {
        do {
            let files = FileManager.default
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (from, name) in plan.startingFiles {
                for suffix in ["", "-wal"] where files.fileExists(atPath: from + suffix) {
                    try files.copyItem(atPath: from + suffix, toPath: "\(folder)/\(name)\(suffix)")
                }
            }
            let process = KillableProcess(
                program: kura, arguments: plan.arguments(in: folder),
                outputPath: "\(folder)/kura.out", errorPath: "\(folder)/kura.err")
            let outcome = try process.run(killAfter: delay)
            let killed: Bool
            switch outcome.ending {
            case .signalled(SIGKILL): killed = true
            case .exited(0): killed = false
            case .exited(let status): return .failed("kura exited with status \(status) before the kill: \(process.errorText)")
            case .signalled(let signal): return .failed("kura died of signal \(signal) before the kill: \(process.errorText)")
            }
            return try judge(killed: killed)
        } catch {
            return .failed("\(error)")
        }
    }

    private func judge(killed: Bool) throws -> Result {
        if !FileManager.default.fileExists(atPath: "\(folder)/\(plan.realm)"), plan.states[0].schema == nil {
            return killed ? .passed(state: 0, killed: true, walBytes: 0) : .failed("kura exited successfully but left no realm")
        }
        let inspection = try RealmInspection(path: "\(folder)/\(plan.realm)", snapshot: "\(folder)/as-killed")
        if !inspection.problems.isEmpty {
            let count = inspection.problems.count
            return .failed("kura check found \(count) problem\(count == 1 ? "" : "s"): \(inspection.problems.prefix(3).joined(separator: "; "))")
        }
        if !inspection.duplicateKeys.isEmpty {
            return .failed("duplicate primary keys: \(inspection.duplicateKeys.prefix(5).joined(separator: ", "))")
        }
        guard let state = plan.stateIndex(of: inspection) else {
            let states = plan.states.map(\.label).joined(separator: ", ")
            return .failed("the realm (schema version \(inspection.schema.version), \(inspection.summary)) is none of the committed states (\(states))")
        }
        if !killed && state != plan.states.count - 1 {
            return .failed("kura exited successfully but the realm is '\(plan.states[state].label)', not the final state")
        }
        for (name, export) in plan.untouched {
            let other = try RealmInspection(path: "\(folder)/\(name)", snapshot: "\(folder)/as-killed")
            if !other.problems.isEmpty || other.export != export {
                return .failed("the \(name) realm changed: \((other.problems.prefix(2) + [other.summary]).joined(separator: "; "))")
            }
        }
        return .passed(state: state, killed: killed, walBytes: inspection.walBytes)
    }
}
