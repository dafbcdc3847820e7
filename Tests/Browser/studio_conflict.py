#!/usr/bin/env python3
"""Two people edit one object in Kura Studio at once, and this prints what each page said as JSON.

usage: studio_conflict.py BASE_URL

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens.
Pages A and B (two browser contexts) open Item 3. A saves a new name; B, still holding the ETag it
read, saves another: B must be told, keep its edit, and overwrite nothing. B then shows the current
version. Last, B asks to delete Item 3 after A changed it again: refused the same way.
"""
import json
import sys

from studio_editing import edit, open_object, save, shown_value
from studio_page import studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []

with studio_page(problems, expected_statuses=(412,)) as a:
    other = a.context.browser.new_context()
    b = other.new_page()
    b.on("pageerror", lambda error: problems.append("B pageerror: " + str(error)))
    open_object(a, base, "#/r/edits/t/Item/k/3")
    open_object(b, base, "#/r/edits/t/Item/k/3")
    seen["etagBefore"] = b.inner_text("p.meta code")
    form_a = edit(a, "name")
    a.fill(form_a + " input", "From A")
    seen["savedA"] = save(a, "name")
    form_b = edit(b, "name")
    b.fill(form_b + " input", "From B")
    seen["refusedB"] = save(b, "name")
    seen["conflictRole"] = b.get_attribute(form_b + " .refusal", "role")
    seen["keptEdit"] = b.input_value(form_b + " input")
    wait_until(b, lambda: b.locator(form_b + " .stored-now").count() == 1, "the stored value under the conflict")
    seen["storedNow"] = " ".join(b.inner_text(form_b + " .stored-now").split())
    seen["reloadButton"] = b.inner_text(form_b + " button.reload")
    seen["focusedB"] = b.evaluate("document.activeElement.className")
    b.click(form_b + " button.reload")
    wait_until(b, lambda: b.locator("[data-editing]").count() == 0 and shown_value(b, "name") == "From A", "the current version on B")
    seen["nameOnB"] = shown_value(b, "name")
    seen["etagAfter"] = b.inner_text("p.meta code")

    # A deletion from a stale page is refused too.
    form_a = edit(a, "count")
    a.fill(form_a + " input", "8")
    seen["savedA2"] = save(a, "count")
    b.click("#delete-object")
    b.click("#delete-confirm")
    b.wait_for_selector("#delete-dialog .refusal")
    seen["deleteRefused"] = b.inner_text("#delete-dialog .refusal p")
    other.close()
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
