import Foundation
import Kura

/// One kind of job, ready to be killed: the files each trial starts from, the command, the states
/// a kill may leave the realm in (every committed state, in commit order), and how long the job
/// takes when nothing stops it.
struct JobPlan {
    /// A state the realm may be found in after a kill: the schema it has and its whole export, or
    /// (with no schema) no realm file at all.
    struct State {
        var label: String
        var schema: Schema?
        var export: [UInt8]

        /// The state of a realm that does not exist yet.
        static let absent = State(label: "no file", schema: nil, export: [])
    }

    var kind: JobKind
    /// Files copied into each trial's folder (as `(from, name)`) before the job starts.
    var startingFiles: [(from: String, name: String)]
    /// The `kura` arguments, with `{}` standing for the trial's folder.
    var arguments: [String]
    /// The realm (by its name in the trial's folder) the job writes.
    var realm: String
    /// The committed states, first the one before the job, last the one after it.
    var states: [State]
    /// Realms the job reads but must leave as they were, by name, with their export.
    var untouched: [(name: String, export: [UInt8])] = []
    /// Seconds the job took, uninterrupted, from start to exit.
    var duration: Double

    /// The arguments for a trial in `folder`.
    func arguments(in folder: String) -> [String] {
        arguments.map { $0.replacingOccurrences(of: "{}", with: folder) }
    }

    /// Which committed state `inspection` is, if any.
    func stateIndex(of inspection: RealmInspection) -> Int? {
        states.firstIndex { $0.schema == inspection.schema && $0.export == inspection.export }
    }
}
