#!/usr/bin/env bash
# scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# Builds a libFuzzer target and fuzzes it for SECONDS. TARGET is
#   media    arbitrary bytes opened as media from memory (a custom AVIOContext), then probed,
#            seeked with every precision, stepped both ways and thumbnailed;
#   parsing  the bytes as a time, a precision and a --targets file;
#   playlists    the bytes as an HLS playlist of either kind (with its timeline, live window,
#                dates and a live reload when a second #EXTM3U follows), their first line as an
#                attribute list and as a program date;
#   mp4file      the bytes written to a file and opened from its path, so the MP4 box parser
#                (MP4SampleTable through ByteRangeReader) and the index scan through
#                PayloadSkippingReader run; two seeks and a step;
#   index-cache  the bytes as a small Matroska file's index cache entry, whole and as the
#                payload of a header with a valid SHA-256, then a seek on the table kept;
#   landing      the bytes as a landing manifest (landing check), a catalog (landing check
#                --catalog) and a shard's results (landing merge);
#   ranged-http  the bytes as the script of a loopback HTTP server (statuses, Content-Range and
#                Content-Length claims, cut and held bodies) serving a small MP4 that the
#                engine opens over HTTP (RangedHTTPReader) and seeks once.
#
# The seeds of the newer targets are committed in Fuzz/seeds/TARGET (see its README).
#
# Everything lives in .build-fuzz/ (never committed): the instrumented build, the corpus the
# fuzzer grows (corpus/TARGET), the seeds made from Fixtures on every run (seeds/TARGET), and
# what it finds (artifacts/TARGET: crash-*, timeout-*, oom-*, leak-*). A finding goes into
# Fixtures/fuzz-regressions/ as TARGET-NAME once fixed; `swift test` replays that folder, and
# this script seeds from it too.
#
# The build is SwiftPM's, with -sanitize=fuzzer,address, in a scratch path of its own, and
# FRAMESEEK_LIBFUZZER defined so the fuzz executables export
# LLVMFuzzerTestOneInput instead of a main (libFuzzer's runtime from /opt/swift supplies it).
# An ordinary `swift build` builds them as replay tools: `frameseek-fuzz-media FILE...`.
set -euo pipefail
cd "$(dirname "$0")/.."

targets="media parsing playlists mp4file index-cache landing ranged-http"
usage() { echo "usage: scripts/fuzz.sh ${targets// /|} SECONDS [libFuzzer options...]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
target=$1
seconds=$2
shift 2
[[ " $targets " == *" $target "* ]] || usage
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

scratch=.build-fuzz
product=frameseek-fuzz-$target
# FUZZ_BUILT=1: the product is built already; FUZZ_BUILD_ONLY=1: build it and stop
# (scripts/fuzz-ci.sh builds every target before it runs any).
if [[ "${FUZZ_BUILT:-0}" != 1 ]]; then
# --sanitize fuzzer tells SwiftPM that libFuzzer supplies main. The sanitizers themselves are
# one -sanitize=fuzzer,address after it: given as two flags (--sanitize fuzzer --sanitize
# address), swift-driver 6.3 keeps only the last and compiles without coverage.
swift build --scratch-path "$scratch" --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -DFRAMESEEK_LIBFUZZER --product "$product" 2>&1 \
    | grep -v "Cannot export local symbol" >&2   # gold's noise about ASan's own symbols
fi
[[ "${FUZZ_BUILD_ONLY:-0}" != 1 ]] || exit 0

# FUZZ_CORPUS: another folder for the corpus (fuzz-ci.sh starts each run from an empty one, so
# its time does not grow with what earlier runs kept).
corpus=${FUZZ_CORPUS:-$scratch/corpus/$target}
seeds=$scratch/seeds/$target
artifacts=$scratch/artifacts/$target
mkdir -p "$corpus" "$artifacts"
rm -rf "$seeds" && mkdir -p "$seeds"
case "$target" in
media)
    # Every fixture under 1 MB (the phone clips are 2.5 and 3.3 MB of 4K: too slow per run),
    # the bad inputs, the audio formats no fixture has, and the regressions.
    find Fixtures/media Fixtures/bad -type f -size -1024k -size +0 ! -name '*.md' -exec cp {} "$seeds/" \;
    cp Fuzz/seeds/media/* "$seeds/"
    max_len=1048576
    extra=()
    ;;
parsing)
    cp Fuzz/seeds/parsing/* "$seeds/"
    max_len=4096
    extra=(-dict=Fuzz/parsing.dict)
    ;;
playlists)
    cp Fuzz/seeds/playlists/* "$seeds/"
    max_len=16384
    extra=(-dict=Fuzz/playlists.dict)
    ;;
mp4file)
    cp Fuzz/seeds/mp4file/* "$seeds/"
    max_len=65536
    extra=()
    ;;
index-cache)
    cp Fuzz/seeds/index-cache/* "$seeds/"
    max_len=16384
    extra=(-dict=Fuzz/index-cache.dict)
    ;;
landing)
    cp Fuzz/seeds/landing/* "$seeds/"
    max_len=16384
    extra=(-dict=Fuzz/landing.dict)
    ;;
ranged-http)
    cp Fuzz/seeds/ranged-http/* "$seeds/"
    max_len=64
    # An input may hold one answer FFmpeg waits up to 4 s on before it reconnects (see
    # RangedHTTPExercise); 10 s would call a slow but bounded input a hang.
    timeout=30
    extra=()
    ;;
esac
find Fixtures/fuzz-regressions -type f -name "$target-*" -exec cp {} "$seeds/" \; 2>/dev/null || true

# Swift's own backtracer would attach to a crashing fuzzer and wait; libFuzzer and ASan
# report crashes themselves. -timeout: one input longer than 10 s is a hang. -rss_limit_mb
# (and the malloc limit it implies): more than 2 GB, or one allocation of that size, is an OOM.
# The landing target's checks use the index cache: it goes under the fuzz scratch folder, not
# into the user's.
export SWIFT_BACKTRACE=enable=no
export XDG_CACHE_HOME=$PWD/$scratch/cache
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp}
exec "$scratch/debug/$product" "$corpus" "$seeds" \
    -max_total_time="$seconds" -timeout="${timeout:-10}" -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "${extra[@]}" "$@"
