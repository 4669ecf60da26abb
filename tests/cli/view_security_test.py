#!/usr/bin/env python3
"""swz view's security bounds, end to end: token, Host header, paths, sizes,
huge decodes, one file only, --listen's warning, SIGINT.
Usage: view_security_test.py SWZ SRC_DIR. Exit status 0 when every check passes."""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from view_common import Server  # noqa: E402

SWZ, SRC = sys.argv[1], sys.argv[2]
fails = 0


def check(ok, what):
    global fails
    print(("ok   " if ok else "FAIL ") + what)
    fails += 0 if ok else 1


def raw(port, data):
    """Sends raw request bytes; returns (status, whole response)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    first = out.split(b"\r\n", 1)[0].split()
    return (int(first[1]) if len(first) > 1 else 0), out


with tempfile.TemporaryDirectory() as tmp:
    dump = os.path.join(tmp, "dump.bin")
    subprocess.run([SWZ, "swizzle", "-q", "--layout", "std64k", os.path.join(SRC, "examples", "coffee.png"), dump],
                   check=True)
    secret = os.path.join(tmp, "secret.txt")
    with open(secret, "w") as f:
        f.write("SECRET-CONTENTS\n")
    srv = Server(SWZ, ["--size", "600x400", "--layout", "std64k", dump], tmp)
    p = srv.port
    try:
        check(srv.host == "127.0.0.1", "listens on 127.0.0.1 by default (%s)" % srv.url)
        st, body = srv.get("/")
        check(st == 200 and b"<html" in body, "the page with the token: 200")
        for path in ("/", "/api/info", "/api/decode", "/index.html", "/favicon.ico"):
            check(srv.get(path, token=False)[0] == 403, "no token on %s: 403" % path)
            check(srv.get(path, token="0" * 32)[0] == 403, "wrong token on %s: 403" % path)
        check(srv.get("/api/info", token=srv.token[:-1])[0] == 403, "a token one digit short: 403")
        check(srv.get("/api/info", token=False, headers={"X-Swz-Token": srv.token})[0] == 200,
              "the token in the X-Swz-Token header: 200")
        for host in ("evil.example:%d" % p, "127.0.0.1:%d" % (p + 1), "attacker.127.0.0.1.nip.io:%d" % p, ""):
            check(srv.get("/api/info", host=host)[0] == 403, "Host %r: 403" % host)
        for host in ("localhost:%d" % p, "[::1]:%d" % p):
            check(srv.get("/api/info", host=host)[0] == 200, "Host %r: 200" % host)
        st, _ = raw(p, b"GET /api/info?token=%s HTTP/1.1\r\nConnection: close\r\n\r\n" % srv.token.encode())
        check(st in (400, 403), "no Host header: %d" % st)
        for hosts in (("127.0.0.1:%d" % p, "evil.example"), ("evil.example", "127.0.0.1:%d" % p)):
            head = "".join("Host: %s\r\n" % h for h in hosts)
            st, _ = raw(p, ("GET /api/info?token=%s HTTP/1.1\r\n%sConnection: close\r\n\r\n"
                            % (srv.token, head)).encode())
            check(st in (400, 403), "two Host headers %r: %d" % (hosts, st))
        for ev in ("nan", "inf", "-inf", "1e308", "64.5"):
            for route in ("/api/command", "/api/decode"):
                st, body = srv.get(route, {"exposure": ev})
                check(st == 400 and b"exposure" in body, "exposure=%s on %s: %d naming exposure" % (ev, route, st))
        st, body = srv.get("/api/command", {"exposure": "-64"})
        check(st == 200 and b"--exposure -64" in body, "exposure=-64 (the range's end): %d" % st)

        # Paths: nothing but the page and the API; no file is ever served.
        for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                     "/static/../../../etc/passwd", "//etc/passwd", "/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
                     "/" + secret, "/dump.bin", "/" + dump):
            for tok in (False, True):
                q = "?token=" + srv.token if tok else ""
                st, out = raw(p, ("GET %s%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                                  % (path, q, p)).encode())
                check(st in (400, 403, 404) and b"root:" not in out and b"SECRET" not in out,
                      "path %s (%s): %d, no file contents" % (path, "token" if tok else "no token", st))
        # Parameters cannot name a file: layouts, palettes.
        for layout in (secret, "/etc/passwd", "../../etc/passwd"):
            st, body = srv.get("/api/decode", {"layout": layout})
            check(st == 400 and b"SECRET" not in body and b"root:" not in body and b"layout" in body,
                  "layout=%s: 400 naming the layout" % layout)
        st, body = srv.get("/api/decode", {"palette": "1"})
        check(st == 400 and b"palette" in body, "palette=1 without --palette: 400 naming palette")
        st, body = srv.get("/api/decode", {"dump": secret})
        check(st == 400 and b"dump" in body, "an unknown parameter (dump=PATH): 400 naming it")
        st, body = srv.get("/api/bytes", {"at": "0", "count": "64"})
        check(st == 200 and bytes.fromhex(json.loads(body)["hex"]) == open(dump, "rb").read(64),
              "bytes come from the one dump")

        # Sizes.
        st, _ = raw(p, b"POST /api/info?token=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 1048576\r\n"
                    b"Connection: close\r\n\r\n" % (srv.token.encode(), p) + b"x" * 65536)
        check(st == 413, "a 1 MiB request body: %d (413)" % st)
        st, _ = raw(p, ("GET /api/info?token=%s&pad=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                        % (srv.token, "a" * 20000, p)).encode())
        check(st in (400, 413, 414), "a 20 kB request line: %d" % st)
        st, body = srv.get("/api/decode", {"format": "a" * 600})
        check(st == 400 and b"at most 512" in body, "a 600-character value: 400")
        st, body = srv.get("/api/texel", {"x": "99999999999999999999999"})
        check(st == 400 and b"out of range" in body and b"x:" in body, "x past 2^64: 400 naming x")
        st, body = srv.get("/api/texel", {"x": "4294967296"})
        check(st == 400 and b"x:" in body, "x past 2^32: 400 naming x")
        st, body = srv.get("/api/decode", {"size": "65536x65536", "layout": "row-major"})
        err = json.loads(body).get("error", "")
        check(st == 400 and "64 Mpx" in err, "a 65536x65536 decode refused before any work: %s" % err)
        st, body = srv.get("/api/identify", {"size": "30000x30000"})
        check(st == 400 and "64 Mpx" in json.loads(body).get("error", ""), "identify of 30000x30000 refused")
        st, body = srv.get("/api/decode", {"format": "NOT_A_FORMAT"})
        check(st == 400 and "NOT_A_FORMAT" in json.loads(body)["error"], "a bad format: 400 naming it")
        code = srv.stop(signal.SIGINT)
        check(code == 0, "SIGINT: exit status %s (0)" % code)
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()

    # Connections that trickle a request a byte at a time do not keep the
    # server from exiting on SIGTERM.
    srv = Server(SWZ, ["--size", "600x400", dump], tmp)
    slow = []
    try:
        for _ in range(12):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
            s.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % srv.port)
            slow.append(s)
        srv.proc.send_signal(signal.SIGTERM)
        code = None
        for _ in range(20):  # keep trickling while it stops
            for s in slow:
                try:
                    s.sendall(b"a")
                except OSError:
                    pass
            try:
                code = srv.proc.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                pass
        check(code == 0, "SIGTERM with 12 trickling connections: exit status %s (0) within 10 s" % code)
    finally:
        for s in slow:
            s.close()
        if srv.proc.poll() is None:
            srv.proc.kill()

    srv = Server(SWZ, ["--size", "600x400", "--listen", "0.0.0.0", dump], tmp)
    try:
        check(srv.get("/api/info", host="0.0.0.0:%d" % srv.port)[0] == 200, "--listen 0.0.0.0: Host 0.0.0.0:PORT")
        check(srv.get("/api/info", host="evil.example:%d" % srv.port)[0] == 403, "--listen 0.0.0.0: foreign Host 403")
        code = srv.stop(signal.SIGTERM)
        err = open(srv.stderr_path).read()
        check("warning" in err and "0.0.0.0" in err, "--listen 0.0.0.0 warns on stderr")
        check(code == 0, "SIGTERM: exit status %s (0)" % code)
    finally:
        if srv.proc.poll() is None:
            srv.proc.kill()

print("%d failure(s)" % fails)
sys.exit(1 if fails else 0)
