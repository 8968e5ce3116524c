#!/usr/bin/env python3
"""A loopback HTTP/1.1 file server with byte ranges, for the tests of remote media.

    range-http-server.py DIRECTORY

Serves DIRECTORY on 127.0.0.1 at a free port, which it prints as its first line, as
`python3 -m http.server` does ("Serving HTTP on 127.0.0.1 port N (http://127.0.0.1:N/) ..."). It answers GET and HEAD, with Range: bytes=A-B (206 and Content-Range) and
keep-alive, as object storage and CDNs do; `python3 -m http.server` has no ranges, and FFmpeg
then reads a file from its start for every seek. GET /__stats answers with the bytes of file
data sent and the requests served so far, as JSON, so a test can tell what a request cost (a
closed range the client leaves early counts whole, as FrameSeek's bench counts it; an
open-ended one counts what the socket took).
It binds to 127.0.0.1 only and runs until it is killed.

It is also the faulty origin of the network-fault tests:

    range-http-server.py DIRECTORY [--faults JSON] [--live NAME COUNT WINDOW TARGET PATTERN]

--faults injects failures, as a JSON object:
    {"rules": [{"path": "seg001.ts", "kind": "503", "times": 2}, ...],
     "random": {"rate": 0.3, "seed": 7, "kinds": ["503", "404", "cut", "stall:2"], "suffixes": [".ts"]}}
A rule fails the first `times` requests for its path (every one when `times` is absent),
counted from request `after` + 1 when it has an `after` (a playlist that loads, then fails); the
random part fails each request whose path ends with one of `suffixes` with probability `rate`,
drawn from a generator seeded with `seed`. Kinds: an HTTP status ("500", "503", "404", "403",
"408", "429" with Retry-After: 1), "cut" (headers for the whole body, then half of it, then
the connection closed), "cutat:N" (headers for the whole body, then the bytes before the
file's byte N, then the connection closed: a file that always breaks off at N, retries or not),
"stall:S" (S seconds of silence, then the answer), "reset" (the connection closed before any
answer).
The hostile origin's kinds: "trickle:S" (headers for the whole body, then one byte every S
seconds), "nosize" (a 200 with neither Content-Length nor ranges, 1000 bytes, then silence until
the client leaves), "claimsize" (ranges served as usual, but every Content-Range claims a total
of 2^63-1 bytes), "redirect" (a 302 to the same path: a loop), "redirectto:URL" (a 302 to URL),
"bigplaylist:MB" (a media playlist of MB megabytes, made on the fly, with its Content-Length;
"bigplaylist:MB:nosize" without it).
"as:NAME" serves the file NAME in place of the path asked for (with "after", a playlist that
changes between loads).

    range-http-server.py DIRECTORY [...] --tls CERT KEY

serves HTTPS instead, with the certificate and key in the PEM files given (the tests make a
self-signed one), and prints "Serving HTTPS on ..." with an https URL.

--live serves NAME as a live media playlist over the segment files PATTERN % i (i from 0 to
COUNT - 1, each TARGET seconds): WINDOW segments, the window sliding by one every TARGET
seconds from the server's start, until it reaches the last segment (no EXT-X-ENDLIST).
When NAME ends in .mpd, it is a dynamic DASH MPD over the same window instead: one Period at
0, a SegmentTemplate whose media is PATTERN with $Number$ (startNumber the window's first i),
initialization init.m4s, timescale 1000, and a SegmentTimeline of the window's segments,
segment i at media time i x TARGET; availabilityStartTime is the server's start less WINDOW x
TARGET (so the first window is available at once), timeShiftBufferDepth WINDOW x TARGET and
minimumUpdatePeriod TARGET.
/__stats also counts the faults injected, by kind, and the requests by path (answered or not).
"""
import random
import time
import http.server
import json
import os
import re
import sys
import threading

ROOT = os.path.realpath(sys.argv[1])
STATS = {"bytes": 0, "requests": 0, "faults": {}, "paths": {}}
LOCK = threading.Lock()
# Signalled when a body finishes: /__stats waits for the bodies under way (up to 5 s), so the
# count of a request the client has read whole never lags behind the client's own count.
SENDING = threading.Condition(LOCK)
IN_FLIGHT = [0]
FAULTS = {}
LIVE = None
TLS = None
STARTED = time.monotonic()
arguments = sys.argv[2:]
while arguments:
    option = arguments.pop(0)
    if option == "--faults":
        FAULTS = json.loads(arguments.pop(0))
    elif option == "--tls":
        TLS = (arguments.pop(0), arguments.pop(0))
    elif option == "--live":
        name, count, window, target, pattern = arguments[:5]
        del arguments[:5]
        LIVE = {"name": name, "count": int(count), "window": int(window), "target": float(target), "pattern": pattern}
    else:
        sys.exit(f"unknown option {option}")
