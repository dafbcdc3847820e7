#!/usr/bin/env python3
"""Starts an import in Kura Studio, kills the server while it runs, and prints what the page showed
as JSON.

usage: studio_import_end.py BASE_URL FILE SERVER_PID

The server (started by StudioBrowserTests) serves `zoo` without a token; FILE is large enough that
the import is still running when the server has read some of it.
"""
import json
import os
import signal
import sys

from studio_page import studio_page, wait_until

base, file, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = {}
problems = []

with studio_page(problems) as page:
    page.goto(base + "/#/r/zoo/transfer?type=Person")
    page.wait_for_selector("#import-file")
    page.set_input_files("#import-file", file)
    page.click("#import-start")
    wait_until(page, lambda: page.inner_text("#import-read").startswith("The server has read "), "the server's count")
    seen["readWhileRunning"] = page.inner_text("#import-read")[:len("The server has read ")]
    os.kill(pid, signal.SIGKILL)
    page.wait_for_selector("#import-result .message.error")
    # Long enough for a progress poll sent before the end, or any late event, to write its line.
    page.wait_for_timeout(1500)
    seen["error"] = page.inner_text("#import-result .message.error")
    seen["status"] = page.inner_text("#import-status")
    seen["read"] = page.inner_text("#import-read")
    seen["progressHidden"] = page.eval_on_selector("#import-progress", "bar => bar.hidden")
    seen["importEnabled"] = page.eval_on_selector("#import-start", "button => !button.disabled")
    # The server is gone: failed requests are expected, errors of the page's own code are not.
    seen["pageErrors"] = [problem for problem in problems if problem.startswith("pageerror")]

print(json.dumps(seen, ensure_ascii=False))
