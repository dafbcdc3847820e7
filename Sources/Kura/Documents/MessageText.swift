/// How error messages quote text taken from the input.
public enum MessageText {
    /// Input text as a message shows it: at most 40 characters (then `…`), control characters
    /// escaped (`\n`, `\u{0}`), so a message stays one short line whatever the input holds.
    public static func shown(_ text: String) -> String {
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 40 { return out + "…" }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