RULES = [dict(rule) for rule in FAULTS.get("rules", [])]
RANDOM = FAULTS.get("random")
GENERATOR = random.Random(RANDOM.get("seed", 0)) if RANDOM else None


def fault_for(path):
    """The fault to inject for a request of `path` (no leading slash), or None."""
    with LOCK:
        for rule in RULES:
            if rule["path"] == path and rule.get("times", 1) != 0 and STATS["paths"].get(path, 0) > rule.get("after", 0):
                if "times" in rule:
                    rule["times"] -= 1
                return rule["kind"]
        if RANDOM and path.endswith(tuple(RANDOM.get("suffixes", [""]))):
            if GENERATOR.random() < RANDOM.get("rate", 0):
                return GENERATOR.choice(RANDOM["kinds"])
    return None


def live_playlist():
    """The live window now: WINDOW segments, sliding by one every TARGET seconds."""
    last_start = LIVE["count"] - LIVE["window"]
    sequence = min(last_start, int((time.monotonic() - STARTED) / LIVE["target"]))
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", f"#EXT-X-TARGETDURATION:{int(LIVE['target'] + 0.999)}",
             f"#EXT-X-MEDIA-SEQUENCE:{sequence}"]
    for i in range(sequence, sequence + LIVE["window"]):
        lines += [f"#EXTINF:{LIVE['target']:.3f},", LIVE["pattern"] % i]
    return ("\n".join(lines) + "\n").encode()


WALL_STARTED = time.time()


