"""Shared by the swz view tests: start `swz view` on a dump and talk to it."""
import os
import re
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


class Server:
    """`swz view ARGS` running; .url, .port, .token, .proc, .stderr_path."""

    def __init__(self, swz, args, workdir):
        self.stderr_path = os.path.join(workdir, "view-%d.err" % time.monotonic_ns())
        self.err = open(self.stderr_path, "w")
        self.proc = subprocess.Popen([swz, "view"] + args, stdout=subprocess.PIPE, stderr=self.err, text=True)
        line = self.proc.stdout.readline().strip()
        m = re.match(r"http://(\S+):(\d+)/\?token=([0-9a-f]{32})$", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("swz view printed %r; stderr: %s" % (line, open(self.stderr_path).read()))
        self.url, self.host, self.port, self.token = line, m.group(1), int(m.group(2)), m.group(3)

    def get(self, path, params=None, token=True, headers=None, host=None):
        """(status, body bytes) of GET path?params on 127.0.0.1 (Host: 127.0.0.1:PORT unless `host`)."""
        q = dict(params or {})
        if token is True:
            q["token"] = self.token
        elif token:
            q["token"] = token
        url = "http://127.0.0.1:%d%s" % (self.port, path)
        if q:
            url += "?" + urllib.parse.urlencode(q)
        req = urllib.request.Request(url, headers=headers or {})
        if host is not None:
            req.add_unredirected_header("Host", host)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def stop(self, sig=signal.SIGINT):
        """Sends `sig` and returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=10)
        finally:
            self.err.close()
