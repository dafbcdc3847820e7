import Hummingbird

extension Parameters {
    /// The path parameter `name`, percent-decoded: realm, type and key names may be in any script
    /// (`Café`), and a client sends them encoded (`Caf%C3%A9`). Text that does not decode (a stray
    /// `%`) is taken as it is.
    func decoded(_ name: String) throws -> String {
        let raw = try require(name)
        return raw.removingPercentEncoding ?? raw
    }

    /// The path parameter `name`, percent-decoded, or `nil` when the route has none.
    func decodedIfPresent(_ name: String) -> String? {
        get(name).map { $0.removingPercentEncoding ?? $0 }
    }
}
