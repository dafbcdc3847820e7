extension Schema: CustomStringConvertible {
    /// The schema in the YAML schema format, the text `kura schema` prints: `print(realm.schema)` shows it.
    public var description: String { yaml }
}
