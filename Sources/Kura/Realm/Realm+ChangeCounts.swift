/// What the open write transaction has done so far.
extension Realm {
    /// The counts of the open write transaction, by type name.
    public func changeCounts() throws -> [String: ChangeCounts] {
        try requireTransaction().counts
    }
}
