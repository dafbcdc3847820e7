"""A page from another origin attacks a Kura server through the browser, as any web page its user
visits could: requests a browser sends without asking the server first (a fetch with a text/plain
body, one with a body of no type, a form), and DNS rebinding (a name of the attacker's that
resolves to the server's address). It reports what the browser saw; the Swift test checks that
the realms did not change.

usage: foreign_page.py KURA_PORT"""
import http.server
import json
import os
import sys
import threading

from playwright.sync_api import sync_playwright

kura_port = int(sys.argv[1])
# Both names resolve to this machine, as an attacker's DNS would answer.
kura = f"http://evil.test:{kura_port}"
loopback_kura = f"http://127.0.0.1:{kura_port}"

ATTACK = """<!doctype html><title>attack</title>
<form id="form" method="post" enctype="text/plain" action="LOOPBACK/v1/realms/zoo/objects/Person">
<input name='{"id": 77, "name": "Forged", "x": "' value='"}'></form>
<script>
const kura = "LOOPBACK";
const schema = "schemaVersion: 2\\ntypes:\\n  Person:\\n    primaryKey: id\\n    properties:\\n      id: int\\n";
const attempts = [
  fetch(kura + "/v1/copy", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
        body: JSON.stringify({source: "zoo", destination: "other"})}),
  fetch(kura + "/v1/realms/zoo/migrate", {method: "POST", mode: "no-cors", body: new Blob([schema])}),
  fetch(kura + "/v1/realms/zoo/import?type=Person", {method: "POST", mode: "no-cors",
        headers: {"Content-Type": "text/plain"}, body: '[{"id": 66, "name": "Forged"}]'}),
  fetch(kura + "/v1/realms/zoo/objects/Person?where=TRUEPREDICATE", {method: "DELETE", mode: "no-cors"}),
];
Promise.allSettled(attempts).then(results => {
  document.title = "fetched " + results.length;
  document.getElementById("form").submit();
});
</script>""".replace("LOOPBACK", loopback_kura)


class AttackPage(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ATTACK.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), AttackPage)
threading.Thread(target=attacker.serve_forever, daemon=True).start()
report = {}
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(
        executable_path=os.environ.get("KURA_CHROMIUM", "/usr/bin/chromium"),
        args=["--no-sandbox", "--host-resolver-rules=MAP evil.test 127.0.0.1"])
    page = browser.new_page()
    # The attacker's page, from an origin of its own; its form posts and navigates away when done.
    with page.expect_navigation(url=loopback_kura + "/**"):
        page.goto(f"http://evil.test:{attacker.server_address[1]}/")
    report["formStatus"] = page.evaluate("() => document.body.innerText")
    # DNS rebinding: the attacker's name, now resolving to the server, read from the server.
    answer = page.goto(kura + "/v1/realms")
    report["rebindStatus"] = answer.status
    report["rebindBody"] = page.evaluate("() => document.body.innerText")
    browser.close()
attacker.shutdown()
print(json.dumps(report))
