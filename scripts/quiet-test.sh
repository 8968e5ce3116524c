#!/usr/bin/env bash
# Runs a test command (its arguments, as `make test` gives them), showing its output as it comes
# and keeping it in .build/test-output.log (TEST_OUTPUT_LOG to change). A failing run keeps its
# exit status. A passing run fails here when its output holds a line of FFmpeg's log: the tests
# keep FFmpeg's messages in each test's transcript, printed only for a failing test
# (FFmpegLogTrait), and a child process's stderr in the helper that ran it (runTool,
# runBounded), so such a line means something bypassed them. See "Quiet test runs" in
# Sources/FrameSeek/FrameSeek.docc/TestingAndFuzzing.md.
set -uo pipefail

log=${TEST_OUTPUT_LOG:-.build/test-output.log}
mkdir -p "$(dirname "$log")"
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || exit "$status"

# FFmpeg's own callback, and so the ffmpeg and ffprobe command lines, begin a message about a
# context with "[name @ 0x…] " ("[h264 @ 0x55d0c0a1b2c0] Invalid NAL unit size"); the command
# line's decode errors begin "Error while decoding stream".
pattern='^\[[A-Za-z0-9_,:./-]+ @ 0x[0-9a-f]+\] |^Error while decoding stream #'
count=$(grep -a -c -E "$pattern" "$log")
if [ "$count" -gt 0 ]; then
    echo "quiet-test: the tests passed but printed $count lines of FFmpeg's log, the first:" >&2
    grep -a -E "$pattern" "$log" | head -5 >&2
    echo "quiet-test: the whole output is in $log" >&2
    exit 1
fi
