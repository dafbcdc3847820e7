import Foundation

/// The rule for type and property names.
///
/// A name starts with a letter of any script or `_` and goes on with letters, combining marks,
/// decimal digits or `_`, as Swift identifiers do (`café`, `名前`, `naïve`). It is at most 63 bytes
/// of UTF-8 and in Unicode normalization form C, so two names that read the same are the same
/// bytes: Swift compares names by canonical equivalence, SQLite byte by byte, and both must agree.
public enum Identifier {
    /// The longest name, in bytes of UTF-8.
    public static let maxBytes = 63

    /// What names are made of, as messages say it.
    static let grammar = "names start with a letter or '_' and hold only letters, digits and '_'"

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

    /// Whether a name may start with `scalar`: a letter of any script or `_`.
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetter(scalar) || scalar == "_" }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// Whether a name may go on with `scalar`: a letter, a combining mark, a decimal digit or `_`.
    static func isNameContinuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return isASCIILetter(scalar) || scalar == "_" || (scalar.value >= 48 && scalar.value <= 57) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
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
