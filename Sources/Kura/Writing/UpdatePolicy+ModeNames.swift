extension UpdatePolicy {
    /// The names of the modes (`insert`, `update`, `modified`, `replace`), in the order messages list them.
    public static let modeNames: [String] = allCases.map(\.rawValue)

    /// The policy of the mode `name` names, as `kura import --mode`, config.yaml's `mode` and the
    /// server's `mode` give it; `nil` when it names none.
    public init?(modeName name: String) {
        self.init(rawValue: name)
    }
}
