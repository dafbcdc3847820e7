#!/usr/bin/env python3
"""Walks through Kura Studio in Debian's chromium as a new user would, and prints what it saw as JSON.

usage: studio_walk.py BASE_URL TOKEN FOLDER

The server (started by StudioBrowserTests) serves `zoo` (the sample people), `fresh` (empty) and
`many` (120 people), and has tokens, so the page first asks for one. FOLDER holds the sample files
to import and receives the downloaded export. The Swift test asserts on the printed observations;
this script only acts and reads the page.
"""
import json
import sys

from studio_page import backlink_groups, studio_page, texts, wait_until

base, token, folder = sys.argv[1], sys.argv[2], sys.argv[3]
seen = {}
problems = []


def column(page, index):
    return texts(page, f"table.objects tbody tr td:nth-child({index})")


def go(page, hash_route, wait_for):
    page.goto(base + "/" + hash_route)
    page.wait_for_selector(wait_for)


with studio_page(problems, expected_statuses=(400, 401, 422)) as page:
    # The token: asked for, then the realms with their counts.
    page.goto(base + "/")
    page.wait_for_selector("#token-dialog:not([hidden])")
    seen["tokenReason"] = page.inner_text("#token-reason")
    seen["tokenHelp"] = page.inner_text("#token-help")
    page.fill("#token-input", token)
    page.click("#token-save")
    page.wait_for_selector("#realm-list ul.realms")
    seen["sidebarRealms"] = texts(page, "#realm-list a.realm")
    # The cards with their counts come from a request of their own, after the sidebar's.
    page.wait_for_selector("section.card[data-realm=zoo] table.counts tr")
    seen["zooCounts"] = texts(page, "section.card[data-realm=zoo] table.counts tr")

    # A type's objects: the table, sorting by a header, a predicate, a bad predicate.
    go(page, "#/r/zoo/t/Person", "table.objects")
    seen["personHeaders"] = texts(page, "table.objects thead th")
    seen["personNames"] = column(page, 2)
    seen["personStatus"] = page.inner_text("#page-status")
    first_dogs = "table.objects tbody tr:first-child td:nth-child(3)"
    seen["foldedDogs"] = texts(page, first_dogs + " details > summary")
    page.click(first_dogs + " details > summary")
    seen["unfoldedDog"] = texts(page, first_dogs + " details[open] > .nested > .field > .name")
    page.click("table.objects thead th:nth-child(2) button.sort")
    page.wait_for_selector("th.sorted-asc")
    page.click("table.objects thead th:nth-child(2) button.sort")
    page.wait_for_selector("th.sorted-desc")
    seen["namesDescending"] = column(page, 2)
    page.fill("#where", "name BEGINSWITH 'A' OR name == 'Chen'")
    page.press("#where", "Enter")
    wait_until(page, lambda: "of 2" in page.inner_text("#page-status"), "the filtered page")
    seen["filteredNames"] = column(page, 2)
    seen["filteredStatus"] = page.inner_text("#page-status")
    page.fill("#where", "nme == 'x'")
    page.click("#where-apply")
    page.wait_for_selector("#where-error .message.error")
    seen["badPredicate"] = page.inner_text("#where-error .message.error")
    page.fill("#where", "name == '😀' AND agé > 3")
    page.click("#where-apply")
    page.wait_for_selector("#where-error .where-mark mark")
    seen["markedPredicate"] = [page.inner_text("#where-error .where-mark"), page.inner_text("#where-error .where-mark mark")]
    seen["markedSelection"] = page.evaluate(
        "[document.activeElement.id, document.activeElement.selectionStart, document.activeElement.selectionEnd].join(' ')")

    # Links and backlinks: Alice's best friend by a click, then who links to Bob.
    go(page, "#/r/zoo/t/Person", "table.objects")
    page.click("table.objects tbody tr:first-child td:nth-child(5) a.link")
    wait_until(page, lambda: page.locator("#backlinks .backlink-group").count() == 2
               and page.locator("#backlinks .backlink-group > :is(ul, p)").count() == 2, "the backlinks")
    seen["linkedHash"] = page.evaluate("location.hash")
    seen["linkedTitle"] = page.inner_text("h1")
    seen["backlinks"] = backlink_groups(page)
    page.click("#backlinks a.link")
    page.wait_for_selector("#backlinks .backlink-group")
    wait_until(page, lambda: page.inner_text("h1").startswith("Person 1"), "the backlink's object")
    seen["backlinkTitle"] = page.inner_text("h1")
    seen["nestedShown"] = texts(page, "table.object .nested > .type")

    # Paging through 120 objects 50 at a time.
    go(page, "#/r/many/t/Person", "#page-status")
    pages = [page.inner_text("#page-status")]
    for button in ["#page-next", "#page-next", "#page-previous"]:
        before = page.inner_text("#page-status")
        page.click(button)
        wait_until(page, lambda: page.inner_text("#page-status") != before, "the page after " + button)
        pages.append(page.inner_text("#page-status"))
    seen["pages"] = pages

    # The schema diagram.
    go(page, "#/r/zoo/schema", "svg.schema-diagram")
    seen["diagramTypes"] = sorted(page.eval_on_selector_all("svg.schema-diagram a.type-box", "nodes => nodes.map(n => n.dataset.type)"))
    seen["diagramArrows"] = sorted(page.eval_on_selector_all("svg.schema-diagram path.arrow", "nodes => nodes.map(n => n.getAttribute('class') + ' ' + n.textContent)"))

    # Import: a bad file chosen, then the good one dropped. The tab has lost its token first: the
    # import ends with 401, and the page asks for the token with nothing left of the import's
    # progress behind the question; given the token, the import runs again.
    go(page, "#/r/fresh/transfer?type=Person", "#import-file")
    page.evaluate("sessionStorage.removeItem('kura.token')")
    page.set_input_files("#import-file", folder + "/bad-people.json")
    page.click("#import-start")
    page.wait_for_selector("#token-dialog:not([hidden])")
    seen["importTokenReason"] = page.inner_text("#token-reason")
    seen["importStatusAsked"] = [page.inner_text("#import-status"), page.inner_text("#import-read")]
    page.fill("#token-input", token)
    page.click("#token-save")
    page.wait_for_selector("#import-errors")
    seen["importStatusAfterError"] = [page.inner_text("#import-status"), page.inner_text("#import-read")]
    seen["importErrorSummary"] = page.inner_text("#import-result .message.error")
    seen["importErrors"] = [texts(page, f"#import-errors tbody tr:nth-child({n}) td") for n in range(1, page.locator("#import-errors tbody tr").count() + 1)]
    seen["freshAfterBadImport"] = page.evaluate(
        "fetch('/v1/realms', {headers: {Authorization: 'Bearer ' + sessionStorage.getItem('kura.token')}})"
        ".then(r => r.json()).then(b => b.realms.find(r => r.name === 'fresh').counts)")
    with open(folder + "/people.json", encoding="utf-8") as file:
        people = file.read()
    page.evaluate("""text => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'people.json', {type: 'application/json'}));
        const zone = document.getElementById('drop-zone');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: transfer, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true, cancelable: true}));
    }""", people)
    seen["droppedFile"] = page.inner_text("#import-file-name")
    page.click("#import-start")
    page.wait_for_selector("#import-result table.summary")
    seen["importStatus"] = page.inner_text("#import-status")
    seen["importSummary"] = texts(page, "#import-result table.summary tbody tr")
    fresh_person = page.locator("#realm-list a[href='#/r/fresh/t/Person']")
    wait_until(page, lambda: fresh_person.count() == 1 and "3" in fresh_person.inner_text(), "the sidebar's new count")
    seen["progressValue"] = page.get_attribute("#import-progress", "value")

    # Export: the fresh realm's people as JSON Lines, downloaded.
    page.select_option("#export-type", "Person")
    page.select_option("#export-format", "jsonl")
    with page.expect_download() as download_info:
        page.click("#export-start")
    download = download_info.value
    seen["downloadName"] = download.suggested_filename
    download.save_as(folder + "/studio-export.jsonl")
    seen["exportStatus"] = page.inner_text("#export-status")

    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
