#!/usr/bin/env python3
"""Creates objects in Kura Studio from the form its schema gives, and prints what the page said as JSON.

usage: studio_create.py BASE_URL

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens.
Item 10 is created with a value in every kind of field (a link chosen in the chooser, an embedded
object, a list, a set and a map); then two Owners the server refuses: one whose key exists, one
without its required key.
"""
import json
import sys

from studio_editing import field_errors
from studio_page import studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []

with studio_page(problems, expected_statuses=(409, 422)) as page:
    page.goto(base + "/#/r/edits/t/Item")
    page.wait_for_selector("table.objects tbody tr")
    page.click("#new-object")
    page.wait_for_selector("#create-form")
    seen["hash"] = page.evaluate("location.hash")
    seen["fields"] = page.eval_on_selector_all("#create-form .create-field", """fields => fields.map(field =>
        field.querySelector(".create-label").innerText.replace(/\\s+/g, " ").trim())""")
    seen["focused"] = page.evaluate("document.activeElement.labels && document.activeElement.labels[0] ? document.activeElement.labels[0].innerText : ''")
    seen["required"] = page.eval_on_selector_all("#create-form [aria-required=true]", "inputs => inputs.map(i => i.labels[0].innerText)")
    field = lambda name: f"#create-form .create-field[data-property='{name}']"
    for name, text in [("id", "10"), ("name", "Made"), ("count", "5"), ("ratio", "1.5"), ("when", "2026-02-03T04:05:06.007Z"),
                       ("amount", "7.25"), ("ref", "ffffffffffffffffffffff01"), ("code", "11111111-2222-4333-8444-555555555555")]:
        page.fill(field(name) + " input", text)
    page.select_option(field("done") + " select", "true")
    page.fill(field("spec") + " input[aria-label='spec label']", "new")
    page.click(field("numbers") + " button.add")
    page.fill(field("numbers") + " li:nth-child(1) input", "8")
    page.click(field("numbers") + " button.add")
    page.fill(field("numbers") + " li:nth-child(2) input", "9")
    page.click(field("tags") + " button.add")
    page.fill(field("tags") + " li:nth-child(1) input", "t")
    page.click(field("scores") + " button.add")
    page.fill(field("scores") + " input.map-key", "k")
    page.fill(field("scores") + " .map-entry .scalar-editor input", "1")
    page.click(field("owner") + " button.choose")
    page.fill("#chooser-search", "ada")
    wait_until(page, lambda: page.locator("#chooser .choice").count() == 1, "Ada in the chooser")
    page.click("#chooser .choice")
    page.fill(field("any") + " textarea", '"free"')
    page.click("#create-save")
    wait_until(page, lambda: page.locator("#flash").count() == 1, "the created object's page")
    seen["createdHash"] = page.evaluate("location.hash")
    seen["createdFlash"] = page.inner_text("#flash")
    seen["createdTitle"] = page.inner_text("h1")

    # An Owner whose key exists: refused, the key's field marked.
    page.goto(base + "/#/r/edits/t/Owner/new")
    page.wait_for_selector("#create-form")
    page.fill(field("name") + " input", "Ada")
    page.fill(field("city") + " input", "Paris")
    page.click("#create-save")
    page.wait_for_selector("#create-form .refusal")
    seen["existsRefusal"] = page.inner_text("#create-form .refusal p")
    seen["existsErrors"] = field_errors(page)
    # One without its required key: the server names the missing property, marked at its field.
    page.fill(field("name") + " input", "")
    page.click("#create-save")
    wait_until(page, lambda: "refused a value" in page.inner_text("#create-form .edit-status"), "the missing key's refusal")
    seen["missingRefusal"] = page.inner_text("#create-form .refusal p")
    seen["missingErrors"] = field_errors(page)
    seen["stillHash"] = page.evaluate("location.hash")
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
