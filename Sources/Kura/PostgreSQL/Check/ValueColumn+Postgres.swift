import Foundation

/// How PostgreSQL's checks read a value column, where every user text is `bytea` holding UTF-8
/// and a mixed value is `bytea` whose class its tag tells (`PostgresLayout`).
extension ValueColumn {
    /// `label: object 3` with ` at [2]` or ` at key "k"`, for a row whose first cells are `whereColumns`.
    func subject(cells row: [StoredCell]) -> (place: CheckFinding.Place, text: String) {
        let key: String? = if case .blob(let bytes) = row[2] { Self.keyText(bytes) } else { nil }
        return subject(owner: row[0], position: row[1], key: key)
    }

    /// A map key's bytes as a finding shows them: the text, or what its bytes are when they are not UTF-8.
    static func keyText(_ bytes: Data) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self)
    }

    /// A value as findings show it: the bytes of a text (`kind` stores texts or numbers as text) as
    /// `text "abc"`, or `3 bytes that are not UTF-8`; other bytes as `a blob of 3 bytes`.
    static func describe(postgres value: StoredCell, textual: Bool) -> String {
        guard case .blob(let bytes) = value, textual else { return describe(value) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return notUTF8(bytes) }
        return describe(.text(text))
    }

    /// Bytes that ought to be a text: `3 bytes that are not UTF-8`.
    static func notUTF8(_ bytes: Data) -> String {
        "\(Counted(bytes.count, "byte")) \(bytes.count == 1 ? "that is" : "that are") not UTF-8"
    }

    /// The SQL of a `bytea` holding an integer as decimal text (a mixed value's container or object
    /// id), as `bigint`; null when it holds anything else.
    static func mixedInteger(_ value: String) -> String {
        "(CASE WHEN encode(\(value), 'escape') ~ '^-?[0-9]{1,18}$' THEN encode(\(value), 'escape')::bigint END)"
    }

    /// The SQL condition that a `bytea` holds only ASCII bytes other than NUL, and so is UTF-8;
    /// the others are read and checked one by one.
    static func isPlainText(_ value: String) -> String {
        "encode(\(value), 'escape') !~ '\\\\[0-3][0-7][0-7]'"
    }
}
