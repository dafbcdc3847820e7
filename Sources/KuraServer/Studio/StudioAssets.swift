/// One file of Kura Studio: its text, media type and strong ETag.
struct StudioAsset: Sendable {
    let text: String
    let contentType: String
    let etag: String

    init(_ bytes: [UInt8], contentType: String) {
        // The files are the repository's own UTF-8 text; nothing is replaced in them.
        text = String(decoding: bytes, as: UTF8.self)
        self.contentType = contentType
        etag = ETag.of(text)
    }
}

/// Kura Studio's files, held in the binary: the page of `GET /` and, by name, what
/// `GET /studio/{file}` serves.
///
/// They are the files of `Studio/Resources`, which SwiftPM compiles into the binary
/// (`embedInCode` in Package.swift), so a copied `kura` serves them with nothing beside it, and
/// nothing builds or fetches them.
enum StudioAssets {
    /// The page: the frame the scripts fill in.
    static let page = StudioAsset(PackageResources.index_html, contentType: "text/html; charset=utf-8")

    static let files: [String: StudioAsset] = [
        "studio.css": StudioAsset(PackageResources.studio_css, contentType: "text/css; charset=utf-8"),
        // The page loads the scripts in this order; each adds its part to the `Studio` object.
        "core.js": script(PackageResources.core_js),
        "values.js": script(PackageResources.values_js),
        "wire.js": script(PackageResources.wire_js),
        "dialog.js": script(PackageResources.dialog_js),
        "editors.js": script(PackageResources.editors_js),
        "chooser.js": script(PackageResources.chooser_js),
        "objects.js": script(PackageResources.objects_js),
        "edit.js": script(PackageResources.edit_js),
        "create.js": script(PackageResources.create_js),
        "schema.js": script(PackageResources.schema_js),
        "transfer.js": script(PackageResources.transfer_js),
        "live.js": script(PackageResources.live_js),
        "app.js": script(PackageResources.app_js),
    ]

    private static func script(_ bytes: [UInt8]) -> StudioAsset { StudioAsset(bytes, contentType: "text/javascript; charset=utf-8") }
}
