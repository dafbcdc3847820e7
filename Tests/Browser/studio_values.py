#!/usr/bin/env python3
"""Reads how Kura Studio shows values of every kind, and prints it as JSON.

usage: studio_values.py BASE_URL

The server (started by StudioBrowserTests) serves `values`: `Thing` objects with every scalar type,
mixed values holding wrappers, lists, maps and links, lists, sets, maps and embedded objects, and
a key beyond 2^53. No token. Prints, for each object page visited, each property's shown text.
"""
import json
import sys

from studio_page import studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []


def shown(page):
    """The object page's rows: property name -> the text of its value."""
    return page.eval_on_selector_all("table.object tbody tr", """rows => Object.fromEntries(rows.map(row =>
        [row.querySelector("th").firstChild.textContent.trim(), row.querySelector("td").innerText.trim().replace(/\\s+/g, " ")]))""")


with studio_page(problems) as page:
    page.goto(base + "/#/r/values/t/Thing/k/1")
    page.wait_for_selector("table.object")
    seen["first"] = shown(page)
    seen["boldElements"] = page.locator("table.object b").count()

    page.goto(base + "/#/r/values/t/Thing/k/2")
    page.wait_for_selector("table.object")
    wait_until(page, lambda: page.inner_text("h1").startswith("Thing 2 "), "Thing 2")
    seen["second"] = shown(page)
    seen["boldElementsSecond"] = page.locator("table.object b").count()

    # A mixed link to a key beyond 2^53, followed by a click.
    page.click("table.object a.link")
    wait_until(page, lambda: page.inner_text("h1").startswith("Thing 9"), "the big key's page")
    seen["bigTitle"] = page.inner_text("h1")
    seen["bigId"] = shown(page).get("id")

    page.goto(base + "/#/r/values/t/Thing")
    page.wait_for_selector("table.objects tbody tr")
    seen["tableKeys"] = texts(page, "table.objects tbody td.key")

    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
