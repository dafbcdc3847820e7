/// One file of Kura Studio: its text, media type and strong ETag.
struct StudioAsset: Sendable {
    let text: String
    let contentType: String
    let etag: String

    init(_ text: String, contentType: String) {
        self.text = text
        self.contentType = contentType
        etag = ETag.of(text)
    }
}

/// Kura Studio's files, held in the binary: the page of `GET /` and, by name, what
/// `GET /studio/{file}` serves.
enum StudioAssets {
    static let page = StudioAsset(StudioPage.html, contentType: "text/html; charset=utf-8")

    static let files: [String: StudioAsset] = [
        "studio.css": StudioAsset(StudioStyle.css, contentType: "text/css; charset=utf-8"),
        "core.js": script(StudioCoreScript.source),
        "values.js": script(StudioValuesScript.source),
        "objects.js": script(StudioObjectsScript.source),
        "schema.js": script(StudioSchemaScript.source),
        "transfer.js": script(StudioTransferScript.source),
        "live.js": script(StudioLiveScript.source),
        "app.js": script(StudioAppScript.source),
    ]

    private static func script(_ text: String) -> StudioAsset { StudioAsset(text, contentType: "text/javascript; charset=utf-8") }
}
