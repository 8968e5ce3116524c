#!/usr/bin/env bash
# scripts/fuzz-ci.sh [TARGET...]
#
# CI's fuzzing: builds every fuzz target (scripts/fuzz.sh, -sanitize=fuzzer,address, in
# .build-fuzz/) before running any, then fuzzes each for FUZZ_SECONDS (default 30), FUZZ_JOBS
# (default 2, one a core) at a time. Each run starts from the target's seeds and
# Fixtures/fuzz-regressions in an empty corpus folder (.build-fuzz/ci-corpus/TARGET), so its time
# does not grow with what earlier runs kept: a ranged-http input FFmpeg reconnects on costs
# seconds, and replaying a grown corpus first took three times FUZZ_SECONDS.
#
# Exits 1 when any target found a crash, a timeout, an OOM or a leak, after printing the end of
# its log and where its input is (.build-fuzz/artifacts/TARGET/); a finding goes into
# Fixtures/fuzz-regressions/ once fixed. With TARGET names, only those run.
#
# Its cost on 2 cores: the instrumented build (about 3 minutes from a clean .build-fuzz, a link
# per target after), then the seven targets two at a time, about 4 x (FUZZ_SECONDS + 5) s.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-30}
jobs=${FUZZ_JOBS:-2}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-ci: FUZZ_SECONDS must be a positive number of seconds" >&2; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-ci: FUZZ_JOBS must be a positive number" >&2; exit 2; }
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    targets=(media parsing playlists mp4file index-cache landing ranged-http)
fi

for target in "${targets[@]}"; do
    echo "fuzz-ci: building $target" >&2
    FUZZ_BUILD_ONLY=1 scripts/fuzz.sh "$target" "$seconds" || { echo "fuzz-ci: $target does not build" >&2; exit 1; }
done

# One target's run: its log, and its exit status in a file beside it.
run() {
    local target=$1 corpus=.build-fuzz/ci-corpus/$1
    rm -rf "$corpus" && mkdir -p "$corpus"
    # A fixed seed (FUZZ_SEED, default 1) starts CI from the mutations a developer's run of the
    # same commit starts from. It does not make runs equal: how many inputs fit in the time, and
    # the coverage of FFmpeg's threads, differ by machine, so CI can find what a local run did
    # not. That is why a finding's input is printed below, not only named.
    FUZZ_BUILT=1 FUZZ_CORPUS=$corpus scripts/fuzz.sh "$target" "$seconds" -seed="${FUZZ_SEED:-1}" \
        >".build-fuzz/fuzz-ci-$target.log" 2>&1
    echo $? >".build-fuzz/fuzz-ci-$target.status"
}

for target in "${targets[@]}"; do
    while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n; done
    echo "fuzz-ci: fuzzing $target for $seconds s" >&2
    run "$target" &
done
wait

failed=()
for target in "${targets[@]}"; do
    log=.build-fuzz/fuzz-ci-$target.log
    if [[ "$(cat ".build-fuzz/fuzz-ci-$target.status")" == 0 ]]; then
        grep -E "^Done [0-9]+ runs" "$log" | sed "s/^/fuzz-ci: $target: /" >&2
    else
        failed+=("$target")
        tail -n 60 "$log" >&2
        echo "fuzz-ci: $target FAILED; whole log: $log" >&2
        grep -h -E "Test unit written to" "$log" | sed "s/^/fuzz-ci: $target: /" >&2
        # The input itself, when small, so that a finding on a machine nobody can log in to
        # can be rebuilt: base64 -d, then scripts/fuzz.sh TARGET replays it.
        grep -h -o -E "Test unit written to [^ ]+" "$log" | sed "s/^Test unit written to //" | while read -r unit; do
            if [[ -f "$unit" && $(stat -c %s "$unit") -le 65536 ]]; then
                echo "fuzz-ci: $target: $(basename "$unit") as base64: $(base64 -w0 "$unit")" >&2
            fi
        done
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz-ci: findings in: ${failed[*]} (inputs under .build-fuzz/artifacts/)" >&2
    exit 1
fi
echo "fuzz-ci: ${#targets[@]} targets, $seconds s each, nothing found" >&2
