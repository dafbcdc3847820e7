#!/usr/bin/env python3
"""Follows links and backlinks in Kura Studio through keys of every kind, and prints what it saw as JSON.

usage: studio_keys.py BASE_URL

The server (started by StudioBrowserTests) serves `keys`: a `Café` keyed by a string with a slash
and quotes, linking an `Item` keyed by an objectId, linking a `Tag` keyed by a uuid through a link,
a list and a map. No token.
"""
import json
import sys

from playwright.sync_api import sync_playwright

base = sys.argv[1]
seen = {}
problems = []


def texts(page, selector):
    return [text.strip() for text in page.locator(selector).all_inner_texts()]


def backlink_groups(page):
    """Each "Linked from" group as "Type.property: item, item" (or ": none")."""
    return page.eval_on_selector_all("#backlinks .backlink-group", """groups => groups.map(group => {
        const items = [...group.querySelectorAll("ul.backlinks > li")].map(item => item.innerText.trim());
        return group.querySelector("h3").innerText.trim() + ": " + (items.length ? items.join(", ") : "none");
    })""")


def wait_until(page, condition, what):
    """Polls condition() until it is true (the page's CSP forbids the eval that wait_for_function uses)."""
    for _ in range(200):
        if condition():
            return
        page.wait_for_timeout(50)
    raise TimeoutError("waited 10 s for " + what)


def backlinks_loaded(page):
    groups = page.locator("#backlinks .backlink-group")
    return groups.count() > 0 and page.locator("#backlinks .backlink-group > :is(ul, p)").count() == groups.count()


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page()
    page.on("pageerror", lambda error: problems.append("pageerror: " + str(error)))
    page.on("console", lambda message: problems.append(message.type + ": " + message.text) if message.type == "error" else None)

    page.goto(base + "/")
    page.wait_for_selector("#realm-list ul.realms")
    page.click("#realm-list a[data-type='Café']")
    page.wait_for_selector("table.objects tbody tr")
    seen["cafeHash"] = page.evaluate("location.hash")
    seen["cafeKeys"] = texts(page, "table.objects tbody td.key")

    # The string key with a slash and quotes opens its page.
    page.click("table.objects tbody td.key a")
    page.wait_for_selector("table.object")
    seen["cafeTitle"] = page.inner_text("h1")

    # Its objectId link, then the objects linking to that Item.
    page.click("table.object a.link")
    wait_until(page, lambda: page.inner_text("h1").startswith("Item") and backlinks_loaded(page), "the Item page")
    seen["itemTitle"] = page.inner_text("h1")
    seen["itemBacklinks"] = backlink_groups(page)

    # The uuid link, and the three ways the Item links to its Tag.
    page.click("table.object a.link[title^='Tag']")
    wait_until(page, lambda: page.inner_text("h1").startswith("Tag") and backlinks_loaded(page), "the Tag page")
    seen["tagTitle"] = page.inner_text("h1")
    seen["tagBacklinks"] = backlink_groups(page)

    seen["problems"] = problems
    browser.close()

print(json.dumps(seen, ensure_ascii=False))
