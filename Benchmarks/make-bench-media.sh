#!/usr/bin/env bash
# Encodes the benchmark media (not committed: too large for Fixtures/). Needs the ffmpeg CLI.
#   h264_720p_gop250.mp4   60 s, 1280x720, H.264 High, 30000/1001 fps, keyframe every 250
#                          frames, 3 B-frames: the encode the seek-latency issues name.
#   h264_1080p_gop250.mp4  20 s, 1920x1080, same structure: the cache memory check.
#   h264_360p_10min.mp4    10 min, 640x360, keyframe every 250 frames: the thumbnail benchmark
#   h264_480p_10min.mp4    the same at 854x480, the issue's 480p
#                          (these two only with BENCH_LONG=1: they take a few minutes).
#   book_3h.m4b            3 h of AAC-LC, 64 kbit/s mono, 44.1 kHz (pink noise under a tone,
#                          moov at the end): an audiobook.
#   book_3h_nopns.m4b      the same audiobook encoded without noise substitution (-aac_pns 0),
#                          whose landed samples need no decode from the start
#   podcast_3h.webm        the same signal as Opus, 32 kbit/s mono, in WebM: a podcast
#                          (these three only with BENCH_AUDIO=1: about six minutes).
set -euo pipefail
out=${1:-.build/bench-media}
mkdir -p "$out"
src() { echo "testsrc2=size=$1:rate=30000/1001,noise=alls=8:allf=t"; }
enc() {  # name size seconds
  local file="$out/$1"
  [ -s "$file" ] && return 0
  echo "encoding $file" >&2
  ffmpeg -v error -y -f lavfi -i "$(src "$2")" -t "$3" -c:v libx264 -preset veryfast -crf 23 \
    -g 250 -keyint_min 250 -sc_threshold 0 -bf 3 -pix_fmt yuv420p "$file"
}
enc h264_720p_gop250.mp4 1280x720 60
enc h264_1080p_gop250.mp4 1920x1080 20
[ "${BENCH_LONG:-0}" = 1 ] && enc h264_360p_10min.mp4 640x360 600
[ "${BENCH_LONG:-0}" = 1 ] && enc h264_480p_10min.mp4 854x480 600
audio() {  # name codec options...
  local file="$out/$1"; shift
  [ -s "$file" ] && return 0
  echo "encoding $file" >&2
  ffmpeg -v error -y -f lavfi -i "anoisesrc=d=10800:c=pink:r=44100:a=0.05:seed=36,lowpass=3000" \
    -f lavfi -i "sine=f=220:r=44100:d=10800" -filter_complex amix=inputs=2 -ac 1 "$@" "$file"
}
[ "${BENCH_AUDIO:-0}" = 1 ] && audio book_3h.m4b -c:a aac -b:a 64k
[ "${BENCH_AUDIO:-0}" = 1 ] && audio book_3h_nopns.m4b -c:a aac -aac_pns 0 -b:a 64k
[ "${BENCH_AUDIO:-0}" = 1 ] && audio podcast_3h.webm -ar 48000 -c:a libopus -b:a 32k
exit 0
