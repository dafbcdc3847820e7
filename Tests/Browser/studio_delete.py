#!/usr/bin/env python3
"""Deletes an object in Kura Studio after reading what links to it, and prints what the page said
as JSON.

usage: studio_delete.py BASE_URL

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens:
Item 2 is linked from Item 1 (related) and from the shelf (items). The first confirmation is
cancelled, the second deletes.
"""
import json
import sys

from studio_editing import open_object
from studio_page import studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []

with studio_page(problems) as page:
    open_object(page, base, "#/r/edits/t/Item/k/2")
    page.click("#delete-object")
    page.wait_for_selector("#delete-dialog")
    wait_until(page, lambda: page.locator("#delete-backlinks .loading").count() == 0, "the backlinks in the dialog")
    seen["title"] = page.inner_text("#delete-dialog h2")
    seen["referrers"] = texts(page, "#delete-backlinks li")
    seen["focusedFirst"] = page.evaluate("document.activeElement.id")
    page.click("#delete-cancel")
    seen["dialogsAfterCancel"] = page.locator("#delete-dialog").count()
    seen["focusAfterCancel"] = page.evaluate("document.activeElement.id")
    page.click("#delete-object")
    page.wait_for_selector("#delete-confirm")
    page.click("#delete-confirm")
    wait_until(page, lambda: page.locator("#flash").count() == 1, "the table after the deletion")
    seen["flash"] = page.inner_text("#flash")
    seen["hash"] = page.evaluate("location.hash")
    page.wait_for_selector("table.objects tbody tr")
    seen["keys"] = texts(page, "table.objects tbody td.key")
    # The live stream's report of this deletion is no news to the table.
    page.wait_for_timeout(1500)
    seen["notice"] = page.inner_text("#changed-text") if page.is_visible("#changed-notice") else None
    open_object(page, base, "#/r/edits/t/Item/k/3")
    page.click("#delete-object")
    wait_until(page, lambda: page.locator("#delete-backlinks .loading").count() == 0, "Item 3's backlinks")
    seen["referrers3"] = texts(page, "#delete-backlinks li")
    page.keyboard.press("Escape")
    seen["dialogsAfterEscape"] = page.locator("#delete-dialog").count()
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
