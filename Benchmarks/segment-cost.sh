#!/usr/bin/env bash
# Benchmarks/segment-cost.sh FRAMESEEK [FILM] [TIME]
#
# What one exact seek costs in a segmented presentation, against `ffmpeg -ss` on the same URL:
# FILM (default .build/bench-media/film_2h.mp4) is packaged, video only, as HLS with MPEG-TS
# segments, HLS with CMAF segments (EXT-X-MAP) and DASH (SegmentTemplate by $Number$), next to it
# in segment-cost/, and each is sought at TIME (default 3600.48 s) over HTTP, first open, no
# index cache, through scripts/range-http-server.py: the bytes and requests it sent, which files
# they were for (the manifest, the init segment, media segments), and the wall time. Each figure
# is the median of 3 rounds, FrameSeek and ffmpeg alternating. The MD5 is the landed frame's;
# FILM's own frame there is the oracle (Benchmarks/container-cost.sh prints it for the MP4).
set -uo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/seek-cost-lib.sh
cost_arguments segment-cost "$@"

package_segmented
forms=(hls-ts/index.m3u8 hls-cmaf/index.m3u8 dash/manifest.mpd)

start_range_server "$dir"

# The files a run fetched, by kind, from two /__stats answers: "manifest=N init=N media=N".
kinds() {
    python3 -c '
import json, sys
before, after = json.loads(sys.argv[1])["paths"], json.loads(sys.argv[2])["paths"]
counts = {"manifest": 0, "init": 0, "media": 0}
for path, n in after.items():
    n -= before.get(path, 0)
    if n <= 0: continue
    kind = "manifest" if path.endswith((".m3u8", ".mpd")) else "init" if "init" in path else "media"
    counts[kind] += n
print(" ".join(f"{k}={v}" for k, v in counts.items()))' "$1" "$2"
}

command_frameseek() { echo env "XDG_CACHE_HOME=$scratch/cache" "$frameseek" seek "$1" "$at" --md5 --no-index-cache; }
command_ffmpeg() { echo ffmpeg -v error -ss "$at" -i "$1" -map 0:v:0 -frames:v 1 -f framemd5 -; }
md5_frameseek() { grep -o 'md5 [0-9a-f]*' | cut -d' ' -f2; }
md5_ffmpeg() { grep -v '^#' | tail -1 | awk -F', *' '{print $6}'; }

printf '%-22s %-9s %12s %9s %9s  %-28s %s\n' form tool http_bytes requests http_s files md5
for form in "${forms[@]}"; do
    for tool in frameseek ffmpeg; do
        : > "$scratch/bytes"; : > "$scratch/requests"; : > "$scratch/http"
        md5= files=
        for _ in 1 2 3; do
            before=$(stats)
            start=$(date +%s.%N)
            md5=$($("command_$tool" "$origin/$form") 2> "$scratch/err" | "md5_$tool")
            end=$(date +%s.%N)
            after=$(stats)
            read -r bytes requests <<< "$(cost "$before" "$after")"
            files=$(kinds "$before" "$after")
            echo "$bytes" >> "$scratch/bytes"
            echo "$requests" >> "$scratch/requests"
            echo "$end - $start" | bc >> "$scratch/http"
        done
        printf '%-22s %-9s %12s %9s %9.2f  %-28s %s\n' "$form" "$tool" "$(median < "$scratch/bytes")" \
            "$(median < "$scratch/requests")" "$(median < "$scratch/http")" "$files" \
            "${md5:-none: $(head -c 200 "$scratch/err")}"
    done
done
