import Foundation

/// The rule for type and property names.
///
/// As in Realm, a name may hold any character beyond ASCII (`café`, `名前`, `柱колоéнǢкƱаم👍`) but
/// spaces, control characters and unassigned code points; of ASCII, it holds letters, digits and
/// `_`, the characters a predicate can read as part of a key path, and does not start with a digit.
/// It is at most 63 bytes of UTF-8 and in Unicode normalization form C, so two names that read
/// the same are the same bytes: Swift compares names by canonical equivalence, SQLite byte by
/// byte, and both must agree.
public enum Identifier {
    /// The longest name, in bytes of UTF-8.
    public static let maxBytes = 63

    /// What names are made of, as messages say it.
    static let grammar = "names hold letters, digits, '_' and characters beyond ASCII other than spaces and controls, "
        + "and do not start with a digit"

    /// Whether `name` follows the rule for names.
    public static func isValid(_ name: String) -> Bool { problem(with: name) == nil }

    /// Why `name` breaks the rule for names, or `nil` when it follows it.
    static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first, isNameStart(first),
            name.unicodeScalars.dropFirst().allSatisfy(isNameContinuation)
        else {
            return grammar
        }
        if name.utf8.count > maxBytes { return "names are at most \(maxBytes) bytes of UTF-8" }
        if !isNFC(name) { return "names must be in Unicode normalization form C (NFC), as editors usually write them" }
        return nil
    }

    /// Whether a name may start with `scalar`: an ASCII letter, `_`, or a character beyond ASCII
    /// that names may hold.
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetter(scalar) || scalar == "_" }
        return isNameCharacterBeyondASCII(scalar)
    }

    /// Whether a name may go on with `scalar`: an ASCII letter, digit or `_`, or a character beyond
    /// ASCII that names may hold.
    static func isNameContinuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetter(scalar) || scalar == "_" || (scalar.value >= 48 && scalar.value <= 57) }
        return isNameCharacterBeyondASCII(scalar)
    }

    /// Any character beyond ASCII but spaces (which end a name in a predicate), controls, the byte
    /// order mark (which YAML drops) and unassigned code points.
    private static func isNameCharacterBeyondASCII(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace || scalar.value == 0xFEFF { return false }
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .unassigned, .spaceSeparator, .lineSeparator, .paragraphSeparator: return false
        default: return true
        }
    }

    /// Words no name may be, in any letter case: those YAML reads as null or a boolean, and those a
    /// `--where` predicate reads as a value or an operator where a key path starts.
    static let reservedWords: Set<String> = [
        "null", "nil", "true", "false", "and", "or", "not", "in", "between", "beginswith", "contains", "endswith",
        "like", "truepredicate", "falsepredicate",
    ]

    /// Whether `name` is a reserved word, ignoring the case of ASCII letters.
    static func isReserved(_ name: String) -> Bool { reservedWords.contains(sqlFolded(name)) }

    /// The name with ASCII letters in lower case: SQLite tells identifiers apart only up to this.
    static func sqlFolded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return name }
        return String(decoding: name.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 65 && scalar.value <= 90) || (scalar.value >= 97 && scalar.value <= 122)
    }

    /// Whether `name` is in normalization form C; ASCII always is.
    private static func isNFC(_ name: String) -> Bool {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        return name.precomposedStringWithCanonicalMapping.utf8.elementsEqual(name.utf8)
    }
}
