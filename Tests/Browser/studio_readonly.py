#!/usr/bin/env python3
"""Tries to edit in Kura Studio with a token that can only read, and prints what the page said as
JSON.

usage: studio_readonly.py BASE_URL TOKEN

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) and has one
token, of scope read. The first write is refused with 403; Studio says why, and from then on
offers no editing with that token.
"""
import json
import sys

from studio_editing import edit, open_object, save
from studio_page import studio_page

base, token = sys.argv[1], sys.argv[2]
seen = {}
problems = []

with studio_page(problems, expected_statuses=(401, 403)) as page:
    page.goto(base + "/#/r/edits/t/Item/k/1")
    page.wait_for_selector("#token-dialog:not([hidden])")
    page.fill("#token-input", token)
    page.click("#token-save")
    open_object(page, base, "#/r/edits/t/Item/k/1")
    form = edit(page, "name")
    page.fill(form + " input", "Not allowed")
    seen["refused"] = save(page, "name")
    seen["tokenDialogShown"] = page.is_visible("#token-dialog")
    seen["keptEdit"] = page.input_value(form + " input")
    page.reload()
    open_object(page, base, "#/r/edits/t/Item/k/1")
    seen["editButtons"] = page.locator("button.edit").count()
    seen["deleteButtons"] = page.locator("#delete-object").count()
    seen["note"] = page.inner_text("#object-actions")
    page.goto(base + "/#/r/edits/t/Item")
    page.wait_for_selector("table.objects tbody tr")
    seen["newLinks"] = page.locator("#new-object").count()
    page.goto(base + "/#/r/edits/t/Item/new")
    page.wait_for_selector(".view .message")
    seen["createNote"] = page.inner_text(".view .message")
    seen["createForms"] = page.locator("#create-form").count()
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
