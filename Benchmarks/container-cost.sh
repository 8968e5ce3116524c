#!/usr/bin/env bash
# Benchmarks/container-cost.sh FRAMESEEK [FILM] [TIME]
#
# What one exact seek costs in each form a CDN serves, against `ffmpeg -ss` on the same input:
# the measurement the container-index work is judged by. FILM (default
# .build/bench-media/film_2h.mp4) is stream-copied into fragmented MP4 with a global sidx,
# fragmented MP4 without one (an mfra only), Matroska with Cues and MPEG-TS, next to it in
# container-cost/. Each form is then sought at TIME (default 3600.48 s), first open, no index
# cache:
#   - over HTTP, through scripts/range-http-server.py: the bytes and requests the server sent
#     (its /__stats), and the wall time;
#   - from local disk: the wall time and peak RSS of the whole process (/usr/bin/time).
# Each figure is the median of 3 rounds, FrameSeek and ffmpeg alternating.
#
# The server counts what it wrote into the socket for an open-ended range. ffmpeg asks for
# those (bytes=N-) and leaves them early, so its "sent" includes bytes it never read; FrameSeek's
# reader asks for closed ranges, which count whole, as bench counts them.
#
# ffmpeg gives the first frame at or after its -ss (its trim filter), so it is given the start
# of the frame FrameSeek lands on, and both should print one MD5. On MPEG-TS `ffmpeg -ss` can
# start after a non-keyframe and give a later picture: the MD5 columns say whether the two
# agree, not which is right. The oracle is a full decode (ffmpeg -f framemd5) of the file.
set -uo pipefail
cd "$(dirname "$0")/.."
. Benchmarks/seek-cost-lib.sh
cost_arguments container-cost "$@"
base=$(basename "${film%.*}")

remux() {  # name ffmpeg-output-options...
    local out="$dir/$base.$1"
    shift
    [[ -s "$out" ]] && return 0
    echo "container-cost: making $out" >&2
    ffmpeg -v error -y -i "$film" -map 0 -c copy "$@" "$out.part" && mv "$out.part" "$out"
}
remux sidx.mp4 -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof+global_sidx
remux mfra.mp4 -f mp4 -movflags +frag_keyframe+empty_moov+default_base_moof
remux mkv -f matroska
remux ts -f mpegts
forms=("$base.sidx.mp4" "$base.mfra.mp4" "$base.mkv" "$base.ts")

start_range_server "$dir"

# One seek's command line for each tool: INPUT is the URL or the path.
command_frameseek() { echo env "XDG_CACHE_HOME=$scratch/cache" "$frameseek" seek "$1" "$at" --md5 --no-index-cache; }
command_ffmpeg() { echo ffmpeg -v error -ss "$ffmpeg_at" -i "$1" -map 0:v:0 -frames:v 1 -f framemd5 -; }
# The landed MD5 in each tool's output.
md5_frameseek() { grep -o 'md5 [0-9a-f]*' | cut -d' ' -f2; }
md5_ffmpeg() { grep -v '^#' | tail -1 | awk -F', *' '{print $6}'; }


printf '%-26s %-9s %12s %9s %9s %9s %10s  %s\n' form tool http_bytes requests http_s disk_s disk_rss_MB md5
for form in "${forms[@]}"; do
    # ffmpeg starts at the frame FrameSeek lands on: its PTS in microseconds, rounded down, so
    # that the first frame at or after it is that frame (as the Performance article compares).
    ffmpeg_at=$(XDG_CACHE_HOME="$scratch/cache" "$frameseek" seek "$dir/$form" "$at" --json --no-index-cache 2> /dev/null \
        | python3 -c 'import sys, json, fractions, math; t = fractions.Fraction(json.loads(sys.stdin.readline())["landed_rational"]); print(f"{math.floor(t * 1000000) / 1e6:.6f}")')
    [[ -n "$ffmpeg_at" ]] || { echo "container-cost: frameseek could not seek in $form" >&2; continue; }
    for tool in frameseek ffmpeg; do
        : > "$scratch/bytes"; : > "$scratch/requests"; : > "$scratch/http"; : > "$scratch/disk"; : > "$scratch/rss"
        md5=
        for _ in 1 2 3; do
            before=$(stats)
            start=$(date +%s.%N)
            md5=$($("command_$tool" "$origin/$form") 2> "$scratch/err" | "md5_$tool")
            end=$(date +%s.%N)
            read -r bytes requests <<< "$(cost "$before" "$(stats)")"
            echo "$bytes" >> "$scratch/bytes"
            echo "$requests" >> "$scratch/requests"
            echo "$end - $start" | bc >> "$scratch/http"
            /usr/bin/time -f '%e %M' -o "$scratch/time" $("command_$tool" "$dir/$form") > /dev/null 2>&1
            read -r seconds kilobytes < "$scratch/time"
            echo "$seconds" >> "$scratch/disk"
            echo "scale=1; $kilobytes / 1000" | bc >> "$scratch/rss"
        done
        printf '%-26s %-9s %12s %9s %9.2f %9.2f %10s  %s\n' "$form" "$tool" "$(median < "$scratch/bytes")" \
            "$(median < "$scratch/requests")" "$(median < "$scratch/http")" "$(median < "$scratch/disk")" \
            "$(median < "$scratch/rss")" "${md5:-none: $(head -c 200 "$scratch/err")}"
    done
done
