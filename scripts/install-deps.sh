#!/usr/bin/env bash
# Installs the Debian packages FrameSeek builds against, when this shell may; otherwise prints
# the exact apt-get line and exits 2. The Swift toolchain itself is expected on PATH.
set -euo pipefail

# ffmpeg: the command line the hostile-file tests compare landings with (FFmpeg's own decode).
# libavfilter-dev: HDR tone mapping (zscale, tonemap) for PNGs and thumbnails.
# chromium: headless, it renders the bench report for BenchScreenshotTests.
# python3-junitparser: a JUnit reader nobody here wrote, for the landing check's --junit files.
# python3-m3u8, python3-mpegdash: HLS and DASH parsers nobody here wrote, for the thumbnails'
# image playlist and MPD.
packages=(pkg-config libavformat-dev libavcodec-dev libavfilter-dev libavutil-dev libswscale-dev libswresample-dev libpng-dev libsqlite3-dev libxml2-dev ffmpeg chromium python3-junitparser python3-m3u8 python3-mpegdash)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: no swift on PATH; install the Swift 6 toolchain (swift.org) first" >&2
  exit 2
fi
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  runner=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  runner=(sudo)
else
  echo "install-deps: missing packages; run as root: apt-get update && $line" >&2
  exit 2
fi
echo "install-deps: installing ${missing[*]}" >&2
"${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${runner[@]}" env DEBIAN_FRONTEND=noninteractive $line >/dev/null
