import Hummingbird

/// `GET /metrics`: Prometheus' text format (read scope when tokens are configured).
///
/// A token limited to some realms sees the series of those realms only: the lines labelled with
/// another realm are left out, so that neither its name nor its traffic shows.
struct MetricsRoute: RouteSet {
    let metrics: ServiceMetrics
    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("metrics") { _, context in
            let hidden = Set(realms.names.filter { !(context.access?.mayList($0) ?? false) })
            var text = metrics.text
            if !hidden.isEmpty {
                text = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { line in Self.realmLabel(of: line).map { !hidden.contains($0) } ?? true }
                    .joined(separator: "\n")
            }
            return TextResponse.text(text, contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// The value of a sample line's `realm` label, unescaped as Prometheus' text format escapes it
    /// (`\\`, `\"`, `\n`), or `nil` for a line without one.
    static func realmLabel(of line: Substring) -> String? {
        guard let start = line.range(of: "{realm=\"") ?? line.range(of: ",realm=\"") else { return nil }
        var value = ""
        var escaped = false
        for character in line[start.upperBound...] {
            if escaped {
                value.append(character == "n" ? "\n" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return value
            } else {
                value.append(character)
            }
        }
        return nil
    }
}
