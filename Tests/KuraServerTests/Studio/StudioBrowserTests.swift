import Foundation
import KuraTestSupport
import Testing

/// Whether Debian's chromium and Playwright for Python are here to drive Kura Studio. Without them
/// the walks say so loudly: a warning each, or, under `KURA_BROWSER_TESTS=required` (which
/// `.ci/run` sets, having installed both), a failure each, so that CI never skips them.
/// `KURA_CHROMIUM` names another chromium (the scripts read it too).
enum StudioBrowser {
    static let chromium = ProcessInfo.processInfo.environment["KURA_CHROMIUM"] ?? "/usr/bin/chromium"

    static let isRequired = ProcessInfo.processInfo.environment["KURA_BROWSER_TESTS"] == "required"

    /// What is missing to drive the browser, or nil when nothing is.
    static let missing: String? = {
        var missing: [String] = []
        if !FileManager.default.isExecutableFile(atPath: chromium) {
            missing.append("no chromium at \(chromium) (apt-get install chromium, or set KURA_CHROMIUM to its path)")
        }
        if (try? Fixtures.run("/usr/bin/env", ["python3", "-c", "import playwright"]).status) != 0 {
            missing.append("python3 cannot import playwright (pip install playwright)")
        }
        return missing.isEmpty ? nil : missing.joined(separator: "; ")
    }()

    /// Whether the walks can run. When they cannot, records why: an error under
    /// `KURA_BROWSER_TESTS=required`, a warning otherwise.
    static func isReady() -> Bool {
        guard let missing else { return true }
        if isRequired {
            Issue.record("KURA_BROWSER_TESTS=required, but the Kura Studio browser walks cannot run: \(missing)")
        } else {
            Issue.record(
                "the Kura Studio browser walks did not run: \(missing) (KURA_BROWSER_TESTS=required makes this an error)",
                severity: .warning)
        }
        return false
    }

    /// Runs `Tests/Browser/SCRIPT` with `arguments` and returns the observations it printed.
    static func observe(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let path = Fixtures.packageRoot.appendingPathComponent("Tests/Browser/\(script)").path
        let walked = try Fixtures.run("/usr/bin/env", ["python3", path] + arguments)
        #expect(walked.status == 0, "\(script) failed: \(walked.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(walked.stdout.utf8)) as? [String: Any], "no report: \(walked.stdout)")
    }
}

