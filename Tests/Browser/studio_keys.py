#!/usr/bin/env python3
"""Follows links and backlinks in Kura Studio through keys of every kind, and prints what it saw as JSON.

usage: studio_keys.py BASE_URL

The server (started by StudioBrowserTests) serves `keys`: a `Café` keyed by a string with a slash
and quotes, linking an `Item` keyed by an objectId, linking a `Tag` keyed by a uuid through a link,
a list and a map. No token.
"""
import json
import sys

from studio_page import backlink_groups, backlinks_loaded, studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []

with studio_page(problems) as page:
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

print(json.dumps(seen, ensure_ascii=False))
