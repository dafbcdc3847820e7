/// What `create` does when an object with the same primary key exists (the import modes).
public enum UpdatePolicy: String, Sendable, CaseIterable {
    /// Insert only: an existing primary key is an error (import mode `insert`).
    case error = "insert"
    /// Set the given properties and leave the rest (import mode `update`).
    case update
    /// Like `update`, but write only the values that differ (import mode `modified`).
    case modified
    /// Make the object exactly the given value: properties not given are reset (import mode `replace`).
    case replace

    /// Realm's name for ``update``, kept so that code written for Realm compiles, with a fix-it.
    ///
    /// Realm calls the policy that sets the given properties `.all`; Kura names it after its import
    /// mode, `update`.
    @available(*, deprecated, renamed: "update")
    public static var all: UpdatePolicy { .update }
}
