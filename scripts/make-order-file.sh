#!/usr/bin/env bash
# Writes Sources/frameseek/hot-functions.order: the functions of the `frameseek` executable
# that its common commands run, for lld's --symbol-ordering-file (Package.swift, release
# builds). Laid out together, they fill a few dozen pages of code instead of touching a
# page in each of the 114 windows of 64 KiB that the kernel maps around a fault (fault-around)
# across the 15 MiB of static Swift runtime, Foundation and FrameSeek code: a seek's process
# kept 7.2 MiB of the executable's code resident, and keeps about 1 MiB with the order.
#
# The list comes from valgrind's callgrind (every function run, not a sample) over the
# bundled fixtures. Names that a later change renames or removes are skipped by the linker
# (--no-warn-symbol-ordering) and their code lands after the ordered code, as it did before
# the order existed: a stale list costs memory, never correctness. Run again after large
# changes, or a toolchain upgrade:  scripts/make-order-file.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "make-order-file.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }

swift build -c release --static-swift-stdlib --product frameseek
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)/frameseek
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
media=Fixtures/media

run() {
    valgrind --tool=callgrind --demangle=no --dump-instr=no --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$work/cg.%p" "$bin" "$@" > /dev/null 2>> "$work/valgrind.log" || true
}
export XDG_CACHE_HOME="$work/cache"
run --version
run probe "$media/h264_bframes_gop250.mp4" --json
run probe "$media/h264_vfr.mkv"
run seek "$media/h264_bframes_gop250.mp4" 3.2 7.5 --md5 --json
run seek "$media/h264_bframes_gop250.mp4" 4.1 --png "$work/landed.png"
run seek "$media/iphone_hevc_editlist.mp4" 1.0 --md5
run seek "$media/h264_mpegts_offset.ts" 2.0 --md5 --no-index-cache
run seek "$media/h264_vfr.mkv" 2.0 --md5
run seek "$media/h264_vfr.mkv" 2.5 --md5
run seek "$media/vp9_altref.webm" 1.0 --md5
run seek "$media/nasa_13013_audio.mp3" 3.0 --md5
run seek "$media/aac_sine.m4a" 1.0 --md5
run step "$media/h264_bframes_gop250.mp4" --at 2.0 --backward --count 2 --md5
run thumbnails "$media/h264_bframes_gop250.mp4" --out "$work/thumbs" --every 2
run frames "$media/h264_bframes_gop250.mp4"

# The functions callgrind saw in the executable itself ("ob=" names the object, "fn=" the
# function; a repeated name in one file is callgrind's, ending in "'2").
awk -v bin="$(readlink -f "$bin")" '
    /^ob=/ { object = substr($0, 4) }
    /^fn=/ && object == bin { name = substr($0, 4); sub(/'"'"'[0-9]+$/, "", name); print name }
' "$work"/cg.* | sort -u > Sources/frameseek/hot-functions.order
echo "wrote Sources/frameseek/hot-functions.order: $(wc -l < Sources/frameseek/hot-functions.order) functions"
