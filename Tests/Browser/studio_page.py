"""What the Kura Studio walks share: a chromium page that records the page's errors, and ways to
read and wait on it. The page's Content-Security-Policy forbids eval, which Playwright's
wait_for_function needs, so waits poll from Python instead."""
import contextlib
import os

from playwright.sync_api import sync_playwright


@contextlib.contextmanager
def studio_page(problems, expected_statuses=()):
    """A page of Debian's chromium, or the one KURA_CHROMIUM names (never Playwright's own
    download). Page errors, and console errors but those of answers with an expected status, are
    appended to problems."""
    with sync_playwright() as playwright:
        chromium = os.environ.get("KURA_CHROMIUM", "/usr/bin/chromium")
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(accept_downloads=True)
        page.on("pageerror", lambda error: problems.append("pageerror: " + str(error)))
        page.on("console", lambda message: problems.append(message.type + ": " + message.text)
                if message.type == "error" and not any(f"status of {code}" in message.text for code in expected_statuses) else None)
        try:
            yield page
        finally:
            browser.close()


def texts(page, selector):
    """The trimmed text of each element selector finds."""
    return [text.strip() for text in page.locator(selector).all_inner_texts()]


def wait_until(page, condition, what):
    """Polls condition() every 50 ms until it is true; fails after 30 s (Playwright's own default,
    for a machine busy with the rest of the suite) naming what it waited for."""
    for _ in range(600):
        if condition():
            return
        page.wait_for_timeout(50)
    raise TimeoutError("waited 30 s for " + what)


def backlinks_loaded(page):
    """Whether every "Linked from" group has its list or its "none"."""
    groups = page.locator("#backlinks .backlink-group")
    return groups.count() > 0 and page.locator("#backlinks .backlink-group > :is(ul, p)").count() == groups.count()


def backlink_groups(page):
    """Each "Linked from" group as "Type.property: item, item" (or ": none")."""
    return page.eval_on_selector_all("#backlinks .backlink-group", """groups => groups.map(group => {
        const items = [...group.querySelectorAll("ul.backlinks > li")].map(item => item.innerText.trim());
        return group.querySelector("h3").innerText.trim() + ": " + (items.length ? items.join(", ") : "none");
    })""")