def live_mpd():
    """The live window now as a dynamic MPD (see --live)."""
    last_start = LIVE["count"] - LIVE["window"]
    sequence = min(last_start, int((time.monotonic() - STARTED) / LIVE["target"]))
    span = LIVE["window"] * LIVE["target"]
    start = time.gmtime(WALL_STARTED - span)
    fraction = f"{(WALL_STARTED - span) % 1:.3f}"[1:]
    available = time.strftime("%Y-%m-%dT%H:%M:%S", start) + fraction + "Z"
    duration = int(round(LIVE["target"] * 1000))
    media = re.sub(r"%(0\d+)d", r"$Number%\1d$", LIVE["pattern"]).replace("%d", "$Number$")
    return f"""<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011"
     availabilityStartTime="{available}" timeShiftBufferDepth="PT{span:.3f}S"
     minimumUpdatePeriod="PT{LIVE['target']:.3f}S" minBufferTime="PT2S">
  <Period id="0" start="PT0S">
    <AdaptationSet contentType="video" mimeType="video/mp4" segmentAlignment="true">
      <Representation id="0" bandwidth="500000" codecs="avc1.64000d">
        <SegmentTemplate timescale="1000" initialization="init.m4s" media="{media}" startNumber="{sequence}">
          <SegmentTimeline><S t="{sequence * duration}" d="{duration}" r="{LIVE['window'] - 1}"/></SegmentTimeline>
        </SegmentTemplate>
      </Representation>
    </AdaptationSet>
  </Period>
</MPD>
""".encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.serve(send_body=False)

    def do_GET(self):
        if self.path == "/__stats":
            with SENDING:
                SENDING.wait_for(lambda: IN_FLIGHT[0] == 0, timeout=5)
                body = json.dumps(STATS).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.serve(send_body=True)

    def hostile(self, kind, relative, send_body):
        """Answers with one of the hostile origin's kinds; False for any other kind."""
        if kind.startswith("trickle:"):
            path = os.path.join(ROOT, relative)
            size = os.path.getsize(path) if os.path.isfile(path) else 1 << 20
            self.send_response(200)
            self.send_header("Content-Length", str(size))
            self.end_headers()
            with open(path, "rb") if os.path.isfile(path) else open(os.devnull, "rb") as file:
                for _ in range(size):
                    byte = file.read(1) or b"\0"
                    try:
                        self.wfile.write(byte)
                        self.wfile.flush()
                    except OSError:
                        break
                    time.sleep(float(kind.split(":")[1]))
            self.close_connection = True
            return True
        if kind == "nosize":
            self.send_response_only(200)
            self.send_header("Connection", "close")
            self.end_headers()
            try:
                self.wfile.write(b"\0" * 1000)
                self.wfile.flush()
                while True:  # silence until the client gives up or the server is killed
                    time.sleep(1)
                    self.wfile.write(b"")
            except OSError:
                pass
            self.close_connection = True
            return True
        if kind == "redirect" or kind.startswith("redirectto:"):
            self.send_response(302)
            self.send_header("Location", "/" + relative if kind == "redirect" else kind.split(":", 1)[1])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if kind.startswith("bigplaylist:"):
            line = b"#EXTINF:1.000,\nsegment.ts\n"
            head = b"#EXTM3U\n#EXT-X-TARGETDURATION:1\n"
            count = int(float(kind.split(":")[1]) * (1 << 20)) // len(line)
            self.send_response(200)
            if kind.endswith(":nosize"):
                self.send_header("Connection", "close")
            else:
                self.send_header("Content-Length", str(len(head) + count * len(line)))
            self.end_headers()
            if send_body:
                try:
                    self.wfile.write(head)
                    block = line * 4096
                    for _ in range(count // 4096):
                        self.wfile.write(block)
                    self.wfile.write(line * (count % 4096))
                except OSError:
                    pass
            self.close_connection = True
            return True
        return False

    def serve(self, send_body):
        relative = self.path.split("?")[0].lstrip("/")
        with LOCK:
            STATS["paths"][relative] = STATS["paths"].get(relative, 0) + 1
        kind = fault_for(relative)
        if kind is not None:
            with LOCK:
                STATS["faults"][kind] = STATS["faults"].get(kind, 0) + 1
            if kind == "reset":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if kind.startswith("stall:"):
                time.sleep(float(kind.split(":")[1]))
            elif self.hostile(kind, relative, send_body):
                return
            elif kind not in ("cut", "claimsize") and not kind.startswith(("cutat:", "as:")):
                self.send_response(int(kind))
                if kind == "429":
                    self.send_header("Retry-After", "1")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        if LIVE and relative == LIVE["name"]:
            is_mpd = relative.endswith(".mpd")
            body = live_mpd() if is_mpd else live_playlist()
            self.send_response(200)
            self.send_header("Content-Type", "application/dash+xml" if is_mpd else "application/vnd.apple.mpegurl")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            with LOCK:
                STATS["requests"] += 1
            if send_body:
                self.wfile.write(body)
            return
        cut = kind == "cut" or (kind or "").startswith("cutat:")
        if kind and kind.startswith("as:"):
            relative = kind.split(":", 1)[1]
        path = os.path.realpath(os.path.join(ROOT, relative))
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
            claimed = 2**63 - 1 if kind == "claimsize" else size
            self.send_header("Content-Range", f"bytes {start}-{end}/{claimed}")
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
        with LOCK:
            IN_FLIGHT[0] += 1
        # A closed range (bytes=A-B) is what the client asked for, and a CDN has it in flight:
        # if the client leaves early, the rest still counts. An open-ended one (bytes=A-, or no
        # Range) counts what the socket took, as before.
        closed = bool(match and match.group(1) and match.group(2))
        try:
            self.send_file_body(path, start, length, kind, closed)
        finally:
            with SENDING:
                IN_FLIGHT[0] -= 1
                SENDING.notify_all()
        if cut:
            # The body promised is cut short: the connection closes halfway.
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(2)

    def send_file_body(self, path, start, length, kind, closed):
        with open(path, "rb") as file:
            file.seek(start)
            remaining = length // 2 if kind == "cut" else length
            if kind and kind.startswith("cutat:"):
                remaining = max(0, min(length, int(kind.split(":")[1]) - start))
            while remaining > 0:
                chunk = file.read(min(remaining, 1 << 16))
                if not chunk:
                    break
                try:
                    self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    # The client closed, to seek elsewhere. A closed range counts whole, as the
                    # bench counts it; counting what this loopback socket took made the total
                    # depend on thread timing.
                    if closed:
                        with LOCK:
                            STATS["bytes"] += remaining
                    break
                with LOCK:
                    STATS["bytes"] += len(chunk)
                remaining -= len(chunk)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
port = server.server_address[1]
if TLS:
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*TLS)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"Serving HTTPS on 127.0.0.1 port {port} (https://127.0.0.1:{port}/) with byte ranges", flush=True)
else:
    print(f"Serving HTTP on 127.0.0.1 port {port} (http://127.0.0.1:{port}/) with byte ranges", flush=True)
server.serve_forever()
