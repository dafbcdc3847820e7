import Crypto

/// SHA-256 of a byte string, by swift-crypto: bearer tokens are stored as these digests only, and
/// entity tags are cut from them.
public enum SHA256Digest {
    /// The 32-byte digest of `message`.
    public static func digest(_ message: some Collection<UInt8>) -> [UInt8] {
        Array(SHA256.hash(data: Array(message)))
    }

    /// The digest of `text`'s UTF-8 bytes as 64 lowercase hexadecimal digits.
    public static func hex(of text: String) -> String {
        let digits = Array("0123456789abcdef")
        return String(SHA256.hash(data: Array(text.utf8)).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }
}
