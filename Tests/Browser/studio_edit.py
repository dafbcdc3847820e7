#!/usr/bin/env python3
"""Edits values of every kind on object pages of Kura Studio, and prints what the page said as JSON.

usage: studio_edit.py BASE_URL

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens.
Item 1 gets a new value in each scalar of several types, in an embedded object's field, in a list,
a set and a map, a link chosen by a search in the chooser, and a link cleared; Item 2 gets a link
chosen from the chooser's second page and its optional text set to null; the shelf, which has no
primary key, gets a new title. The Swift test reads the stored documents.
"""
import json
import sys

from studio_editing import edit, open_object, save, shown_value
from studio_page import studio_page, texts, wait_until

base = sys.argv[1]
seen = {"saved": {}}
problems = []


def set_text(page, name, text):
    form = edit(page, name)
    page.fill(form + " input[type=text]", text)
    seen["saved"][name] = save(page, name)


with studio_page(problems) as page:
    open_object(page, base, "#/r/edits/t/Item/k/1")
    seen["editButtons"] = page.eval_on_selector_all("button.edit", "buttons => buttons.map(b => b.dataset.edit)")
    seen["keyNote"] = page.inner_text("tr[data-property=id] th")
    # Scalars of each kind, each saved with its own PATCH.
    set_text(page, "name", "First edited")
    set_text(page, "count", "-42")
    set_text(page, "ratio", "-0.125")
    set_text(page, "when", "2025-06-07T08:09:10.011Z")
    set_text(page, "amount", "99.95")
    set_text(page, "ref", "0123456789abcdef01234567")
    set_text(page, "code", "00000000-0000-4000-8000-000000000001")
    set_text(page, "note", "hello")
    set_text(page, "blob", "AAEC/w==")
    form = edit(page, "done")
    page.select_option(form + " select", "false")
    seen["saved"]["done"] = save(page, "done")
    form = edit(page, "any")
    page.fill(form + " textarea", '{"k": [1, "two"]}')
    seen["saved"]["any"] = save(page, "any")
    # An embedded object's field.
    form = edit(page, "spec")
    seen["specLabels"] = page.eval_on_selector_all(form + " input", "inputs => inputs.map(i => i.getAttribute('aria-label'))")
    page.fill(form + " input[aria-label='spec size']", "7")
    seen["saved"]["spec"] = save(page, "spec")
    # A list: the second item changed, the first removed, one added.
    form = edit(page, "numbers")
    page.fill(form + " li:nth-child(2) input", "20")
    page.click(form + " li:nth-child(1) button.remove")
    page.click(form + " button.add")
    page.fill(form + " li:nth-child(3) input", "4")
    seen["numberLabels"] = page.eval_on_selector_all(form + " button.remove", "buttons => buttons.map(b => b.getAttribute('aria-label'))")
    seen["saved"]["numbers"] = save(page, "numbers")
    # A set: one element added, one removed.
    form = edit(page, "tags")
    page.click(form + " button.add")
    page.fill(form + " li:nth-child(3) input", "c")
    page.click(form + " li:nth-child(1) button.remove")
    seen["saved"]["tags"] = save(page, "tags")
    # A map: a value changed, a key removed, a key added.
    form = edit(page, "scores")
    page.fill(form + " .map-entry:nth-child(1) .scalar-editor input", "3.25")
    page.click(form + " .map-entry:nth-child(2) button.remove")
    page.click(form + " button.add")
    page.fill(form + " .map-entry:nth-child(2) input.map-key", "z")
    page.fill(form + " .map-entry:nth-child(2) .scalar-editor input", "0.5")
    seen["saved"]["scores"] = save(page, "scores")
    # A link chosen by a search in the chooser.
    form = edit(page, "owner")
    page.click(form + " button.choose")
    page.wait_for_selector("#chooser .choice")
    seen["chooserTitle"] = page.inner_text("#chooser h2")
    seen["chooserFirst"] = page.inner_text("#chooser-status")
    page.fill("#chooser-search", "grac")
    wait_until(page, lambda: page.locator("#chooser .choice").count() == 1, "the search's one match")
    seen["chooserFound"] = texts(page, "#chooser .choice")
    page.click("#chooser .choice")
    seen["chosen"] = page.inner_text(form + " .link-target")
    seen["saved"]["owner"] = save(page, "owner")
    # An optional link cleared.
    form = edit(page, "related")
    page.click(form + " button.clear")
    seen["saved"]["related"] = save(page, "related")
    # The change stream reports each of these saves; none is news to the page that made it.
    page.wait_for_timeout(1000)
    seen["noticeAfterOwnSaves"] = page.inner_text("#changed-text") if page.is_visible("#changed-notice") else None
    seen["shownAfter"] = {name: shown_value(page, name) for name in ["name", "spec", "numbers", "tags", "scores", "owner", "related"]}

    # Item 2: a link from the chooser's second page, and an optional value set to null.
    open_object(page, base, "#/r/edits/t/Item/k/2")
    form = edit(page, "owner")
    page.click(form + " button.choose")
    wait_until(page, lambda: page.locator("#chooser .choice").count() == 10, "the chooser's first page")
    page.click("#chooser-next")
    wait_until(page, lambda: page.inner_text("#chooser-status").startswith("Owner 11"), "the chooser's second page")
    seen["chooserSecond"] = page.inner_text("#chooser-status")
    seen["secondPage"] = texts(page, "#chooser .choice")[:2]
    page.click("#chooser .choice >> nth=0")
    seen["saved"]["owner2"] = save(page, "owner")
    form = edit(page, "note")
    page.check(form + " .null-toggle input")
    seen["saved"]["note2"] = save(page, "note")

    # An object without a primary key, named by its object id: its text edited, its links to
    # items (which have keys) left as they are.
    open_object(page, base, "#/r/edits/t/Shelf/k/1")
    set_text(page, "title", "Bottom")
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
