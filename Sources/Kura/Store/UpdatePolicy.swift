/// What `create` does when an object with the same primary key exists (the import modes).
public enum UpdatePolicy: String, Sendable, CaseIterable {
    /// Insert only: an existing primary key is an error (import mode `insert`).
    case error = "insert"
    /// Set the given properties and leave the rest (import mode `update`).
    case all = "update"
    /// Like `all`, but write only the values that differ (import mode `modified`).
    case modified
    /// Make the object exactly the given value: properties not given are reset (import mode `replace`).
    case replace
}
