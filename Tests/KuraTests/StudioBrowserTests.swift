import Foundation
import Testing

/// Whether Debian's chromium and Playwright for Python are here to drive Kura Studio; `.ci/run`
/// installs both and sets `KURA_BROWSER_TESTS=required`, so that CI never skips the walk.
enum StudioBrowser {
    static let chromium = "/usr/bin/chromium"

    static let isRequired = ProcessInfo.processInfo.environment["KURA_BROWSER_TESTS"] == "required"

    /// Runs `Tests/Browser/SCRIPT` with `arguments` and returns the observations it printed.
    static func observe(_ script: String, _ arguments: [String]) throws -> [String: Any] {
        let path = Fixtures.packageRoot.appendingPathComponent("Tests/Browser/\(script)").path
        let walked = try Fixtures.run("/usr/bin/env", ["python3", path] + arguments)
        #expect(walked.status == 0, "\(script) failed: \(walked.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(walked.stdout.utf8)) as? [String: Any], "no report: \(walked.stdout)")
    }

    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: chromium) else { return false }
        return (try? Fixtures.run("/usr/bin/env", ["python3", "-c", "import playwright"]).status) == 0
    }()
}

/// Kura Studio in a real browser, as a new user meets it: Debian's chromium driven by Playwright
/// (`Tests/Browser/studio_walk.py`) against a real `kura serve` with a token and three realms. The
/// script acts and reports what the page showed; the assertions are here.
@Suite struct StudioBrowserTests {
    @Test(.enabled(if: StudioBrowser.isAvailable || StudioBrowser.isRequired, "needs chromium and Playwright for Python"))
    func aNewUserWalksThroughStudio() throws {
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
        #expect(seen["tokenReason"] as? String == "This server needs a token: a bearer token is needed: send Authorization: Bearer TOKEN")
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
        // A link followed by a click, the objects linking back, and one of them followed.
        #expect(seen["linkedHash"] as? String == "#/r/zoo/t/Person/k/2")
        #expect(seen["linkedTitle"] as? String == "Person 2 in zoo")
        #expect(strings("backlinks") == ["Person.bestFriend: Person 1", "DogClub.members: none"])
        #expect(seen["backlinkTitle"] as? String == "Person 1 in zoo")
        #expect(strings("nestedShown") == ["Dog", "DogToy", "Address (embedded)"])
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

    @Test(.enabled(if: StudioBrowser.isAvailable || StudioBrowser.isRequired, "needs chromium and Playwright for Python"))
    func linksAndBacklinksFollowKeysOfEveryKind() throws {
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

    @Test(.enabled(if: StudioBrowser.isAvailable || StudioBrowser.isRequired, "needs chromium and Playwright for Python"))
    func valuesOfEveryKindShowAsTheyAre() throws {
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

    @Test(.enabled(if: StudioBrowser.isAvailable || StudioBrowser.isRequired, "needs chromium and Playwright for Python"))
    func thePageFollowsCommitsOfAnotherClient() throws {
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
