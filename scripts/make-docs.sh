#!/usr/bin/env bash
# make docs: the DocC site of every public module, in .build/docs-site/ (static hosting).
#
# One catalog (Sources/FrameSeek/FrameSeek.docc) over the umbrella module: FrameSeek re-exports
# FrameSeekCore, FrameSeekFFmpeg, FrameSeekImages, FrameSeekManifest and FrameSeekResume, and
# swift-symbolgraph-extract takes their public symbols into FrameSeek's symbol graph
# (-experimental-allowed-reexported-modules), so one site covers them all, each symbol once.
# The modules are those `swift build` made; nothing is fetched, no package plugin is used.
# Any warning fails the build (docc --warnings-as-errors), as CI treats them.
#   scripts/make-docs.sh [OUTPUT]      (default .build/docs-site)
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs-site}
swift=${SWIFT:-swift}
graphs=.build/symbol-graphs
reexported=FrameSeekCore,FrameSeekFFmpeg,FrameSeekImages,FrameSeekManifest,FrameSeekResume

"$swift" build --target FrameSeek >/dev/null
modules=$("$swift" build --show-bin-path)/Modules
triple=$("$swift" -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
rm -rf "$graphs" "$output"
mkdir -p "$graphs"
# The C modules' headers, as the build found them (the system libraries' include folders).
cflags=$(pkg-config --cflags libavformat libavcodec libavutil libswscale libswresample libpng sqlite3 libxml-2.0)
xcc=()
for flag in $cflags; do xcc+=(-Xcc "$flag"); done
swift-symbolgraph-extract -module-name FrameSeek -target "$triple" -I "$modules" \
    -I Sources/CFFmpeg -I Sources/CPNG -I Sources/CSQLite -I Sources/CXML2 "${xcc[@]}" \
    -minimum-access-level public -experimental-allowed-reexported-modules="$reexported" \
    -output-dir "$graphs"
docc convert Sources/FrameSeek/FrameSeek.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name FrameSeek --fallback-bundle-identifier org.frameseek.FrameSeek \
    --transform-for-static-hosting --output-path "$output" --warnings-as-errors
echo "make-docs: $output/documentation/frameseek/index.html"
