#!/usr/bin/env bash
# The README's seek-cost example: two encodes of one 40-s clip, a keyframe every 25 frames
# and every 250, each served over HTTP by its own range server (scripts/range-http-server.py),
# measured side by side by one `frameseek bench A B` run over a modeled 50 ms / 20 Mbit/s
# link. Prints each row's counts beside the server's, and writes .build/seek-cost/cost.html.
#   Benchmarks/seek-cost-example.sh [FRAMESEEK]     (default .build/release/frameseek)
set -euo pipefail
cd "$(dirname "$0")/.."
frameseek=${1:-.build/release/frameseek}
work=.build/seek-cost
mkdir -p "$work/gop25" "$work/gop250"
for gop in 25 250; do
    [ -f "$work/gop$gop/gop$gop.mp4" ] || ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720:rate=25:duration=40 \
        -c:v libx264 -preset medium -g "$gop" -keyint_min "$gop" -sc_threshold 0 -bf 3 -pix_fmt yuv420p "$work/gop$gop/gop$gop.mp4"
done
pids=()
trap 'kill "${pids[@]}" 2> /dev/null || true' EXIT
ports=()
for gop in 25 250; do
    python3 -u scripts/range-http-server.py "$work/gop$gop" > "$work/server$gop.txt" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do grep -q "port" "$work/server$gop.txt" 2> /dev/null && break; sleep 0.1; done
    ports+=("$(grep -o 'port [0-9]*' "$work/server$gop.txt" | head -1 | cut -d' ' -f2)")
done
a=http://127.0.0.1:${ports[0]}/gop25.mp4 b=http://127.0.0.1:${ports[1]}/gop250.mp4
"$frameseek" bench "$a" "$b" --workload random -n 40 --network 50ms,20mbit --report "$work/cost.html" --json \
    > "$work/rows.json" 2> "$work/verdicts.txt"
cat "$work/verdicts.txt"
python3 - "$work/rows.json" "${ports[@]}" <<'EOF'
import json, sys, urllib.request
rows = [json.loads(line) for line in open(sys.argv[1])]
for row, port in zip(rows, sys.argv[2:]):
    sent = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/__stats").read())
    seeks = row["samples"]
    counted = row["open_bytes_read"] + sum(s["bytes_read"] for s in seeks)
    requests = row["open_requests"] + sum(s["requests"] for s in seeks)
    bytes_per_seek = sorted(s["bytes_read"] for s in seeks)[len(seeks) // 2]
    print(f'{row["file"].rsplit("/", 1)[-1]}: GOP {row["settings"]["gop_median_frames"]}, p50 {row["median_ms"]:.1f} ms, '
          f'p95 {row["p95_ms"]:.1f} ms, modeled p50 {row["modeled_median_ms"]:.1f} ms, p95 {row["modeled_p95_ms"]:.1f} ms; '
          f'median {bytes_per_seek} bytes a seek; counted {counted} bytes in {requests} requests, '
          f'the server sent {sent["bytes"]} in {sent["requests"]}')
EOF
echo "report: $work/cost.html"
