#!/usr/bin/env bash
# Benchmarks/window-steps.sh FRAMESEEK [TIME]
#
# What three frame steps after an exact landing cost in the forms container-cost.sh makes
# (run it first: it leaves them in .build/bench-media/container-cost/), first open, no index
# cache, from local disk: `frameseek step F --at TIME --forward --repeat 3 --decoders 1` and
# the same --backward, with --index as-needed (seek windows) and with --index full (the whole
# stream indexed at open), alternating, 3 rounds. Prints each way's median wall time and peak
# RSS (/usr/bin/time), and whether the two modes printed the same PTS and MD5s.
set -uo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: Benchmarks/window-steps.sh FRAMESEEK [TIME]" >&2; exit 2; }
frameseek=$(realpath "$1")
at=${2:-3600.48}
dir=.build/bench-media/container-cost
median() { sort -n | sed -n 2p; }
for form in film_2h.sidx.mp4 film_2h.mkv film_2h.ts; do
    file=$dir/$form
    [[ -f $file ]] || { echo "$file: missing (run Benchmarks/container-cost.sh first)" >&2; exit 2; }
    for direction in forward backward; do
        declare -A walls=() peaks=() prints=()
        for round in 1 2 3; do
            for mode in as-needed full; do
                out=$(mktemp)
                /usr/bin/time -f "%e %M" -o "$out.time" "$frameseek" step "$file" --at "$at" --"$direction" --repeat 3 \
                    --decoders 1 --md5 --json --no-index-cache --index "$mode" > "$out"
                read -r wall peak < "$out.time"
                walls[$mode]+="$wall"$'\n'
                peaks[$mode]+="$peak"$'\n'
                prints[$mode]=$(python3 -c "import json,sys; print(' '.join(f\"{d['landed_pts']}:{d['md5']}\" for d in map(json.loads, open(sys.argv[1]))))" "$out")
                rm -f "$out" "$out.time"
            done
        done
        same=$([[ ${prints[as-needed]} == "${prints[full]}" ]] && echo "same PTS and MD5s" || echo "!! PTS or MD5s differ")
        for mode in as-needed full; do
            printf '%-18s %-9s --index %-9s %6s s  %5s MiB\n' "$form" "$direction" "$mode" \
                "$(printf '%s' "${walls[$mode]}" | median)" \
                "$(( $(printf '%s' "${peaks[$mode]}" | median) / 1024 ))"
        done
        echo "$form $direction: $same"
        unset walls peaks prints
    done
done
