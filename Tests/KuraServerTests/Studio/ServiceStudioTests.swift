import Foundation
import KuraTestSupport
import Testing

/// Kura Studio's files over HTTP: the page and every file it loads are served by the binary without
/// a token, with a policy that lets only the server's own files run, and nothing in them reaches
/// another origin.
@Suite struct ServiceStudioTests {
    let fixture: ServiceFixture
    let server: ServerProcess

    init() throws {
        fixture = try ServiceFixture()
        let made = try Fixtures.run(fixture.kura, ["token", "new", "reader", "--scope", "read"])
        try fixture.writeConfig("server:\n  tokens:\n" + made.stdout.split(separator: "\n").dropFirst().map { "    \($0)\n" }.joined())
        server = try fixture.serve()
    }

    /// The paths of the page's `src` and `href` attributes.
    func references(in page: String) -> [String] {
        var found: [String] = []
        for attribute in ["src=\"", "href=\""] {
            var rest = page[...]
            while let start = rest.range(of: attribute), let end = rest[start.upperBound...].firstIndex(of: "\"") {
                found.append(String(rest[start.upperBound..<end]))
                rest = rest[end...]
            }
        }
        return found
    }

    @Test func theServerSaysWhereStudioIs() {
        #expect(server.output.contains("\nKura Studio: http://127.0.0.1:\(server.port)/\n"))
    }

    @Test func thePageAndItsFilesNeedNoToken() throws {
        #expect(try server.request("/v1/realms").status == 401)
        let page = try server.request("/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';") == true)
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.text.contains("<title>Kura Studio</title>"))
        let files = references(in: page.text).filter { $0.hasPrefix("/studio/") }
        #expect(files == ["/studio/core.js", "/studio/values.js", "/studio/wire.js", "/studio/dialog.js", "/studio/editors.js",
                          "/studio/chooser.js", "/studio/objects.js", "/studio/edit.js", "/studio/create.js", "/studio/schema.js",
                          "/studio/transfer.js", "/studio/live.js", "/studio/app.js", "/studio/studio.css"])
        for file in files {
            let reply = try server.request(file)
            #expect(reply.status == 200, "\(file)")
            let expected = file.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            #expect(reply.headers["content-type"] == expected, "\(file)")
            #expect(reply.headers["etag"]?.hasPrefix("\"") == true)
            #expect(reply.body.count > 1000, "\(file) is \(reply.body.count) bytes")
        }
    }

    @Test func theFilesServedAreTheRepositorysFilesByteForByte() throws {
        let folder = Fixtures.packageRoot.appendingPathComponent("Sources/KuraServer/Studio/Resources")
        let page = try server.request("/")
        #expect(page.body == (try Data(contentsOf: folder.appendingPathComponent("index.html"))))
        let files = references(in: page.text).filter { $0.hasPrefix("/studio/") }
        #expect(files.count == 14)
        for file in files {
            let name = String(file.dropFirst("/studio/".count))
            #expect(try server.request(file).body == (try Data(contentsOf: folder.appendingPathComponent(name))), "\(file)")
        }
    }

    @Test func nothingComesFromOrGoesToAnotherOrigin() throws {
        let page = try server.request("/").text
        #expect(references(in: page).allSatisfy { $0.hasPrefix("/") || $0.hasPrefix("#") || $0.hasPrefix("data:") })
        for file in references(in: page) where file.hasPrefix("/studio/") {
            var text = try server.request(file).text
            // The SVG namespace names a vocabulary; nothing is fetched from it.
            text = text.replacingOccurrences(of: "\"http://www.w3.org/2000/svg\"", with: "")
            #expect(!text.contains("http://") && !text.contains("https://") && !text.contains("//cdn"), "\(file) names another origin")
        }
    }

    @Test func anUnknownFileIsAProblem() throws {
        let reply = try server.request("/studio/missing.js")
        #expect(reply.status == 404)
        #expect(reply.headers["content-type"] == "application/problem+json")
        #expect(reply.text.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"type":"/problems/unknown-file","title":"Not Found","status":404,"detail":"Kura Studio has no file 'missing.js'"}"#)
    }
}
