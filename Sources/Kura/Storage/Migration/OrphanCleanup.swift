/// Finds what a migration leaves that nothing holds any more, once the new schema is stored: the
/// caller deletes it, with the usual effects.
package protocol OrphanCleanup {
    /// The ids of the objects of the embedded `type` that no property of the stored schema links to.
    func orphanedEmbeddedIds(of type: String) throws -> [Int64]

    /// Deletes the nested mixed containers (lists and maps inside mixed values) that no stored value
    /// holds, and returns how many it deleted: one level per call, as a container freed frees the
    /// ones nested in it.
    func deleteUnreferencedMixedContainers() throws -> Int
}
