#!/usr/bin/env bash
# scripts/fuzz-ci.sh [TARGET...]
#
# CI's fuzzing: builds every fuzz target (scripts/fuzz.sh, -sanitize=fuzzer,address, in
# .build-fuzz/) before running any, then fuzzes each for FUZZ_SECONDS (default 30) from its
# seeds and regressions. Exits 1 when any target found a crash, a timeout, an OOM or a leak,
# after printing where each finding is; a finding goes into Fixtures/fuzz-regressions/ once
# fixed (see Fixtures/fuzz-regressions/README.md). With TARGET names, only those run.
#
# Its cost on 2 cores: the instrumented build (about 3 minutes from a clean .build-fuzz, a
# link per target after) plus FUZZ_SECONDS per target; the corpus each run grows stays in
# .build-fuzz/corpus, so a CI cache of that folder keeps what earlier runs found.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-30}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-ci: FUZZ_SECONDS must be a positive number of seconds" >&2; exit 2; }
if [[ $# -gt 0 ]]; then
    targets=("$@")
else
    targets=(media parsing playlists mp4file index-cache landing ranged-http)
fi

for target in "${targets[@]}"; do
    echo "fuzz-ci: building $target" >&2
    FUZZ_BUILD_ONLY=1 scripts/fuzz.sh "$target" "$seconds" || { echo "fuzz-ci: $target does not build" >&2; exit 1; }
done

failed=()
for target in "${targets[@]}"; do
    log=.build-fuzz/fuzz-ci-$target.log
    echo "fuzz-ci: fuzzing $target for $seconds s" >&2
    # Each input's outcome lines go to the log; the summary and any report are shown.
    if FUZZ_BUILT=1 scripts/fuzz.sh "$target" "$seconds" >"$log" 2>&1; then
        grep -E "^(stat::number_of_executed_units|Done [0-9]+ runs)" "$log" | sed "s/^/fuzz-ci: $target: /" >&2
    else
        failed+=("$target")
        tail -n 60 "$log" >&2
        echo "fuzz-ci: $target FAILED; whole log: $log" >&2
        grep -h -E "^artifact_prefix|Test unit written to" "$log" | sed "s/^/fuzz-ci: $target: /" >&2
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz-ci: findings in: ${failed[*]} (inputs under .build-fuzz/artifacts/)" >&2
    exit 1
fi
echo "fuzz-ci: ${#targets[@]} targets, $seconds s each, nothing found" >&2
