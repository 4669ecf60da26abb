#!/usr/bin/env python3
"""swz view in a real browser: Debian's chromium, headless, driven over the
DevTools protocol (python3-websocket). On a dump of examples/coffee.png
swizzled into nv-block-linear:gob=tegra,bh=8, served with --format and no
--layout, the page must rank that layout first and show it; hovering texel
(17, 3) must show the byte offset `swz offset` prints; typing that offset
must highlight (17, 3); the saved PNG must equal `swz deswizzle`'s byte for
byte. Without chromium the test fails when CI is set, else skips (77).
Usage: view_browser_test.py SWZ SRC_DIR."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from view_common import Server  # noqa: E402

SWZ, SRC = sys.argv[1], sys.argv[2]
TRUTH = "nv-block-linear:gob=tegra,bh=8"
TEXTURE = ["--format", "R8G8B8A8_UNORM", "--size", "600x400"]


def skip_or_fail(why):
    if os.environ.get("CI"):
        print("FAIL " + why + " (CI is set: the browser test must run)")
        sys.exit(1)
    print("skip " + why)
    sys.exit(77)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    skip_or_fail("chromium is not installed (apt-get install chromium)")
try:
    import websocket  # python3-websocket
except ImportError:
    skip_or_fail("python3-websocket is not installed")

fails = 0


def check(ok, what):
    global fails
    print(("ok   " if ok else "FAIL ") + what)
    fails += 0 if ok else 1


class DevTools:
    """One DevTools websocket: call(method, **params) -> result."""

    def __init__(self, url):
        self.ws = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError("%s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait(self, expr, seconds=30):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            v = self.eval(expr)
            if v:
                return v
            time.sleep(0.1)
        return None


def start_chromium(tmp):
    profile = os.path.join(tmp, "profile")
    proc = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
                             "--user-data-dir=" + profile, "--window-size=1600,1000", "--no-first-run",
                             "--disable-extensions", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    active = os.path.join(profile, "DevToolsActivePort")
    end = time.monotonic() + 30
    while time.monotonic() < end and not (os.path.exists(active) and len(open(active).read().split()) >= 2):
        time.sleep(0.1)
    port, browser_path = open(active).read().split()[:2]
    with urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port, timeout=10) as r:
        page = next(t for t in json.load(r) if t["type"] == "page")
    return proc, DevTools("ws://127.0.0.1:%s%s" % (port, browser_path)), DevTools(page["webSocketDebuggerUrl"])


started = time.monotonic()
with tempfile.TemporaryDirectory() as tmp:
    dump, ref_png = os.path.join(tmp, "dump.bin"), os.path.join(tmp, "ref.png")
    subprocess.run([SWZ, "swizzle", "-q", "--layout", TRUTH, os.path.join(SRC, "examples", "coffee.png"), dump],
                   check=True)
    subprocess.run([SWZ, "deswizzle", "-q", "--layout", TRUTH, "--size", "600x400", dump, ref_png], check=True)
    want = int(subprocess.run([SWZ, "offset", "--layout", TRUTH] + TEXTURE + ["17", "3"], check=True,
                              capture_output=True, text=True).stdout.strip())
    located = subprocess.run([SWZ, "locate", "--layout", TRUTH] + TEXTURE + [str(want)], check=True,
                             capture_output=True, text=True).stdout.strip()
    check(located.startswith("subresource=0 x=17 y=3 "), "swz locate %d: %s" % (want, located))

    srv = Server(SWZ, TEXTURE + [dump], tmp)
    chrome = None
    try:
        chrome, browser, page = start_chromium(tmp)
        downloads = os.path.join(tmp, "downloads")
        os.mkdir(downloads)
        browser.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=downloads)
        page.call("Page.enable")
        page.call("Page.navigate", url=srv.url)
        ranked = page.wait("document.body && document.body.dataset.ranked", 40)
        check(ranked == "1", "the page ranked the layouts (%s)" % ranked)
        top = page.eval("document.querySelector('.cand') && document.querySelector('.cand').dataset.layout")
        check(top == TRUTH, "the top candidate is %s (%s)" % (TRUTH, top))
        check(page.eval("document.body.dataset.shown") == TRUTH, "the large view shows the top candidate")
        label = page.eval("document.querySelector('.cand div').textContent")
        check("score" in label and "offset 0" in label, "the candidate's label: %s" % label)

        # Hover texel (17, 3) with a real mouse move.
        pt = page.eval("swzView.clientPointOf(17, 3)")
        page.call("Input.dispatchMouseEvent", type="mouseMoved", x=pt["x"], y=pt["y"])
        got = page.wait("(document.getElementById('hover').dataset.x === '17' && "
                        "document.getElementById('hover').dataset.y === '3') && "
                        "document.getElementById('hover').dataset.offset")
        check(got is not None and int(got) == want, "hovering (17, 3) shows byte %s (swz offset: %d)" % (got, want))
        hexview = page.wait("document.getElementById('hex').textContent.includes('[') && "
                            "document.getElementById('hex').textContent", 10) or ""
        check(format(want, "x").rjust(10, "0")[:-1] in hexview, "the hex view shows the bytes around it, marked")

        # Type the offset: (17, 3) is highlighted.
        page.eval("document.getElementById('byte').focus()")
        page.call("Input.insertText", text=str(want))
        for kind in ("keyDown", "keyUp"):
            page.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13)
        hl = page.wait("swzView.state.highlight && JSON.stringify(swzView.state.highlight)")
        check(hl == '{"x":17,"y":3}', "typing %d highlights (17, 3) (%s)" % (want, hl))

        # Save the PNG through the page's button.
        page.eval("document.getElementById('save-png').click()")
        saved = os.path.join(downloads, "swz-view.png")
        end = time.monotonic() + 20
        while time.monotonic() < end and not os.path.exists(saved):
            time.sleep(0.1)
        ok = os.path.exists(saved) and open(saved, "rb").read() == open(ref_png, "rb").read()
        check(ok, "the saved PNG equals swz deswizzle's byte for byte")
        cmd = page.eval("document.getElementById('command').textContent")
        check(cmd.startswith("swz deswizzle --layout " + TRUTH + " --format R8G8B8A8_UNORM --size 600x400 "),
              "the equivalent command: %s" % cmd)
        err = page.eval("document.getElementById('error').textContent")
        check(not err, "no error shown (%s)" % err)
    finally:
        if chrome:
            chrome.kill()
            chrome.wait()
        code = srv.stop(signal.SIGINT)
        check(code == 0, "swz view exits 0 on SIGINT")

print("%d failure(s), %.1f s" % (fails, time.monotonic() - started))
sys.exit(1 if fails else 0)
