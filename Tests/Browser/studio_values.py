#!/usr/bin/env python3
"""Reads how Kura Studio shows values of every kind, and prints it as JSON.

usage: studio_values.py BASE_URL

The server (started by StudioBrowserTests) serves `values`: `Thing` objects with every scalar type,
mixed values holding wrappers, lists, maps and links, lists, sets, maps and embedded objects, and
a key beyond 2^53. No token. Prints, for each object page visited, each property's shown text.
"""
import json
import sys

from playwright.sync_api import sync_playwright

base = sys.argv[1]
seen = {}
problems = []


def shown(page):
    """The object page's rows: property name -> the text of its value."""
    return page.eval_on_selector_all("table.object tbody tr", """rows => Object.fromEntries(rows.map(row =>
        [row.querySelector("th").firstChild.textContent.trim(), row.querySelector("td").innerText.trim().replace(/\\s+/g, " ")]))""")


def wait_until(page, condition, what):
    """Polls condition() until it is true (the page's CSP forbids the eval that wait_for_function uses)."""
    for _ in range(200):
        if condition():
            return
        page.wait_for_timeout(50)
    raise TimeoutError("waited 10 s for " + what)


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page()
    page.on("pageerror", lambda error: problems.append("pageerror: " + str(error)))
    page.on("console", lambda message: problems.append(message.type + ": " + message.text) if message.type == "error" else None)

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
    seen["tableKeys"] = [text.strip() for text in page.locator("table.objects tbody td.key").all_inner_texts()]

    seen["problems"] = problems
    browser.close()

print(json.dumps(seen, ensure_ascii=False))
