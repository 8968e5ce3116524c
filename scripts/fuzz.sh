#!/usr/bin/env bash
# scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# Builds a libFuzzer target and fuzzes it for SECONDS. TARGET is
#   media    arbitrary bytes opened as media from memory (a custom AVIOContext), then probed,
#            seeked with every precision, stepped both ways and thumbnailed;
#   parsing  the bytes as a time, a precision and a --targets file.
#
# Everything lives in .build-fuzz/ (never committed): the instrumented build, the corpus the
# fuzzer grows (corpus/TARGET), the seeds made from Fixtures on every run (seeds/TARGET), and
# what it finds (artifacts/TARGET: crash-*, timeout-*, oom-*, leak-*). A finding goes into
# Fixtures/fuzz-regressions/ as TARGET-NAME once fixed; `swift test` replays that folder, and
# this script seeds from it too.
#
# The build is SwiftPM's, with -sanitize=fuzzer,address, in a scratch path of its own, and
# FRAMESEEK_LIBFUZZER defined so the two fuzz executables export
# LLVMFuzzerTestOneInput instead of a main (libFuzzer's runtime from /opt/swift supplies it).
# An ordinary `swift build` builds them as replay tools: `frameseek-fuzz-media FILE...`.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/fuzz.sh media|parsing SECONDS [libFuzzer options...]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
target=$1
seconds=$2
shift 2
case "$target" in media|parsing) ;; *) usage ;; esac
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

scratch=.build-fuzz
product=frameseek-fuzz-$target
# --sanitize fuzzer tells SwiftPM that libFuzzer supplies main. The sanitizers themselves are
# one -sanitize=fuzzer,address after it: given as two flags (--sanitize fuzzer --sanitize
# address), swift-driver 6.3 keeps only the last and compiles without coverage.
swift build --scratch-path "$scratch" --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -DFRAMESEEK_LIBFUZZER --product "$product" 2>&1 \
    | grep -v "Cannot export local symbol" >&2   # gold's noise about ASan's own symbols

corpus=$scratch/corpus/$target
seeds=$scratch/seeds/$target
artifacts=$scratch/artifacts/$target
mkdir -p "$corpus" "$artifacts"
rm -rf "$seeds" && mkdir -p "$seeds"
case "$target" in
media)
    # Every fixture under 1 MB (the phone clips are 2.5 and 3.3 MB of 4K: too slow per run),
    # the bad inputs, and the regressions.
    find Fixtures/media Fixtures/bad -type f -size -1024k -size +0 ! -name '*.md' -exec cp {} "$seeds/" \;
    max_len=1048576
    extra=()
    ;;
parsing)
    cp Fuzz/seeds/parsing/* "$seeds/"
    max_len=4096
    extra=(-dict=Fuzz/parsing.dict)
    ;;
esac
find Fixtures/fuzz-regressions -type f -name "$target-*" -exec cp {} "$seeds/" \; 2>/dev/null || true

# Swift's own backtracer would attach to a crashing fuzzer and wait; libFuzzer and ASan
# report crashes themselves. -timeout: one input longer than 10 s is a hang. -rss_limit_mb
# (and the malloc limit it implies): more than 2 GB, or one allocation of that size, is an OOM.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp}
exec "$scratch/debug/$product" "$corpus" "$seeds" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "${extra[@]}" "$@"
