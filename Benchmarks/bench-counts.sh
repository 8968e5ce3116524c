#!/usr/bin/env bash
# Benchmarks/bench-counts.sh FRAMESEEK [FILM]
#
# Whether `frameseek bench --json` counts what a server sends, for every packaging of one film:
# FILM (default .build/bench-media/film_2h.mp4) over HTTP as a progressive MP4, and packaged as
# segment-cost.sh packages it (HLS with MPEG-TS segments, HLS with CMAF segments, DASH by
# $Number$, in segment-cost/ next to FILM). For each form and round, one
# `bench URL --workload random,long -n 10 --seed ROUND --json` run, no index cache: the bytes and
# requests bench counted (the opens' and every operation's) against the difference of the range
# server's /__stats before and after. Prints per form the median of 3 rounds of the counted
# bytes, the sent bytes, their ratio, the requests both ways, and the random and long medians.
set -uo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/seek-cost-lib.sh
cost_arguments segment-cost "$@"
package_segmented
start_range_server "$(dirname "$film")"
forms=("$(basename "$film")" segment-cost/hls-ts/index.m3u8 segment-cost/hls-cmaf/index.m3u8 segment-cost/dash/manifest.mpd)

printf '%-34s %13s %13s %7s %9s %9s %11s %11s\n' form counted_bytes sent_bytes ratio counted sent random_ms long_ms
for form in "${forms[@]}"; do
    : > "$scratch/rows"
    for round in 1 2 3; do
        before=$(stats)
        env "XDG_CACHE_HOME=$scratch/cache" "$frameseek" bench "$origin/$form" --workload random,long -n 10 \
            --seed "$round" --json > "$scratch/json" 2> "$scratch/err" || { cat "$scratch/err" >&2; exit 1; }
        after=$(stats)
        python3 -c '
import json, sys
before, after = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rows = [json.loads(line) for line in open(sys.argv[3])]
counted = sum(r["open_bytes_read"] + (r["bytes_read"] or 0) for r in rows)
requests = sum((r["open_requests"] or 0) + (r["requests"] or 0) for r in rows)
median = {r["workload"]: r["median_ms"] for r in rows}
print(counted, after["bytes"] - before["bytes"], requests, after["requests"] - before["requests"], median["random"], median["long"])
' "$before" "$after" "$scratch/json" >> "$scratch/rows"
    done
    column() { awk -v c="$1" '{print $c}' "$scratch/rows" | median; }
    counted=$(column 1) sent=$(column 2)
    printf '%-34s %13s %13s %7.4f %9s %9s %11.1f %11.1f\n' "$form" "$counted" "$sent" \
        "$(echo "$counted / $sent" | bc -l)" "$(column 3)" "$(column 4)" "$(column 5)" "$(column 6)"
done
