#!/usr/bin/env bash
# scripts/compare-builds.sh BEFORE AFTER [MEDIA...]
#
# Behaviour check for a change that must not change behaviour: runs two `frameseek` builds on
# the same fixtures and compares what they print. For every media file (default: every file in
# Fixtures/media), `seek --json --md5` at five times and three precisions, `frames --json`,
# `step --json --md5` forward and backward, and `landing record`'s manifest. Timing fields
# (latency_ms and any other key ending in _ms) are dropped before comparing; everything else
# must be byte-identical.
#
# Prints one line per difference and a summary; exits 1 when anything differs.
set -uo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: scripts/compare-builds.sh BEFORE AFTER [MEDIA...]" >&2; exit 2; }
before=$(realpath "$1") after=$(realpath "$2")
shift 2
if [[ $# -gt 0 ]]; then
    media=("$@")
else
    mapfile -t media < <(find Fixtures/media -maxdepth 1 -type f \( -name '*.mp4' -o -name '*.mkv' -o -name '*.webm' -o -name '*.ts' -o -name '*.m4a' -o -name '*.mp3' \) | sort)
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Drops timing keys from JSON lines; leaves other lines as they are.
untimed() {
    python3 -c '
import json, re, sys
timing = re.compile(r"_ms$")
def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if not timing.search(k)}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value
text = sys.stdin.read()
try:
    print(json.dumps(strip(json.loads(text)), sort_keys=True))
except ValueError:
    for line in text.splitlines():
        try:
            print(json.dumps(strip(json.loads(line)), sort_keys=True))
        except ValueError:
            print(line)
'
}

# One run of one build: stdout (timing dropped) and the exit status.
run() {
    local build=$1 name=$2
    shift 2
    # An empty index cache for every run: an entry the other build wrote changes what a first
    # seek reads (bytes_read), not where it lands.
    rm -rf "$scratch/cache"
    XDG_CACHE_HOME=$scratch/cache "$build" "$@" 2>"$scratch/$name.stderr" | untimed >"$scratch/$name.stdout"
    echo "exit ${PIPESTATUS[0]}" >>"$scratch/$name.stdout"
}

differences=0 cases=0
compare() {
    local label=$1
    shift
    run "$before" before "$@"
    run "$after" after "$@"
    cases=$((cases + 1))
    if ! cmp -s "$scratch/before.stdout" "$scratch/after.stdout"; then
        differences=$((differences + 1))
        echo "differs: $label: frameseek $*"
        diff "$scratch/before.stdout" "$scratch/after.stdout" | head -n 6 | sed 's/^/    /'
    fi
}

for file in "${media[@]}"; do
    for precision in exact previous-keyframe next-keyframe; do
        # One decoder: with two, which decoder takes a GOP varies run to run, and with it the
        # decode counts, demuxer seeks and (on Opus's pre-roll) key_frame_index of one build.
        compare "$file seek $precision" seek "$file" 0 0.5 1.7 3.3 100000 --precision "$precision" --decoders 1 --json --md5
    done
    compare "$file frames" frames "$file" --json
    compare "$file step forward" step "$file" --at 1.0 --forward --repeat 5 --json --md5
    compare "$file step backward" step "$file" --at 1.0 --backward --repeat 5 --json --md5
    for build in before after; do
        binary=$before
        [[ $build == after ]] && binary=$after
        mkdir -p "$scratch/$build"
        cp "$file" "$scratch/$build/"
        rm -rf "$scratch/cache"
        (cd "$scratch/$build" && XDG_CACHE_HOME=$scratch/cache "$binary" landing record "$(basename "$file")" -n 6 --seed 3 -o manifest.json >/dev/null 2>&1)
        echo "exit $?" >"$scratch/$build.manifest"
        [[ -f "$scratch/$build/manifest.json" ]] && untimed <"$scratch/$build/manifest.json" >>"$scratch/$build.manifest"
        rm -rf "${scratch:?}/$build"
    done
    cases=$((cases + 1))
    if ! cmp -s "$scratch/before.manifest" "$scratch/after.manifest"; then
        differences=$((differences + 1))
        echo "differs: $file landing record"
        diff "$scratch/before.manifest" "$scratch/after.manifest" | head -n 6 | sed 's/^/    /'
    fi
done
echo "compare-builds: ${#media[@]} media files, $cases cases, $differences differ"
[[ $differences -eq 0 ]]
