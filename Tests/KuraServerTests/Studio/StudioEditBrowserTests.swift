import Foundation
import KuraTestSupport
import Testing

/// Kura Studio changing objects in a real browser: each walk (`Tests/Browser/studio_*.py`) edits,
/// creates or deletes through the page against a real `kura serve` of `StudioEditRealm`, and
/// reports what the page said; these tests check that, and what the server then stores.
@Suite struct StudioEditBrowserTests {
    /// The server of a fresh edits realm, and the walk's report.
    static func walk(_ script: String, _ extra: [String] = []) throws -> (ServerProcess, [String: Any]) {
        let realm = try StudioEditRealm()
        let server = try realm.fixture.serve(["edits.realm"])
        let seen = try StudioBrowser.observe(script, ["http://127.0.0.1:\(server.port)"] + extra)
        return (server, seen)
    }

    @Test func valuesOfEveryKindAreEditedInPlace() throws {
        guard StudioBrowser.isReady() else { return }
        let realm = try StudioEditRealm()
        let server = try realm.fixture.serve(["edits.realm"])
        let first = try StudioEditRealm.stored(server, "Item", "1")
        let second = try StudioEditRealm.stored(server, "Item", "2")
        let third = try StudioEditRealm.stored(server, "Item", "3")
        let shelf = try StudioEditRealm.stored(server, "Shelf", "1")
        let seen = try StudioBrowser.observe("studio_edit.py", ["http://127.0.0.1:\(server.port)"])

        let saved = seen["saved"] as? [String: String] ?? [:]
        for name in ["name", "count", "ratio", "when", "amount", "ref", "code", "note", "blob", "done", "any", "spec", "numbers", "tags", "scores",
                     "owner", "related"] {
            #expect(saved[name] == "Saved \(name).", "\(name): \(saved[name] ?? "nothing said")")
        }
        #expect(saved["owner2"] == "Saved owner." && saved["note2"] == "Saved note." && saved["title"] == "Saved title.")
        // The key is not offered for editing; everything else is.
        #expect(seen["editButtons"] as? [String] == ["name", "count", "ratio", "done", "when", "amount", "ref", "code", "blob", "note", "spec",
                                                     "numbers", "tags", "scores", "owner", "related", "any"])
        #expect(seen["keyNote"] as? String == "id\nint\nthe key: not edited")
        #expect(seen["specLabels"] as? [String] == ["spec label", "spec size", "spec size is null", "spec is null"])
        #expect(seen["numberLabels"] as? [String] == ["remove numbers item 1", "remove numbers item 2", "remove numbers item 3"])
        // The chooser pages through the target's objects and finds them by text.
        #expect(seen["chooserTitle"] as? String == "Choose the Owner for owner")
        #expect(seen["chooserFirst"] as? String == "Owner 1–10 of 27")
        #expect(seen["chooserFound"] as? [String] == ["Owner Grace · Arlington"])
        #expect(seen["chosen"] as? String == "Owner Grace")
        #expect(seen["chooserSecond"] as? String == "Owner 11–20 of 27")
        #expect(seen["secondPage"] as? [String] == ["Owner Owner 09", "Owner Owner 10"])
        #expect(seen["noticeAfterOwnSaves"] is NSNull)
        #expect(seen["shownAfter"] as? [String: String] == [
            "name": "First edited", "spec": "Spec (embedded) label s size 7", "numbers": "20 3 4", "tags": "b c",
            "scores": "x 3.25 z 0.5", "owner": "Owner Grace", "related": "null",
        ])

        // Stored: exactly the values changed, nothing else.
        let expectedFirst = try StudioEditRealm.changed(first, [
            "name": #""First edited""#, "count": "-42", "ratio": "-0.125", "when": #"{"$date": "2025-06-07T08:09:10.011Z"}"#,
            "amount": #"{"$numberDecimal": "99.95"}"#, "ref": #"{"$oid": "0123456789abcdef01234567"}"#,
            "code": #""00000000-0000-4000-8000-000000000001""#, "note": #""hello""#,
            "blob": #"{"$binary": {"base64": "AAEC/w==", "subType": "00"}}"#, "done": "false", "any": #"{"k": [1, "two"]}"#,
            "spec": #"{"label": "s", "size": 7}"#, "numbers": "[20, 3, 4]", "tags": #"["b", "c"]"#, "scores": #"{"x": 3.25, "z": 0.5}"#,
            "owner": #""Grace""#, "related": "null",
        ])
        #expect(try StudioEditRealm.stored(server, "Item", "1") == expectedFirst)
        #expect(try StudioEditRealm.stored(server, "Item", "2") == StudioEditRealm.changed(second, ["owner": #""Owner 09""#, "note": "null"]))
        #expect(try StudioEditRealm.stored(server, "Item", "3") == third)
        #expect(try StudioEditRealm.stored(server, "Shelf", "1") == StudioEditRealm.changed(shelf, ["title": #""Bottom""#]))
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func anObjectIsCreatedFromTheSchemasForm() throws {
        guard StudioBrowser.isReady() else { return }
        let (server, seen) = try Self.walk("studio_create.py")
        #expect(seen["hash"] as? String == "#/r/edits/t/Item/new")
        #expect(seen["fields"] as? [String] == [
            "id int · primary key · required", "name string · required", "count int · required", "ratio double · required",
            "done bool · required", "when date · required", "amount decimal · required", "ref objectId · required",
            "code uuid · required", "blob data? · optional", "note string? · optional", "spec Spec? · optional", "numbers list<int> · empty: none",
            "tags set<string> · empty: none", "scores map<double> · empty: none", "owner Owner? · optional",
            "related Item? · optional", "any mixed · optional",
        ])
        #expect(seen["focused"] as? String == "id")
        #expect(seen["required"] as? [String] == ["id", "name", "count", "ratio", "done", "when", "amount", "ref", "code"])
        #expect(seen["createdHash"] as? String == "#/r/edits/t/Item/k/10")
        #expect(seen["createdFlash"] as? String == "Created Item 10.")
        #expect(seen["createdTitle"] as? String == "Item 10 in edits")
        let expected = try StudioEditRealm.changed([:], [
            "id": "10", "name": #""Made""#, "count": "5", "ratio": "1.5", "done": "true", "when": #"{"$date": "2026-02-03T04:05:06.007Z"}"#,
            "amount": #"{"$numberDecimal": "7.25"}"#, "ref": #"{"$oid": "ffffffffffffffffffffff01"}"#,
            "code": #""11111111-2222-4333-8444-555555555555""#, "blob": "null", "note": "null", "spec": #"{"label": "new", "size": null}"#,
            "numbers": "[8, 9]", "tags": #"["t"]"#, "scores": #"{"k": 1}"#, "owner": #""Ada""#, "related": "null", "any": #""free""#,
        ])
        #expect(try StudioEditRealm.stored(server, "Item", "10") == expected)
        // Refusals are shown at the field they concern, and create nothing.
        #expect(seen["existsRefusal"] as? String == #"Not created: an object of type Owner with primary key "Ada" already exists."#)
        let exists = seen["existsErrors"] as? [[String: String]]
        #expect(exists?.map { $0["label"] ?? "" } == ["name"])
        #expect(exists?.first?["message"]?.hasPrefix("An object with this key exists already.") == true)
        #expect(seen["missingRefusal"] as? String == "Not created: the server refused a value. Nothing was written.")
        #expect(seen["missingErrors"] as? [[String: String]] == [
            ["label": "name", "path": "$.name", "message": "This field needs a value. (missing required property 'name' (string))"]
        ])
        #expect(seen["stillHash"] as? String == "#/r/edits/t/Owner/new")
        #expect(try StudioEditRealm.stored(server, "Owner", "Ada")?["city"] as? String == "London")
        #expect(try server.request("/v1/realms/edits/objects/Owner?limit=1").text.contains(#""count":27"#))
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func aDeletionShowsWhatLinksToTheObjectFirst() throws {
        guard StudioBrowser.isReady() else { return }
        let (server, seen) = try Self.walk("studio_delete.py")
        #expect(seen["title"] as? String == "Delete Item 2?")
        #expect(seen["referrers"] as? [String] == ["Item.related: Item 1", "Shelf.items: Shelf 1"])
        #expect(seen["focusedFirst"] as? String == "delete-cancel")
        #expect(seen["dialogsAfterCancel"] as? Int == 0)
        #expect(seen["focusAfterCancel"] as? String == "delete-object")
        #expect(seen["flash"] as? String == "Deleted Item 2.")
        #expect(seen["hash"] as? String == "#/r/edits/t/Item")
        #expect(seen["keys"] as? [String] == ["1", "3"])
        #expect(seen["notice"] is NSNull)
        #expect(seen["referrers3"] as? [String] == ["Shelf.items: Shelf 1"])
        #expect(seen["dialogsAfterEscape"] as? Int == 0)
        #expect(try server.request("/v1/realms/edits/objects/Item/2").status == 404)
        #expect(try StudioEditRealm.stored(server, "Item", "1")?["related"] is NSNull)
        #expect(try StudioEditRealm.stored(server, "Shelf", "1")?["items"] as? [Int] == [3])
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func aStalePageIsToldOfTheConflictAndOverwritesNothing() throws {
        guard StudioBrowser.isReady() else { return }
        let (server, seen) = try Self.walk("studio_conflict.py")
        #expect(seen["savedA"] as? String == "Saved name.")
        #expect(seen["refusedB"] as? String == "Not saved: someone else changed this Item after you opened it. Nothing was overwritten; "
            + "your edit is still here. Show the current version to see what is stored now, then make your change again.")
        #expect(seen["conflictRole"] as? String == "alert")
        #expect(seen["keptEdit"] as? String == "From B")
        #expect(seen["storedNow"] as? String == "Stored now: From A")
        #expect(seen["reloadButton"] as? String == "Show the current version")
        #expect(seen["focusedB"] as? String == "reload")
        #expect(seen["nameOnB"] as? String == "From A")
        #expect(seen["etagAfter"] as? String != seen["etagBefore"] as? String)
        #expect(seen["deleteRefused"] as? String
            == "Not deleted: someone else changed Item 3 after you opened it. Show the current version, then decide again.")
        let stored = try StudioEditRealm.stored(server, "Item", "3")
        #expect(stored?["name"] as? String == "From A")
        #expect(stored?["count"] as? Int == 8)
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func aRefusedValueIsShownAtItsField() throws {
        guard StudioBrowser.isReady() else { return }
        let realm = try StudioEditRealm()
        let server = try realm.fixture.serve(["edits.realm"])
        let before = try StudioEditRealm.stored(server, "Item", "3")
        let seen = try StudioBrowser.observe("studio_field_error.py", ["http://127.0.0.1:\(server.port)"])
        func marked(_ name: String) -> [[String: String]] { (seen[name] as? [String: Any])?["marked"] as? [[String: String]] ?? [] }
        func said(_ name: String) -> String? { (seen[name] as? [String: Any])?["said"] as? String }

        let refused = "Not saved: the server refused a value. Nothing was written."
        #expect(said("count") == refused)
        #expect(marked("count") == [["label": "count", "path": "$.count", "message": #"This field needs a whole number. (expected int, found string "abc")"#]])
        #expect((seen["count"] as? [String: Any])?["focused"] as? String == "count")
        #expect(seen["countAfterCancel"] as? String == "7")
        #expect(marked("ratio") == [["label": "ratio", "path": "$.ratio",
            "message": "This number is too large or too small for this field. (expected double, found number 1e400 (out of double range))"]])
        #expect(marked("when") == [["label": "when", "path": "$.when.$date",
            "message": #"This field needs a date such as 2024-03-01T09:30:00Z. (expected an ISO-8601 date, found string "yesterday")"#]])
        #expect(marked("scores") == [["label": "scores value for x", "path": "$.scores.x",
            "message": #"This field needs a number. (expected double, found string "lots")"#]])
        #expect(marked("spec") == [["label": "spec size", "path": "$.spec.size",
            "message": #"This field needs a whole number. (expected int, found string "big")"#]])
        #expect(said("any") == "Not saved: a value is not complete.")
        #expect(marked("any").first?["label"] == "any" && marked("any").first?["message"]?.hasPrefix("This is not JSON (") == true)
        #expect(marked("numbers") == [["label": "numbers item 1", "path": "$.numbers[0]",
            "message": "This number is too large or too small for this field. (expected int, found number 9223372036854775808 (out of Int64 range))"]])
        #expect(seen["deletedElsewhere"] as? Int == 204)
        #expect(said("owner") == refused)
        #expect(marked("owner") == [["label": "choose owner", "path": "$.owner",
            "message": #"There is no object with that key to link to. (no Owner with primary key "Owner 25" in the realm or this input)"#]])
        #expect(try StudioEditRealm.stored(server, "Item", "3") == before)
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func theKeyboardAloneEditsAndCreates() throws {
        guard StudioBrowser.isReady() else { return }
        let (server, seen) = try Self.walk("studio_keyboard.py")
        func focus(_ key: String) -> String? { (seen[key] as? [String: Any])?["name"] as? String }
        func outlined(_ key: String) -> Bool { (seen[key] as? [String: Any])?["outline"] as? Bool == true }
        func inDialog(_ key: String) -> Bool { (seen[key] as? [String: Any])?["inDialog"] as? Bool == true }

        #expect(focus("editButton") == "edit name" && outlined("editButton"))
        #expect(focus("editorFocus") == "name" && outlined("editorFocus"))
        #expect(seen["savedFlash"] as? String == "Saved name.")
        #expect(focus("afterSave") == "edit name")
        #expect(focus("afterEscape") == "edit count")
        #expect(seen["countShown"] as? String == "3")
        #expect(focus("linkEditorFocus") == "choose owner")
        #expect(focus("chooserFocus") == "search Owner objects" && inDialog("chooserFocus"))
        // Tab and Shift+Tab stay in the dialog.
        #expect(focus("wrappedBack") == "chooser-cancel" && inDialog("wrappedBack"))
        #expect(focus("wrappedForward") == "search Owner objects")
        #expect(focus("choiceFocus") == "Owner Grace · Arlington" && outlined("choiceFocus"))
        #expect(focus("afterChoice") == "choose owner" && !inDialog("afterChoice"))
        #expect(seen["chosen"] as? String == "Owner Grace")
        #expect(seen["ownerFlash"] as? String == "Saved owner.")
        #expect(focus("deleteFocus") == "delete-cancel" && inDialog("deleteFocus"))
        #expect(focus("afterDeleteEscape") == "delete-object")
        #expect(seen["deleteDialogs"] as? Int == 0)
        #expect(focus("createFocus") == "name" && outlined("createFocus"))
        #expect(focus("secondField") == "city")
        #expect(seen["createdHash"] as? String == "#/r/edits/t/Owner/k/Keyboard")
        #expect(seen["createdFlash"] as? String == "Created Owner Keyboard.")
        let item = try StudioEditRealm.stored(server, "Item", "1")
        #expect(item?["name"] as? String == "Typed by keys" && item?["count"] as? Int == 3 && item?["owner"] as? String == "Grace")
        #expect(try StudioEditRealm.stored(server, "Owner", "Keyboard") == StudioEditRealm.changed([:], ["name": #""Keyboard""#, "city": #""Oslo""#]))
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func aReadOnlyTokenIsToldPlainlyAndOfferedNoEditing() throws {
        guard StudioBrowser.isReady() else { return }
        let realm = try StudioEditRealm()
        let made = try Fixtures.run(realm.fixture.kura, ["token", "new", "reader", "--scope", "read"])
        let lines = made.stdout.split(separator: "\n").map(String.init)
        let token = try #require(lines.first)
        try realm.fixture.writeConfig("server:\n  tokens:\n" + lines.dropFirst().map { "    \($0)\n" }.joined())
        let server = try realm.fixture.serve(["edits.realm"])
        let seen = try StudioBrowser.observe("studio_readonly.py", ["http://127.0.0.1:\(server.port)", token])
        #expect((seen["refused"] as? String)?.hasPrefix("Not saved: this token can only read, so Studio cannot change objects with it.") == true)
        #expect((seen["refused"] as? String)?.contains("token 'reader' has scope read; this needs write") == true)
        #expect(seen["tokenDialogShown"] as? Bool == false)
        #expect(seen["keptEdit"] as? String == "Not allowed")
        #expect(seen["editButtons"] as? Int == 0 && seen["deleteButtons"] as? Int == 0)
        #expect(seen["note"] as? String == "This token can only read: Studio offers no editing with it. The Token button above uses another one.")
        #expect(seen["newLinks"] as? Int == 0 && seen["createForms"] as? Int == 0)
        #expect(seen["createNote"] as? String == "This token can only read: Studio creates no objects with it. The Token button above uses another one.")
        #expect(try StudioEditRealm.stored(server, "Item", "1", token: token)?["name"] as? String == "First")
        #expect(seen["problems"] as? [String] == [])
    }

    @Test func theEditingScreensFitAPhone() throws {
        guard StudioBrowser.isReady() else { return }
        // KURA_STUDIO_SCREENSHOTS names a folder for the screenshots of every screen at both widths.
        let shots = ProcessInfo.processInfo.environment["KURA_STUDIO_SCREENSHOTS"].map { [$0] } ?? []
        let (_, seen) = try Self.walk("studio_edit_layout.py", shots)
        for screen in ["edit", "chooser", "create", "delete", "conflict", "error"] {
            for width in [1280, 390] {
                let measured = seen["\(screen)@\(width)"] as? [String: Int]
                #expect(measured == ["width": width, "dialogOverflow": 0], "\(screen) at \(width) px: \(measured ?? [:])")
            }
        }
        #expect(seen["problems"] as? [String] == [])
    }
}
