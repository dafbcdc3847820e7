#!/usr/bin/env python3
"""Edits, chooses a link, opens and leaves a dialog, and creates an object in Kura Studio with the
keyboard alone (no click), and prints what had the focus at each step as JSON.

usage: studio_keyboard.py BASE_URL

The server (started by StudioEditBrowserTests) serves `edits` (StudioEditRealm) without tokens.
"""
import json
import sys

from studio_editing import open_object
from studio_page import studio_page, wait_until

base = sys.argv[1]
seen = {"steps": []}
problems = []

FOCUS = """() => {
    const item = document.activeElement;
    const style = getComputedStyle(item);
    const label = item.labels && item.labels.length ? item.labels[0].innerText : "";
    return {name: item.getAttribute("aria-label") || label || item.id || item.textContent.trim().slice(0, 40), tag: item.tagName.toLowerCase(),
            outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 1,
            inDialog: !!item.closest(".dialog")};
}"""


def focus(page):
    return page.evaluate(FOCUS)


def tab_to(page, name, backwards=False):
    """Presses Tab (or Shift+Tab) until the element named `name` has the focus; records how many."""
    for count in range(1, 120):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        now = focus(page)
        if now["name"] == name:
            seen["steps"].append(f"{count} tabs to {name}")
            return now
    raise AssertionError("Tab never reached " + name)


with studio_page(problems) as page:
    open_object(page, base, "#/r/edits/t/Item/k/1")
    # An edit: Enter opens the editor, the typing replaces the value, Enter saves.
    seen["editButton"] = tab_to(page, "edit name")
    page.keyboard.press("Enter")
    seen["editorFocus"] = focus(page)
    page.keyboard.press("Control+A")
    page.keyboard.type("Typed by keys")
    page.keyboard.press("Enter")
    wait_until(page, lambda: page.locator("#flash").count() == 1, "the saved name")
    seen["savedFlash"] = page.inner_text("#flash")
    seen["afterSave"] = focus(page)
    # Escape leaves an edit unsaved and gives the focus back to its Edit button.
    tab_to(page, "edit count")
    page.keyboard.press("Enter")
    page.keyboard.press("Control+A")
    page.keyboard.type("999")
    page.keyboard.press("Escape")
    seen["afterEscape"] = focus(page)
    seen["countShown"] = page.inner_text("tr[data-property=count] > td")
    # A link chosen in the chooser: the dialog keeps the focus inside and gives it back.
    tab_to(page, "edit owner")
    page.keyboard.press("Enter")
    seen["linkEditorFocus"] = focus(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#chooser")
    seen["chooserFocus"] = focus(page)
    page.keyboard.type("grace")
    wait_until(page, lambda: page.locator("#chooser .choice").count() == 1, "Grace alone in the chooser")
    page.keyboard.press("Shift+Tab")
    seen["wrappedBack"] = focus(page)
    page.keyboard.press("Tab")
    seen["wrappedForward"] = focus(page)
    page.keyboard.press("Tab")
    seen["choiceFocus"] = focus(page)
    page.keyboard.press("Enter")
    seen["afterChoice"] = focus(page)
    seen["chosen"] = page.inner_text("[data-editing=owner] .link-target")
    tab_to(page, "save owner")
    page.keyboard.press("Enter")
    wait_until(page, lambda: page.locator("#flash").count() == 1 and "owner" in page.inner_text("#flash"), "the saved owner")
    seen["ownerFlash"] = page.inner_text("#flash")
    # The delete dialog opens on Cancel and Escape closes it, giving the focus back.
    tab_to(page, "delete-object", backwards=True)
    page.keyboard.press("Enter")
    page.wait_for_selector("#delete-dialog")
    seen["deleteFocus"] = focus(page)
    page.keyboard.press("Escape")
    seen["afterDeleteEscape"] = focus(page)
    seen["deleteDialogs"] = page.locator("#delete-dialog").count()

    # A new object: the form opens on its first field; Tab moves on, Enter creates.
    page.goto(base + "/#/r/edits/t/Owner/new")
    page.wait_for_selector("#create-form")
    seen["createFocus"] = focus(page)
    page.keyboard.type("Keyboard")
    page.keyboard.press("Tab")
    seen["secondField"] = focus(page)
    page.keyboard.type("Oslo")
    page.keyboard.press("Enter")
    wait_until(page, lambda: page.locator("#flash").count() == 1, "the created owner")
    seen["createdHash"] = page.evaluate("location.hash")
    seen["createdFlash"] = page.inner_text("#flash")
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
