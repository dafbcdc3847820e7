#!/usr/bin/env python3
"""Measures Kura Studio's editing screens on a desktop and on a phone, and prints their widths as
JSON.

usage: studio_edit_layout.py BASE_URL [SCREENSHOT_FOLDER]

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens.
Each screen: an object's page with a map being edited, the new object form, the delete dialog with
its backlinks, the chooser, a conflict (another client changes the object through the API first)
and a refused value. With SCREENSHOT_FOLDER, a screenshot of each at each size is saved there.
"""
import json
import sys
import urllib.request

from studio_editing import edit, open_object, save
from studio_page import studio_page, wait_until

base = sys.argv[1]
shots = sys.argv[2] if len(sys.argv) > 2 else None
seen = {}
problems = []

# The page's width, and how far any dialog reaches past the screen's right edge.
MEASURE = """() => {
    const dialog = document.querySelector(".dialog:not([hidden]) .dialog-body");
    return {width: document.scrollingElement.scrollWidth,
            dialogOverflow: dialog ? Math.max(0, Math.ceil(dialog.getBoundingClientRect().right - window.innerWidth)) : 0};
}"""


def patch_elsewhere(name):
    request = urllib.request.Request(base + "/v1/realms/edits/objects/Item/3", data=json.dumps({"name": name}).encode(),
                                     method="PATCH", headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request).read()


def measure(page, screen, width):
    seen[f"{screen}@{width}"] = page.evaluate(MEASURE)
    if shots:
        # A dialog covers the screen, not the whole page: the screen is what a person sees.
        page.screenshot(path=f"{shots}/{screen}-{width}.png", full_page=page.locator(".dialog:not([hidden])").count() == 0)


with studio_page(problems, expected_statuses=(412, 422)) as page:
    for width, height in [(1280, 800), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        open_object(page, base, "#/r/edits/t/Item/k/1")
        edit(page, "scores")
        measure(page, "edit", width)
        form = edit(page, "owner")
        page.click(form + " button.choose")
        wait_until(page, lambda: page.locator("#chooser .choice").count() == 10, "the chooser")
        measure(page, "chooser", width)
        page.click("#chooser-cancel")

        page.goto(base + "/#/r/edits/t/Item/new")
        page.wait_for_selector("#create-form")
        measure(page, "create", width)

        open_object(page, base, "#/r/edits/t/Item/k/2")
        page.click("#delete-object")
        wait_until(page, lambda: page.locator("#delete-backlinks li").count() == 2, "the delete dialog's backlinks")
        measure(page, "delete", width)
        page.click("#delete-cancel")

        open_object(page, base, "#/r/edits/t/Item/k/3")
        patch_elsewhere(f"Changed elsewhere at {width}")
        form = edit(page, "name")
        page.fill(form + " input", "Mine")
        save(page, "name")
        wait_until(page, lambda: page.locator(form + " .stored-now").count() == 1, "the conflict's stored value")
        measure(page, "conflict", width)

        open_object(page, base, "#/r/edits/t/Item/k/3")
        form = edit(page, "numbers")
        page.fill(form + " li:nth-child(1) input", "abc")
        save(page, "numbers")
        measure(page, "error", width)
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
