# Benchmarks/seek-cost-lib.sh: sourced by the seek-cost scripts (container-cost.sh,
# segment-cost.sh). `cost_arguments NAME "$@"` reads their FRAMESEEK [FILM] [TIME] into
# frameseek, film (default .build/bench-media/film_2h.mp4), at (default 3600.48) and dir (NAME/
# next to FILM, made). `start_range_server DIRECTORY` starts scripts/range-http-server.py on it,
# in a scratch directory removed on exit, and the rest is defined:
#   origin   http://127.0.0.1:PORT
#   stats    the server's /__stats JSON
#   cost A B "BYTES REQUESTS" between two /__stats answers
#   median   the middle of three numbers on stdin
# `package_segmented` packages FILM's video, stream-copied, in $dir as HLS with MPEG-TS
# segments, HLS with CMAF segments and DASH by $Number$ (hls-ts/index.m3u8,
# hls-cmaf/index.m3u8, dash/manifest.mpd), once.
cost_arguments() {
    local name=$1
    shift
    [[ $# -ge 1 ]] || { echo "usage: Benchmarks/$name.sh FRAMESEEK [FILM] [TIME]" >&2; exit 2; }
    frameseek=$(realpath "$1")
    film=$(realpath "${2:-.build/bench-media/film_2h.mp4}")
    at=${3:-3600.48}
    dir=$(dirname "$film")/$name
    mkdir -p "$dir"
}

start_range_server() {
    local directory=$1
    scratch=$(mktemp -d)
    server_pid=
    trap 'cleanup_range_server' EXIT
    python3 scripts/range-http-server.py "$directory" > "$scratch/server.out" 2>&1 &
    server_pid=$!
    for _ in $(seq 50); do
        port=$(grep -o 'port [0-9]*' "$scratch/server.out" | head -1 | cut -d' ' -f2)
        [[ -n "$port" ]] && break
        sleep 0.1
    done
    [[ -n "$port" ]] || { echo "seek-cost: the range server did not start" >&2; exit 1; }
    origin="http://127.0.0.1:$port"
}

cleanup_range_server() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2> /dev/null
    rm -rf "$scratch"
}

stats() { curl -s "$origin/__stats"; }
# The difference of two /__stats answers: "BYTES REQUESTS".
cost() {
    python3 -c '
import json, sys
before, after = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(after["bytes"] - before["bytes"], after["requests"] - before["requests"])' "$1" "$2"
}

median() { sort -g | sed -n 2p; }

package() {  # name manifest ffmpeg-output-options...
    local name=$1 manifest=$2
    shift 2
    [[ -s "$dir/$name/$manifest" ]] && return 0
    echo "seek-cost: packaging $dir/$name" >&2
    rm -rf "$dir/$name" && mkdir -p "$dir/$name"
    (cd "$dir/$name" && ffmpeg -v error -y -i "$film" -map 0:v:0 -c copy "$@" "$manifest.part" && mv "$manifest.part" "$manifest")
}

package_segmented() {
    package hls-ts index.m3u8 -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_filename s%d.ts
    package hls-cmaf index.m3u8 -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_type fmp4 -hls_segment_filename s%d.m4s
    package dash manifest.mpd -f dash -seg_duration 10 -use_template 1 -use_timeline 0
}
