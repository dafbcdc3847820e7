#!/usr/bin/env python3
"""Watches Kura Studio follow commits made by another client, and prints what it saw as JSON.

usage: studio_live.py BASE_URL

The server (started by StudioBrowserTests) serves `zoo` (the sample people) without tokens. While
the page shows a table, then one object, this script writes through the HTTP API as another client
would: a new Person, a change to it, its deletion.
"""
import json
import sys
import urllib.request

from studio_page import studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []


def send(method, path, document=None):
    """One request from another client; returns its status."""
    body = json.dumps(document).encode() if document is not None else None
    request = urllib.request.Request(base + path, data=body, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.status


def notice(page):
    return page.inner_text("#changed-text") if page.is_visible("#changed-notice") else None


with studio_page(problems) as page:
    page.goto(base + "/#/r/zoo/t/Person")
    page.wait_for_selector("table.objects tbody tr")
    page.wait_for_timeout(500)  # the change stream opens
    seen["noticeBefore"] = notice(page)
    seen["created"] = send("POST", "/v1/realms/zoo/objects/Person", {"id": 50, "name": "Live"})
    wait_until(page, lambda: notice(page) is not None, "the notice of a new Person")
    seen["tableNotice"] = notice(page)
    person = page.locator("#realm-list a[href='#/r/zoo/t/Person']")
    wait_until(page, lambda: "4" in person.inner_text(), "the sidebar's new count")
    seen["sidebarPerson"] = person.inner_text().split()
    seen["rowsBeforeShowing"] = page.locator("table.objects tbody tr").count()
    page.click("#changed-reload")
    wait_until(page, lambda: page.locator("table.objects tbody tr").count() == 4, "the table again")
    seen["statusAfterShowing"] = page.inner_text("#page-status")
    seen["noticeAfterShowing"] = notice(page)

    page.goto(base + "/#/r/zoo/t/Person/k/50")
    wait_until(page, lambda: page.locator("table.object").count() == 1, "the new Person's page")
    page.wait_for_timeout(500)
    seen["updated"] = send("PATCH", "/v1/realms/zoo/objects/Person/50", {"name": "Live 2"})
    wait_until(page, lambda: notice(page) is not None, "the notice of the change")
    seen["objectNotice"] = notice(page)
    page.click("#changed-reload")
    wait_until(page, lambda: "Live 2" in page.inner_text("table.object"), "the changed name")
    seen["nameAfterShowing"] = texts(page, "table.object tbody tr:nth-child(2) td")
    seen["deleted"] = send("DELETE", "/v1/realms/zoo/objects/Person/50")
    wait_until(page, lambda: notice(page) is not None and "deleted" in notice(page), "the notice of the deletion")
    seen["deletedNotice"] = notice(page)

    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
