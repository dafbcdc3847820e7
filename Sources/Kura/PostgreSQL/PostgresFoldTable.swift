import Foundation

/// What `[c]`, `[d]` and `[cd]` make of each Unicode scalar outside ASCII, computed by Swift's own
/// folding (`StringOptions.fold`) so that `kura_fold` in PostgreSQL folds exactly as Kura does in
/// Swift: a realm stores the table in `"#fold"`, and the function maps each scalar of a text
/// through it (ASCII letters, which only `[c]` changes, it lowers itself).
enum PostgresFoldTable {
    /// The table's name in the realm's schema.
    static let table = TableLayout.quote("#fold")

    /// One scalar that folds to something else: the fold's kind (1 case, 2 diacritics, 3 both),
    /// the scalar and the UTF-8 bytes it folds to.
    struct Entry: Sendable {
        let kind: Int64
        let scalar: Int64
        let folded: Data
    }

    /// The kinds of folding, as `kura_fold_with` numbers them.
    static let kinds: [(kind: Int64, options: StringOptions)] = [
        (1, StringOptions(caseInsensitive: true)),
        (2, StringOptions(diacriticInsensitive: true)),
        (3, StringOptions(caseInsensitive: true, diacriticInsensitive: true)),
    ]

    /// What a scalar folds to right after another in its character (a combining mark after its
    /// base, which `[d]` drops, where alone it stays): kinds 6 and 7, for 2 and 3.
    static let afterBase: Int64 = 4

    /// Every scalar above ASCII that some folding changes, alone or after a base, once per process.
    /// Compared by bytes: String equality would take a canonically equal fold for no change.
    static let entries: [Entry] = {
        var entries: [Entry] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), isFoldable(scalar) else { continue }
            let text = String(Character(scalar))
            for (kind, options) in kinds {
                let folded = options.fold(text)
                if !folded.utf8.elementsEqual(text.utf8) {
                    entries.append(Entry(kind: kind, scalar: Int64(value), folded: Data(folded.utf8)))
                }
                guard options.diacriticInsensitive else { continue }
                // After the base "a", which no folding changes.
                let withBase = options.fold("a" + text)
                guard withBase.utf8.first == UInt8(ascii: "a") else { continue }
                let after = withBase.utf8.dropFirst()
                if !after.elementsEqual(folded.utf8) {
                    entries.append(Entry(kind: kind + afterBase, scalar: Int64(value), folded: Data(after)))
                }
            }
        }
        return entries
    }()

    /// Scalars folding can change: assigned ones outside the private use areas and the CJK
    /// ideograph blocks (letters without case or marks).
    private static func isFoldable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .unassigned, .privateUse, .surrogate: return false
        default: break
        }
        return !(scalar.properties.isUnifiedIdeograph)
    }

    /// The table's rows as COPY text.
    static func copyText() -> PostgresCopyText {
        var text = PostgresCopyText(capacity: entries.count * 16)
        for entry in entries {
            text.append(.integer(entry.kind))
            text.append(.integer(entry.scalar))
            text.append(.blob(entry.folded))
            text.endRow()
        }
        return text
    }

    /// Fills the realm's fold table unless it holds as many rows as this process computes (a
    /// Swift with other Unicode data refills it).
    static func install(on session: PostgresSession) throws(KuraError) {
        try session.execute(
            "CREATE TABLE IF NOT EXISTS \(table) (\"#kind\" smallint NOT NULL, \"#scalar\" integer NOT NULL, "
                + "\"#folded\" bytea NOT NULL, PRIMARY KEY (\"#kind\", \"#scalar\"))")
        let stored = try session.value("SELECT count(*) FROM \(table)")
        if stored == .integer(Int64(entries.count)) { return }
        try session.execute("TRUNCATE \(table)")
        try session.copy(into: "#fold", columns: ["#kind", "#scalar", "#folded"], copyText().buffer)
    }
}
