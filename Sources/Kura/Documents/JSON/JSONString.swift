/// JSON string literals as the document writer makes them, for the service's own small bodies:
/// one escaping for every JSON text Kura writes.
package enum JSONString {
    /// `text` as a JSON string literal, quotes included: quotes, backslashes and control
    /// characters escaped, everything else as is.
    package static func literal(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        JSONTextWriter.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
