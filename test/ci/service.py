#!/usr/bin/env python3
"""A service that is not Node, for the CI template's test: a Python http.server that starts the
sandbox bin on a port of its own and forwards every request to it. With --break it drops the
Allow header of every 405 answer, which the suite must catch (RFC 9110 requires it)."""
import argparse
import http.client
import http.server
import signal
import socket
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--sandbox", required=True, help="the sandbox bin (messaging-sandbox)")
parser.add_argument("--break", dest="broken", action="store_true")
args = parser.parse_args()

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    inner = s.getsockname()[1]
sandbox = subprocess.Popen([args.sandbox, "--port", str(inner)], stdout=subprocess.DEVNULL)


def stop(*_):
    sandbox.terminate()
    try:
        sandbox.wait(5)
    except subprocess.TimeoutExpired:
        sandbox.kill()
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
signal.signal(signal.SIGINT, stop)
for _ in range(200):
    try:
        socket.create_connection(("127.0.0.1", inner), 0.2).close()
        break
    except OSError:
        time.sleep(0.05)

HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


class Forward(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        upstream = http.client.HTTPConnection("127.0.0.1", inner, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        upstream.request(self.command, self.path, body=body, headers=headers)
        answer = upstream.getresponse()
        data = answer.read()
        self.send_response(answer.status)
        for k, v in answer.getheaders():
            if k.lower() in HOP or (args.broken and answer.status == 405 and k.lower() == "allow"):
                continue
            self.send_header(k, v)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = forward

    def log_message(self, *_):
        pass


http.server.ThreadingHTTPServer.daemon_threads = True
try:
    http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Forward).serve_forever()
finally:
    stop()
