extension KuraError {
    /// Whether the realm or the disk under it failed, not the value being written: an I/O error,
    /// a full disk, a file that cannot be opened, a lock, a corrupt realm or an exhausted counter.
    /// The engine's refusals of a value (a constraint, a value too big or of the wrong type) are the
    /// value's; errors of other domains than the store's are never the realm's.
    public var isStoreFailure: Bool {
        switch code {
        case .store(.openFailed), .store(.corruptRealm), .store(.counterExhausted):
            return true
        case .store(.database):
            // A refusal the engine reported for one statement (with its error underneath) is the
            // value's: SQLite's CONSTRAINT, TOOBIG, MISMATCH and RANGE, by the low byte of the code
            // (PostgreSQL's classes of refusal are given these codes).
            // One met by Kura's own bulk statements, which carry no underlying error, stays the realm's.
            guard let engineCode, underlying != nil else { return true }
            return ![19, 18, 20, 25].contains(engineCode & 0xff)
        default:
            return false
        }
    }

    /// Whether the storage refused because another connection held the realm (SQLite's BUSY or LOCKED).
    public var isBusy: Bool {
        guard code == .store(.database), let engineCode else { return false }
        return engineCode & 0xff == 5 || engineCode & 0xff == 6
    }

    /// Whether a Swift migration block may resolve the problem by changing the data before the
    /// migration checks it (setting values, removing duplicates).
    var isResolvableByBlock: Bool {
        switch code {
        case .migration(.duplicateKeys), .migration(.missingValues), .migration(.typeChanged): true
        default: false
        }
    }

    /// The query error placed at `column` of `part` when it has no place of its own (an error of the
    /// query as a whole, such as too many tables, found while compiling one part of it).
    func placed(in part: QueryPart, column: Int) -> KuraError {
        guard position == nil else { return self }
        var placed = self
        placed.file = part.rawValue
        placed.position = TextPosition(line: 1, column: column)
        return placed
    }
}
