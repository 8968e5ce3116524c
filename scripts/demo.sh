#!/usr/bin/env bash
# The demo `make demo` runs: exact and keyframe seeks over the bundled fixtures, each landing
# printed with its latency, and PNGs of landed frames written to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${FRAMESEEK_BIN:-.build/release/frameseek}
mkdir -p out
F=Fixtures/media

echo "== H.264, B-frames, GOP 250, 30000/1001 fps: exact seeks (keyframes at frames 0 and 250)"
$bin seek $F/h264_bframes_gop250.mp4 0 4.2 8.3 8.34 1001/30000 00:00:11.9 -5 99 --md5
echo
echo "== The same targets with other precisions"
$bin seek $F/h264_bframes_gop250.mp4 4.2 8.3 --precision previous-keyframe
$bin seek $F/h264_bframes_gop250.mp4 4.2 8.3 --precision nearest-keyframe:0.5
echo
echo "== MPEG-TS starting at 11.4 s (the timeline is zero-based)"
$bin seek $F/h264_mpegts_offset.ts 0 2.5 5.99 --md5
echo
echo "== HEVC open GOP in Matroska, VP9 with alt-ref frames, AV1"
$bin seek $F/hevc_opengop.mkv 1.9 3.95 --md5
$bin seek $F/vp9_altref.webm 1.5 3.3 --md5
$bin seek $F/av1.mp4 1.0 2.9 --md5
echo
echo "== A real iPhone clip: HEVC 10-bit HLG, edit list, rotated -90 (PNG written upright)"
$bin seek $F/iphone_hevc_editlist.mp4 1.25 --md5 --png out/iphone_1.25s.png
echo
echo "== A real NASA clip, second video stream (absolute index 3)"
$bin seek $F/nasa_13013.mp4 6.5 --stream 3 --md5 --png out/nasa_6.5s.png
echo
echo "== Audio only: lands on the audio frame covering the target"
$bin seek $F/bbb_aac_lc_8k.m4a 1.0 2.5
echo
echo "== The Player API (Examples/PlayerExample): seek, keyframe seek, clamp, scrub, steps, close"
${FRAMESEEK_EXAMPLE_BIN:-.build/release/frameseek-player-example} $F/h264_bframes_gop250.mp4
echo
echo "== Frame steps: backward steps come from the frame cache after one decode of the GOP"
$bin step $F/h264_bframes_gop250.mp4 --at 8.2 --backward --repeat 5 --md5
$bin step $F/h264_bframes_gop250.mp4 --at 11.9 --forward --count 2 --repeat 3
echo
echo "== Seek-preview thumbnails: a sprite sheet, WebVTT and a JSON storyboard (rotated clip: portrait tiles)"
$bin thumbnails $F/iphone_hevc_editlist.mp4 --out out/thumbs-iphone --every 0.25 --columns 5 --rows 2
$bin thumbnails $F/h264_bframes_gop250.mp4 --out out/thumbs-gop250 --every 1 --columns 4 --rows 3 --precision exact
head -8 out/thumbs-gop250/thumbnails.vtt
echo
echo "== Seek latency on a fixture (random, scrub, backstep), with an HTML report"
$bin bench $F/h264_bframes_gop250.mp4 --workload random,scrub,backstep -n 20 --report out/bench.html
echo
echo "== Landing manifests: record where seeks land (with barcodes), check them, and see what moved"
rm -rf out/landing && mkdir -p out/landing
cp $F/h264_bframes_gop250.mp4 out/landing/clip.mp4
$bin landing record out/landing/clip.mp4 -n 6 --precision exact --precision previous-keyframe --barcode -o out/landing/clip.landing.json
$bin landing check out/landing/clip.landing.json
# The same manifest edited to expect frame 200 at its first entry: exit 1 and a diff picture.
python3 - <<'PY'
import json
m = json.load(open("out/landing/clip.landing.json"))
m["entries"][0].update(frame_index=200, md5="0" * 32, barcode=200)
json.dump(m, open("out/landing/edited.landing.json", "w"), indent=1)
PY
$bin landing check out/landing/edited.landing.json --diff-dir out/landing/diffs || echo "(exit $?: a landing moved, as edited)"
echo
echo "Written: out/landing/ (manifests and diffs/), out/bench.html, out/thumbs-iphone/, out/thumbs-gop250/, and PNG files: out/iphone_1.25s.png (portrait, 1080x1920) and out/nasa_6.5s.png"
