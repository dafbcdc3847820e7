"""What the Kura Studio editing walks share: opening a property's editor on an object's page,
saving it, and reading what the page says."""
import urllib.parse

from studio_page import wait_until


def open_object(page, base, route):
    """Opens an object's page, read again when it is the page shown, and waits until it is whole
    (its backlinks too)."""
    again = page.url == base + "/" + route
    page.goto(base + "/" + route)
    if again:
        page.reload()
    parts = route.split("/")
    title = urllib.parse.unquote(parts[4]) + " " + urllib.parse.unquote(parts[6]) + " "
    wait_until(page, lambda: page.locator("table.object").count() == 1 and page.locator("#backlinks .loading").count() == 0
               and page.inner_text("h1").startswith(title), route)


def edit(page, name):
    """Clicks the Edit button of property `name`; returns the selector of its editor."""
    page.click(f"button[data-edit='{name}']")
    form = f"[data-editing='{name}']"
    page.wait_for_selector(form)
    return form


def save(page, name):
    """Clicks Save in the editor of `name` and waits until the page is shown again or says why not;
    returns the message shown (the saved note, or the refusal)."""
    form = f"[data-editing='{name}']"
    page.click(form + " button.save")
    wait_until(page, lambda: page.locator(form).count() == 0 or page.locator(form + " .refusal").count() > 0, f"the save of {name}")
    if page.locator(form).count() == 0:
        page.wait_for_selector("#flash")
        return page.inner_text("#flash")
    return page.inner_text(form + " .refusal p")


def shown_value(page, name):
    """The text the object's page shows for property `name`."""
    return " ".join(page.inner_text(f"tr[data-property='{name}'] > td").split())


def field_errors(page):
    """Each marked input as {label, path, message}: its accessible name, the path the server named,
    and the text shown below it."""
    return page.eval_on_selector_all("[aria-invalid=true]", """inputs => inputs.map(input => ({
        label: input.getAttribute("aria-label") || (input.labels && input.labels[0] ? input.labels[0].innerText : ""),
        path: input.dataset.path || "",
        message: (document.getElementById(input.getAttribute("aria-describedby")) || {}).innerText || "",
    }))""")
