#!/usr/bin/env python3
"""A loopback HTTP/1.1 file server with byte ranges, for the tests of remote media.

    range-http-server.py DIRECTORY

Serves DIRECTORY on 127.0.0.1 at a free port, which it prints as its first line, as
`python3 -m http.server` does ("Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ..."). It answers GET and HEAD, with Range: bytes=A-B (206 and Content-Range) and
keep-alive, as object storage and CDNs do; `python3 -m http.server` has no ranges, and FFmpeg
then reads a file from its start for every seek. GET /__stats answers with the bytes of file
data sent and the requests served so far, as JSON, so a test can tell what a request cost.
It binds to 127.0.0.1 only and runs until it is killed.
"""
import http.server
import json
import os
import re
import sys
import threading

ROOT = os.path.realpath(sys.argv[1])
STATS = {"bytes": 0, "requests": 0}
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.serve(send_body=False)

    def do_GET(self):
        if self.path == "/__stats":
            with LOCK:
                body = json.dumps(STATS).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.serve(send_body=True)

    def serve(self, send_body):
        path = os.path.realpath(os.path.join(ROOT, self.path.split("?")[0].lstrip("/")))
        if not path.startswith(ROOT + os.sep) or not os.path.isfile(path):
            self.send_error(404)
            return
        size = os.path.getsize(path)
        start, end = 0, size - 1
        match = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
        if match and (match.group(1) or match.group(2)):
            if match.group(1):
                start = int(match.group(1))
                end = int(match.group(2)) if match.group(2) else size - 1
            else:
                start = max(0, size - int(match.group(2)))
            end = min(end, size - 1)
            if start > end:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        else:
            self.send_response(200)
        length = end - start + 1
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        with LOCK:
            STATS["requests"] += 1
        if not send_body:
            return
        with open(path, "rb") as file:
            file.seek(start)
            remaining = length
            while remaining > 0:
                chunk = file.read(min(remaining, 1 << 16))
                if not chunk:
                    break
                try:
                    self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    break  # the client closed: it seeks elsewhere
                with LOCK:
                    STATS["bytes"] += len(chunk)
                remaining -= len(chunk)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
port = server.server_address[1]
print(f"Serving HTTP on 127.0.0.1 port {port} (http://127.0.0.1:{port}/) with byte ranges", flush=True)
server.serve_forever()
