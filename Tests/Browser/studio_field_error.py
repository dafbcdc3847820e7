#!/usr/bin/env python3
"""Sends values the server refuses from Kura Studio's editors, and prints where and how each
refusal was shown, as JSON.

usage: studio_field_error.py BASE_URL

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens.
On Item 3: text for an int, an int past 64 bits, a bad date, a map value that is not a number, an
embedded field that is not an int, text that is not JSON for a mixed value, a list item past 64 bits,
and a link to an owner another client deletes before the save. Nothing may be written.
"""
import json
import sys
import urllib.request

from studio_editing import edit, field_errors, open_object, save
from studio_page import studio_page, wait_until

base = sys.argv[1]
seen = {}
problems = []


def refuse(page, name, fill):
    """Opens the editor of `name`, lets `fill` change it, saves; records what was said and
    marked, and cancels the edit."""
    form = edit(page, name)
    fill(form)
    said = save(page, name)
    seen[name] = {"said": said, "marked": field_errors(page),
                  "focused": page.evaluate("document.activeElement.getAttribute('aria-label') || ''")}
    page.click(form + " button.cancel")


with studio_page(problems, expected_statuses=(422,)) as page:
    open_object(page, base, "#/r/edits/t/Item/k/3")
    refuse(page, "count", lambda form: page.fill(form + " input", "abc"))
    seen["countAfterCancel"] = page.inner_text("tr[data-property=count] > td")
    refuse(page, "ratio", lambda form: page.fill(form + " input", "1e400"))
    refuse(page, "when", lambda form: page.fill(form + " input", "yesterday"))
    refuse(page, "scores", lambda form: page.fill(form + " .map-entry .scalar-editor input", "lots"))
    refuse(page, "spec", lambda form: page.fill(form + " input[aria-label='spec size']", "big"))
    refuse(page, "any", lambda form: page.fill(form + " textarea", "{not json"))
    form = edit(page, "numbers")
    page.fill(form + " li:nth-child(1) input", "9223372036854775808")
    seen["numbers"] = {"said": save(page, "numbers"), "marked": field_errors(page)}
    page.click(form + " button.cancel")
    # A link to an owner another client deletes before the save.
    form = edit(page, "owner")
    page.click(form + " button.choose")
    page.fill("#chooser-search", "Owner 25")
    wait_until(page, lambda: page.locator("#chooser .choice").count() == 1, "Owner 25 in the chooser")
    page.click("#chooser .choice")
    gone = urllib.request.Request(base + "/v1/realms/edits/objects/Owner/Owner%2025", method="DELETE")
    seen["deletedElsewhere"] = urllib.request.urlopen(gone).status
    seen["owner"] = {"said": save(page, "owner"), "marked": field_errors(page)}
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
