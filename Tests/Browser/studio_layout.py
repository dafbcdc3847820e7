#!/usr/bin/env python3
"""Measures Kura Studio's pages on a desktop and on a phone, and its schema diagrams' arrows, and
prints what it saw as JSON.

usage: studio_layout.py BASE_URL [SCREENSHOT_FOLDER]

The server (started by StudioBrowserTests) serves `zoo` (the sample people) and `web` (many types
linking to one another). No token. With SCREENSHOT_FOLDER, a screenshot of every page at each size
is saved there, for a person to look at.
"""
import json
import sys

from studio_page import backlinks_loaded, studio_page

base = sys.argv[1]
shots = sys.argv[2] if len(sys.argv) > 2 else None
seen = {}
problems = []

# Each page: a name, its route, and what shows that it is drawn.
PAGES = [
    ("home", "#/", lambda page: page.locator(".cards .card").count() == 2),
    ("table", "#/r/zoo/t/Person", lambda page: page.locator("table.objects tbody tr").count() == 3),
    ("object", "#/r/zoo/t/Person/k/1", backlinks_loaded),
    ("keyless", "#/r/zoo/t/Dog/k/1", backlinks_loaded),
    ("schema", "#/r/zoo/schema", lambda page: page.locator("svg.schema-diagram").count() == 1),
    ("web-schema", "#/r/web/schema", lambda page: page.locator("svg.schema-diagram").count() == 1),
    ("transfer", "#/r/zoo/transfer", lambda page: page.locator("#export-start").count() == 1),
    ("new-person", "#/r/zoo/t/Person/new", lambda page: page.locator("#create-form").count() == 1),
]

# Samples each arrow of the diagram every 2 px along its path (whatever its shape) and names the
# boxes a sample falls inside, other than the boxes of the arrow's own two types (read from its
# title, "Person.dogs → Dog (list<Dog>)"). A box's edge, where arrows start and end, is not inside.
CROSSINGS = """svg => {
    const boxes = [...svg.querySelectorAll("a.type-box")].map(box => {
        const rect = box.querySelector("rect");
        return {type: box.dataset.type, x: +rect.getAttribute("x"), y: +rect.getAttribute("y"),
                width: +rect.getAttribute("width"), height: +rect.getAttribute("height")};
    });
    const crossings = [];
    for (const arrow of svg.querySelectorAll("path.arrow")) {
        const title = arrow.textContent;
        const from = title.split(".")[0];
        const to = title.split(" → ")[1].split(" ")[0];
        const length = arrow.getTotalLength();
        for (const box of boxes) {
            if (box.type === from || box.type === to) continue;
            for (let at = 0; at <= length; at += 2) {
                const point = arrow.getPointAtLength(at);
                if (point.x > box.x + 1 && point.x < box.x + box.width - 1 && point.y > box.y + 1 && point.y < box.y + box.height - 1) {
                    crossings.push(title + " crosses " + box.type);
                    break;
                }
            }
        }
    }
    return {arrows: svg.querySelectorAll("path.arrow").length, crossings};
}"""


def wait_for(page, ready, what):
    for _ in range(600):
        if ready(page):
            return
        page.wait_for_timeout(50)
    raise TimeoutError("waited 30 s for " + what)


with studio_page(problems) as page:
    for width, height in [(1280, 800), (390, 844)]:
        page.set_viewport_size({"width": width, "height": height})
        for name, route, ready in PAGES:
            page.goto(base + "/" + route)
            page.reload()  # the hash alone would keep the page, and the diagram is laid out for the width it is drawn at
            wait_for(page, ready, f"the {name} page at {width} px")
            seen[f"{name}@{width}"] = page.evaluate("document.scrollingElement.scrollWidth")
            if "schema" in name:
                seen[f"{name}-arrows@{width}"] = page.eval_on_selector("svg.schema-diagram", CROSSINGS)
            if shots:
                page.screenshot(path=f"{shots}/{name}-{width}.png", full_page=True)
    seen["problems"] = problems

print(json.dumps(seen, ensure_ascii=False))
