#!/usr/bin/env python3
"""Opens objects without a primary key in Kura Studio, from a table and from inside other objects,
and prints what it saw as JSON.

usage: studio_keyless.py BASE_URL

The server (started by StudioBrowserTests) serves `zoo`, the sample people: Alice and Bob share the
dog Rex (whose toy is a DogToy); Bob also has Fido. Dogs and toys have no primary key. No token.
"""
import json
import sys

from studio_page import backlink_groups, backlinks_loaded, studio_page, texts, wait_until

base = sys.argv[1]
seen = {}
problems = []


def title_is(page, start):
    return lambda: page.inner_text("h1").startswith(start) and backlinks_loaded(page)


with studio_page(problems) as page:
    # The table of a type without a primary key: each row opens its object by object id.
    page.goto(base + "/#/r/zoo/t/Dog")
    page.wait_for_selector("table.objects tbody tr")
    seen["dogHeaders"] = texts(page, "table.objects thead th")
    seen["dogIds"] = texts(page, "table.objects tbody td.key")
    page.click("table.objects tbody tr:nth-child(2) td.key a")
    wait_until(page, title_is(page, "Dog 2"), "Fido's page")
    seen["fidoHash"] = page.evaluate("location.hash")
    seen["fidoTitle"] = page.inner_text("h1")
    seen["fidoName"] = texts(page, "table.object tbody tr:first-child td")
    seen["fidoBacklinks"] = backlink_groups(page)

    # A dog nested in a person's cell, unfolded, opens its own page with its owners.
    page.goto(base + "/#/r/zoo/t/Person")
    page.wait_for_selector("table.objects tbody tr")
    alices_dogs = "table.objects tbody tr:first-child td:nth-child(3)"
    page.click(alices_dogs + " details > summary")
    seen["nestedHeading"] = texts(page, alices_dogs + " details[open] > .nested > .type")
    page.click(alices_dogs + " details[open] > .nested > .type a")
    wait_until(page, title_is(page, "Dog 1"), "Rex's page")
    seen["rexTitle"] = page.inner_text("h1")
    seen["rexBacklinks"] = backlink_groups(page)
    # The ETag shown is the one If-Match takes: that of the document without the "$url"s.
    seen["rexETag"] = page.inner_text("p.meta code")
    seen["rexPlainETag"] = page.evaluate("() => fetch('/v1/realms/zoo/objects/Dog/1').then(reply => reply.headers.get('ETag'))")

    # Rex's toy, nested in Rex's page, opens the toy's page, which Rex links to.
    page.click("table.object .nested > .type a")
    wait_until(page, title_is(page, "DogToy 1"), "the toy's page")
    seen["toyTitle"] = page.inner_text("h1")
    seen["toyBacklinks"] = backlink_groups(page)

    # In the table, Bob's Rex is a reference to the "$id" Alice's row gave it: a link to Rex too.
    page.goto(base + "/#/r/zoo/t/Person")
    page.wait_for_selector("table.objects tbody tr")
    bobs_dogs = "table.objects tbody tr:nth-child(2) td:nth-child(3)"
    seen["bobDogs"] = texts(page, bobs_dogs + " > ul.items > li")
    page.click(bobs_dogs + " .ref a")
    wait_until(page, title_is(page, "Dog 1"), "Rex's page from Bob's row")
    seen["refHash"] = page.evaluate("location.hash")

    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
