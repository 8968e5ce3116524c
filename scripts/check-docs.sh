#!/usr/bin/env bash
# The DocC site renders: .build/docs-site served on loopback, its documentation/frameseek/ page
# loaded in headless Chromium (the page is drawn by JavaScript from JSON, so a file:// URL would
# not do), and the rendered DOM must hold the module's title, its overview, the topic groups
# and links to an article and to a symbol. A screenshot is kept in .build/docs-site.png.
#   scripts/check-docs.sh [SITE]       (default .build/docs-site; make docs runs it)
set -euo pipefail
cd "$(dirname "$0")/.."
site=${1:-.build/docs-site}
[ -f "$site/documentation/frameseek/index.html" ] || { echo "check-docs: no site in $site (run make docs)" >&2; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "check-docs: no chromium on PATH (scripts/install-deps.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
python3 - "$site" > "$work/port" <<'PY' &
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
print(server.server_address[1], flush=True)
server.timeout = 1
for _ in range(120):           # serves for two minutes at most, then stops by itself
    server.handle_request()
PY
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
url="http://127.0.0.1:$(cat "$work/port")/documentation/frameseek/"
browser=("$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile"
         --virtual-time-budget=15000 --window-size=1280,1600)
timeout 90 "${browser[@]}" --dump-dom "$url" > "$work/dom.html" 2>/dev/null
timeout 90 "${browser[@]}" --screenshot="$work/page.png" "$url" >/dev/null 2>&1
cp "$work/page.png" "$site.png"
failed=0
for want in 'class="title"[^>]*><span[^>]*>FrameSeek<' 'Seeks in video that land on exactly the frame' \
            '>Topics<' '>Essentials<' 'href="/documentation/frameseek/gettingstarted"' 'href="/documentation/frameseek/player"'; do
    grep -Eq "$want" "$work/dom.html" || { echo "check-docs: the rendered page lacks $want" >&2; failed=1; }
done
[ "$failed" = 0 ] || exit 1
echo "check-docs: $url rendered in headless Chromium: title, overview, topics, article and symbol links ($site.png)"
