/// The paths a `ReferenceScope` records (where a reference was made, where an `"$id"` was defined),
/// each kept as a number and a shared template rather than a string of its own. The paths of one
/// input differ mostly in the document's index (`$[12].next`, `$[13].next`), so the text around
/// the first number is stored once; a path is rebuilt, byte for byte, only for a message.
struct ReferencePaths {
    /// A path as a scope's slot holds it: a template and the number that goes into it, or (when
    /// `template` is `wholeTemplate`) the index of a path kept whole.
    struct Code: Equatable {
        let template: UInt32
        let number: UInt32
    }

    /// The text before and after a path's number; a path with no number that round-trips is kept
    /// as its template's prefix alone.
    private struct Template: Hashable {
        let prefix: Substring
        let suffix: Substring
        let hasNumber: Bool
    }

    private var templates: [Template] = []
    private var templateIndices: [Template: UInt32] = [:]
    /// Paths that fit no template once `maxTemplates` are in use, such as the elements of one long
    /// list, each with its own index after the document's.
    private var whole: [String] = []

    /// Beyond this many templates, paths are kept whole: a template costs more than a path.
    static let maxTemplates = 1 << 16
    static let wholeTemplate = UInt32.max
    /// The most digits a path's number may have: any such number fits a `UInt32`.
    private static let maxDigits = 9

    /// The code for `path`, adding its template if new.
    mutating func code(_ path: String) -> Code {
        let (template, number) = Self.split(path)
        if let index = templateIndices[template] { return Code(template: index, number: number) }
        guard templates.count < Self.maxTemplates else {
            whole.append(path)
            // A count past UInt32 would need far more memory than the machine has.
            return Code(template: Self.wholeTemplate, number: UInt32(clamping: whole.count - 1))
        }
        let index = UInt32(templates.count)
        templates.append(template)
        templateIndices[template] = index
        return Code(template: index, number: number)
    }

    /// The path `code` stands for.
    func path(_ code: Code) -> String {
        guard code.template != Self.wholeTemplate else {
            return whole.indices.contains(Int(code.number)) ? whole[Int(code.number)] : ""
        }
        guard templates.indices.contains(Int(code.template)) else { return "" }
        let template = templates[Int(code.template)]
        guard template.hasNumber else { return String(template.prefix) }
        return String(template.prefix) + String(code.number) + String(template.suffix)
    }

    /// `path` as a template and a number: the first run of ASCII digits, when writing the number
    /// back gives the same digits (no leading zero, at most `maxDigits`); otherwise no number.
    private static func split(_ path: String) -> (Template, UInt32) {
        let bytes = path.utf8
        guard let start = bytes.firstIndex(where: isDigit) else {
            return (Template(prefix: path[...], suffix: "", hasNumber: false), 0)
        }
        let end = bytes[start...].firstIndex { !isDigit($0) } ?? bytes.endIndex
        let digits = bytes[start..<end]
        guard digits.count <= maxDigits, digits.count == 1 || digits.first != UInt8(ascii: "0") else {
            return (Template(prefix: path[...], suffix: "", hasNumber: false), 0)
        }
        let number = digits.reduce(UInt32(0)) { $0 * 10 + UInt32($1 - UInt8(ascii: "0")) }
        // Digits are ASCII, so both cuts fall between characters.
        return (Template(prefix: path[..<start], suffix: path[end...], hasNumber: true), number)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
