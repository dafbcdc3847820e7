import Hummingbird

/// Kura Studio, the web console: `GET /` is its page and `GET /studio/{file}` its styles
/// and scripts, all held in the binary. They carry no realm data, so they need no token; the page
/// asks for one when the API answers 401 and sends it only to the API.
struct StudioRoutes: RouteSet {
    /// Only this server's own files run: no script, style or request goes anywhere else.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
        + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("") { _, _ in Self.response(StudioAssets.page) }
        group.get("studio/:file") { _, context in
            let name = try context.parameters.require("file")
            guard let asset = StudioAssets.files[name] else {
                throw Problem.notFound("unknown-file", "Kura Studio has no file '\(name)'")
            }
            return Self.response(asset)
        }
    }

    private static func response(_ asset: StudioAsset) -> Response {
        TextResponse.text(asset.text, contentType: asset.contentType, headers: [
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-cache"), ("ETag", asset.etag),
        ])
    }
}