/// Kura Studio in a real browser, as a new user meets it: Debian's chromium driven by Playwright
/// (`Tests/Browser/studio_walk.py`) against a real `kura serve` with a token and three realms. The
/// script acts and reports what the page showed; the assertions are here.
@Suite struct StudioBrowserTests {
    @Test func aNewUserWalksThroughStudio() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture()
        let kura = fixture.kura
        try Fixtures.run(kura, ["init", fixture.path("fresh.realm"), "--schema", Fixtures.samplesSchemaPath])
        try Fixtures.run(kura, ["init", fixture.path("many.realm"), "--schema", Fixtures.samplesSchemaPath])
        let many = (1...120).map { #"{"name": "Walker \#($0)"}"# }.joined(separator: "\n")
        try many.write(toFile: fixture.path("many.jsonl"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(kura, ["import", fixture.path("many.realm"), fixture.path("many.jsonl"), "--type", "Person"]).status == 0)
        for sample in ["people.json", "bad-people.json"] {
            try FileManager.default.copyItem(
                atPath: Fixtures.packageRoot.appendingPathComponent("Samples/\(sample)").path, toPath: fixture.path(sample))
        }
        let made = try Fixtures.run(kura, ["token", "new", "walker", "--scope", "write"])
        let lines = made.stdout.split(separator: "\n").map(String.init)
        let token = try #require(lines.first)
        try fixture.writeConfig("server:\n  tokens:\n" + lines.dropFirst().map { "    \($0)\n" }.joined())
        let server = try fixture.serve(["zoo.realm", "fresh.realm", "many.realm"])

        let seen = try StudioBrowser.observe("studio_walk.py", ["http://127.0.0.1:\(server.port)", token, fixture.folder.path])
        func strings(_ key: String) -> [String] { seen[key] as? [String] ?? [] }

        // The token is asked for, then the realms show with their counts.
        // The token is asked for in words for a person, not in the header the API's problem names.
        #expect(seen["tokenReason"] as? String == "This server shows its realms only to people who have a token.")
        #expect(seen["tokenHelp"] as? String == "A token is a secret key, like a password, that lets you use this server. Whoever runs "
            + "the server makes one with kura token new NAME --scope read (--scope write to import and change objects) and gives you "
            + "the first line it prints. Studio keeps it in this browser tab only.")
        #expect(strings("sidebarRealms") == ["fresh", "many", "zoo"])
        #expect(strings("zooCounts") == ["DogToy\t1", "Dog\t2", "Person\t3", "DogClub\t0"])
        // A table of objects, sorted by a click on a header, filtered, and a bad predicate's message.
        #expect(strings("personHeaders") == ["id", "name", "dogs", "address", "bestFriend", "createdAt"])
        #expect(strings("personNames") == ["Alice", "Bob", "Chen"])
        #expect(seen["personStatus"] as? String == "Objects 1–3 of 3")
        #expect(strings("foldedDogs") == ["Dog Rex, 3"])
        #expect(strings("unfoldedDog") == ["$id", "name", "age", "color", "currentCity", "citiesVisited", "favoriteParksByCity", "companion", "favoriteToy"])
        #expect(strings("namesDescending") == ["Chen", "Bob", "Alice"])
        #expect(strings("filteredNames") == ["Chen", "Alice"])
        #expect(seen["filteredStatus"] as? String == "Objects 1–2 of 2")
        #expect(seen["badPredicate"] as? String == "where: column 1: error: Person has no property 'nme' (did you mean 'name'?)")
        // The column a refusal names is marked in the predicate and selected in the box (a character
        // outside the BMP before it counts once, as the server counts).
        #expect(strings("markedPredicate") == ["name == '😀' AND agé > 3", "a"])
        #expect(seen["markedSelection"] as? String == "where 17 18")
        // A link followed by a click, the objects linking back, and one of them followed.
        #expect(seen["linkedHash"] as? String == "#/r/zoo/t/Person/k/2")
        #expect(seen["linkedTitle"] as? String == "Person 2 in zoo")
        #expect(strings("backlinks") == ["Person.bestFriend: Person 1", "DogClub.members: none"])
        #expect(seen["backlinkTitle"] as? String == "Person 1 in zoo")
        // Nested objects without a primary key are headed by a link to their own page; the embedded address has none.
        #expect(strings("nestedShown") == ["Dog 1", "DogToy 1", "Address (embedded)"])
        // Pages of 50 with a cursor, forward and back.
        #expect(strings("pages") == ["Objects 1–50 of 120", "Objects 51–100 of 120", "Objects 101–120 of 120", "Objects 51–100 of 120"])
        // The diagram: every type, every link, embedded object and backlink.
        #expect(strings("diagramTypes") == ["Address", "Dog", "DogClub", "DogToy", "Person"])
        #expect(strings("diagramArrows") == [
            "arrow backlink Dog.owners → Person (linkingObjects Person.dogs)",
            "arrow embedded Person.address → Address (Address?)",
            "arrow link Dog.favoriteToy → DogToy (DogToy?)",
            "arrow link DogClub.members → Person (list<Person>)",
            "arrow link Person.bestFriend → Person (Person?)",
            "arrow link Person.dogs → Dog (list<Dog>)",
        ])
        // An import that ends asking for a token leaves no progress line behind the question, nor after its error.
        #expect(seen["importTokenReason"] as? String == "This server shows its realms only to people who have a token.")
        #expect(strings("importStatusAsked") == ["", ""])
        #expect(strings("importStatusAfterError") == ["", ""])
        // A bad file: every error with line, column, path and message, and nothing written.
        #expect(seen["importErrorSummary"] as? String == "the document has 1 error")
        #expect(seen["importErrors"] as? [[String]] == [
            ["2", "63", "$[0].dogs[0].age", #"body:2:63: error: $[0].dogs[0].age: expected int, found string "three""#]
        ])
        #expect(seen["freshAfterBadImport"] as? [String: Int] == ["DogToy": 0, "Dog": 0, "Person": 0, "DogClub": 0])
        // A dropped file imports, with its progress and summary, and the sidebar's count follows.
        #expect(seen["droppedFile"] as? String == "people.json (741 B)")
        #expect(seen["importStatus"] as? String == "Imported: 3 documents")
        #expect(strings("importSummary") == ["Address\t2\t0\t0\t0", "Dog\t2\t0\t0\t0", "DogToy\t1\t0\t0\t0", "Person\t3\t0\t0\t0"])
        #expect(seen["progressValue"] as? String == "100")
        // The download is what kura export writes.
        #expect(seen["downloadName"] as? String == "fresh-Person.jsonl")
        let exported = try Fixtures.run(kura, ["export", fixture.path("fresh.realm"), "--type", "Person", "--format", "jsonl"])
        let downloaded = try String(contentsOfFile: fixture.path("studio-export.jsonl"), encoding: .utf8)
        #expect(!downloaded.isEmpty && downloaded == exported.stdout)
        #expect(seen["exportStatus"] as? String == "Exported \(downloaded.utf8.count) B: fresh-Person.jsonl")
        #expect(strings("problems") == [])
        #expect(!server.log.contains(token))
    }

    @Test func linksAndBacklinksFollowKeysOfEveryKind() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture(makingSampleRealm: false)
        try Fixtures.writeKeysRealm(at: fixture.path("keys.realm"))
        let server = try fixture.serve(["keys.realm"])
        let seen = try StudioBrowser.observe("studio_keys.py", ["http://127.0.0.1:\(server.port)"])
        func strings(_ key: String) -> [String] { seen[key] as? [String] ?? [] }

        #expect(seen["cafeHash"] as? String == "#/r/keys/t/Caf%C3%A9")
        #expect(strings("cafeKeys") == ["a/b 'c'"])
        #expect(seen["cafeTitle"] as? String == "Café a/b 'c' in keys")
        #expect(seen["itemTitle"] as? String == "Item 507f1f77bcf86cd799439011 in keys")
        #expect(strings("itemBacklinks") == ["Item.other: none", "Café.item: Café a/b 'c'"])
        #expect(seen["tagTitle"] as? String == "Tag 6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f in keys")
        #expect(strings("tagBacklinks") == [
            "Item.tag: Item 507f1f77bcf86cd799439011", "Item.tags: Item 507f1f77bcf86cd799439011",
            "Item.byName: Item 507f1f77bcf86cd799439011",
        ])
        #expect(strings("problems") == [])
    }

    @Test func objectsWithoutAPrimaryKeyOpenTheirOwnPages() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let seen = try StudioBrowser.observe("studio_keyless.py", ["http://127.0.0.1:\(server.port)"])
        func strings(_ key: String) -> [String] { seen[key] as? [String] ?? [] }

        // A table of dogs opens each by its object id, the last part of its URL.
        #expect(strings("dogHeaders") == ["#", "name", "age", "color", "currentCity", "citiesVisited", "favoriteParksByCity", "companion", "favoriteToy"])
        #expect(strings("dogIds") == ["1", "2"])
        #expect(seen["fidoHash"] as? String == "#/r/zoo/t/Dog/k/2")
        #expect(seen["fidoTitle"] as? String == "Dog 2 in zoo")
        #expect(strings("fidoName") == ["Fido"])
        #expect(strings("fidoBacklinks") == ["Person.dogs (as owners): Person 2"])
        // A dog nested in a person opens its page, with the people linking to it; its toy likewise.
        #expect(strings("nestedHeading") == ["Dog 1"])
        #expect(seen["rexTitle"] as? String == "Dog 1 in zoo")
        #expect(strings("rexBacklinks") == ["Person.dogs (as owners): Person 1, Person 2"])
        #expect((seen["rexETag"] as? String)?.hasPrefix("\"") == true && seen["rexETag"] as? String == seen["rexPlainETag"] as? String)
        #expect(seen["toyTitle"] as? String == "DogToy 1 in zoo")
        #expect(strings("toyBacklinks") == ["Dog.favoriteToy: Dog 1"])
        // A reference to a dog written earlier on the page is a link to it too.
        #expect(strings("bobDogs") == ["↺ Dog 1", "Dog Fido, 1"])
        #expect(seen["refHash"] as? String == "#/r/zoo/t/Dog/k/1")
        #expect(strings("problems") == [])
    }

    /// Types that link to one another every way a schema can: lists, sets, maps, to-one links,
    /// links to themselves, an embedded type with a link, and declared backlinks.
    static let webSchema = """
            schemaVersion: 1
            types:
              Author:
                primaryKey: id
                properties:
                  id: int
                  name: string
                  books: list<Book>
                  mentor: Author?
                  home: Place?
              Book:
                properties:
                  title: string
                  publisher: Publisher?
                  shelf: Shelf?
                  tags: set<Tag>
                  cover: Cover?
                  authors: { linkingObjects: Author.books }
              Publisher:
                properties:
                  name: string
                  authors: list<Author>
                  city: Place?
              Place:
                properties:
                  name: string
                  near: map<Place>
              Shelf:
                properties:
                  label: string
                  books: list<Book>
                  library: Library?
              Library:
                properties:
                  name: string
                  place: Place?
                  shelves: list<Shelf>
                  members: { linkingObjects: Reader.library }
              Reader:
                properties:
                  name: string
                  library: Library?
                  favourite: Book?
                  friends: list<Reader>
              Tag:
                properties:
                  name: string
              Cover:
                embedded: true
                properties:
                  colour: string
                  artist: Author?
            """

    @Test func everyPageFitsAPhoneAndNoArrowCrossesABox() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture()
        try Self.webSchema.write(toFile: fixture.path("web.yaml"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("web.realm"), "--schema", fixture.path("web.yaml")]).status == 0)
        let server = try fixture.serve(["zoo.realm", "web.realm"])
        // KURA_STUDIO_SCREENSHOTS names a folder for the screenshots of every page at both widths.
        let shots = ProcessInfo.processInfo.environment["KURA_STUDIO_SCREENSHOTS"].map { [$0] } ?? []
        let seen = try StudioBrowser.observe("studio_layout.py", ["http://127.0.0.1:\(server.port)"] + shots)

        // No page is wider than the screen, a phone's included: wide tables and the diagram scroll
        // inside their own boxes.
        for page in ["home", "table", "object", "keyless", "schema", "web-schema", "transfer", "new-person"] {
            #expect(seen["\(page)@1280"] as? Int == 1280, "\(page) is \(seen["\(page)@1280"] ?? "?") px wide on a 1280 px screen")
            #expect(seen["\(page)@390"] as? Int == 390, "\(page) is \(seen["\(page)@390"] ?? "?") px wide on a 390 px screen")
        }
        // Every arrow of the diagrams is drawn, and none crosses a box but those of its own two types.
        for (diagram, arrows) in [("schema", 6), ("web-schema", 20)] {
            for width in [1280, 390] {
                let measured = seen["\(diagram)-arrows@\(width)"] as? [String: Any]
                #expect(measured?["arrows"] as? Int == arrows, "\(diagram) at \(width) px")
                #expect(measured?["crossings"] as? [String] == [], "\(diagram) at \(width) px")
            }
        }
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func anImportCutOffLeavesNoProgressBehind() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture()
        let people = (1...200_000).map { #"{"name": "Walker \#($0)", "dogs": [{"name": "Rex", "age": 3}]}"# }.joined(separator: "\n")
        try people.write(toFile: fixture.path("many.jsonl"), atomically: true, encoding: .utf8)
        let server = try fixture.serve()
        let seen = try StudioBrowser.observe(
            "studio_import_end.py", ["http://127.0.0.1:\(server.port)", fixture.path("many.jsonl"), String(server.process.processIdentifier)])
        #expect(seen["readWhileRunning"] as? String == "The server has read ")
        // The server died mid-import: the error says so, and no line of the import's progress stays.
        #expect(seen["error"] as? String == "the connection to the server failed before it answered")
        #expect(seen["status"] as? String == "")
        #expect(seen["read"] as? String == "")
        #expect(seen["progressHidden"] as? Bool == true)
        #expect(seen["importEnabled"] as? Bool == true)
        #expect(seen["pageErrors"] as? [String] == [])
    }

    /// Every scalar type, mixed values of each shape, collections and embedded objects, a key past 2^53.
    static let valuesSchema = """
            schemaVersion: 1
            types:
              Thing:
                primaryKey: id
                properties:
                  id: int
                  flag: bool
                  ratio: double
                  small: float
                  when: date
                  blob: data
                  amount: decimal
                  ref: objectId
                  code: uuid
                  note: string?
                  any: mixed
                  anyList: mixed
                  anyMap: mixed
                  anyLink: mixed
                  numbers: list<int>
                  names: set<string>
                  scores: map<double>
                  parts: list<Part>
                  main: Part?
              Part:
                embedded: true
                properties:
                  label: string
                  size: int?
            """

    static let valuesDocuments = #"""
            [{"id": 1, "flag": true, "ratio": 2.5, "small": 1.5, "when": {"$date": "2024-01-02T03:04:05.006Z"},
              "blob": {"$binary": {"base64": "AAECAw==", "subType": "00"}}, "amount": {"$numberDecimal": "12.50"},
              "ref": {"$oid": "507f1f77bcf86cd799439011"}, "code": "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f", "note": null,
              "any": {"$date": "2020-05-06T07:08:09.000Z"}, "anyList": [1, "two", [3, false]], "anyMap": {"k": {"nested": true}, "e": {}},
              "anyLink": {"$type": "Thing", "$key": 2}, "numbers": [3, 1, 2], "names": ["b", "a"], "scores": {"x": 1.5, "y": -0.0},
              "parts": [{"label": "p1", "size": 3}, {"label": "p2"}], "main": {"label": "m"}},
             {"id": 2, "flag": false, "ratio": -1e300, "small": 0, "when": {"$date": "1969-12-31T23:59:59.999Z"},
              "blob": {"$binary": {"base64": "", "subType": "00"}}, "amount": "1E+3", "ref": {"$oid": "000000000000000000000000"},
              "code": "00000000-0000-0000-0000-000000000000", "note": "<b>not bold</b> & \"quoted\"", "any": null, "anyList": [],
              "anyMap": {}, "anyLink": {"$type": "Thing", "$key": 9007199254740993}, "numbers": [], "names": [], "scores": {}, "parts": [], "main": null},
             {"id": 9007199254740993, "flag": true, "ratio": 0.1, "small": 0.25, "when": {"$date": "2000-01-01T00:00:00.000Z"},
              "blob": {"$binary": {"base64": "/w==", "subType": "00"}}, "amount": "0.000001", "ref": {"$oid": "ffffffffffffffffffffffff"},
              "code": "ffffffff-ffff-ffff-ffff-ffffffffffff", "any": 9007199254740993, "anyList": [{"$oid": "507f1f77bcf86cd799439011"}],
              "anyMap": {"deep": [{"x": [1]}]}, "anyLink": "just text", "numbers": [9007199254740993], "names": ["only"], "scores": {"z": 1e-7},
              "parts": [{"label": "q"}]}]
            """#

    @Test func valuesOfEveryKindShowAsTheyAre() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture(makingSampleRealm: false)
        try Self.valuesSchema.write(toFile: fixture.path("values.yaml"), atomically: true, encoding: .utf8)
        try Self.valuesDocuments.write(toFile: fixture.path("values.json"), atomically: true, encoding: .utf8)
        #expect(try Fixtures.run(fixture.kura, ["init", fixture.path("values.realm"), "--schema", fixture.path("values.yaml")]).status == 0)
        #expect(try Fixtures.run(fixture.kura, ["import", fixture.path("values.realm"), fixture.path("values.json"), "--type", "Thing"]).status == 0)
        let server = try fixture.serve(["values.realm"])
        let seen = try StudioBrowser.observe("studio_values.py", ["http://127.0.0.1:\(server.port)"])

        #expect(seen["first"] as? [String: String] == [
            "id": "1", "flag": "true", "ratio": "2.5", "small": "1.5", "when": "2024-01-02T03:04:05.006Z", "blob": "data, 4 bytes",
            "amount": "12.50", "ref": "oid(507f1f77bcf86cd799439011)", "code": "6f1c2a4e-8a7b-4c1d-9e2f-0a1b2c3d4e5f", "note": "null",
            "any": "2020-05-06T07:08:09.000Z", "anyList": "1 two 3 false", "anyMap": "e empty map k nested true", "anyLink": "Thing 2",
            "numbers": "3 1 2", "names": "b a", "scores": "x 1.5 y -0",
            "parts": "Part (embedded) label p1 size 3 Part (embedded) label p2 size null", "main": "Part (embedded) label m size null",
        ])
        // Text is text: markup in a string is shown, never run.
        #expect(seen["second"] as? [String: String] == [
            "id": "2", "flag": "false", "ratio": "-1e+300", "small": "0", "when": "1969-12-31T23:59:59.999Z", "blob": "data, 0 bytes",
            "amount": "1E+3", "ref": "oid(000000000000000000000000)", "code": "00000000-0000-0000-0000-000000000000",
            "note": #"<b>not bold</b> & "quoted""#, "any": "null", "anyList": "empty list", "anyMap": "empty map",
            "anyLink": "Thing 9007199254740993", "numbers": "empty list", "names": "empty set", "scores": "empty map",
            "parts": "empty list", "main": "null",
        ])
        #expect(seen["boldElements"] as? Int == 0 && seen["boldElementsSecond"] as? Int == 0)
        // A 64-bit key past 2^53 stays exact, in the link, the page and the table.
        #expect(seen["bigTitle"] as? String == "Thing 9007199254740993 in values")
        #expect(seen["bigId"] as? String == "9007199254740993")
        #expect(seen["tableKeys"] as? [String] == ["1", "2", "9007199254740993"])
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func thePageFollowsCommitsOfAnotherClient() throws {
        guard StudioBrowser.isReady() else { return }
        let fixture = try ServiceFixture()
        let server = try fixture.serve()
        let seen = try StudioBrowser.observe("studio_live.py", ["http://127.0.0.1:\(server.port)"])
        #expect(seen["noticeBefore"] is NSNull)
        #expect(seen["created"] as? Int == 201)
        #expect((seen["tableNotice"] as? String)?.hasPrefix("Person objects changed (commit ") == true)
        #expect(seen["sidebarPerson"] as? [String] == ["Person", "4"])
        // The table is not redrawn under the reader's eyes; the notice's button shows the changes.
        #expect(seen["rowsBeforeShowing"] as? Int == 3)
        #expect(seen["statusAfterShowing"] as? String == "Objects 1–4 of 4")
        #expect(seen["noticeAfterShowing"] is NSNull)
        #expect(seen["updated"] as? Int == 200)
        #expect((seen["objectNotice"] as? String)?.hasPrefix("This object changed (commit ") == true)
        #expect(seen["nameAfterShowing"] as? [String] == ["Live 2"])
        #expect((seen["deletedNotice"] as? String)?.hasPrefix("This object was deleted (commit ") == true)
        #expect(seen["problems"] as? [String] == [])
    }
}
