extension Schema: CustomStringConvertible {
    /// The schema in the YAML schema format, without the last line's newline, so that
    /// `print(realm.schema)` writes the very text `kura schema` prints.
    public var description: String {
        let text = yaml
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
