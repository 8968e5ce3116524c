#!/usr/bin/env python3
"""Side by side against an earlier commit: make bench-compare BASE=<commit> [ROUNDS=3].

Builds BASE in a worktree of its own (.build/bench-compare/<sha>) and this tree, both as
`make build` builds (release, static Swift runtime), then runs the random, scrub, sample,
sequential and long workloads of `frameseek bench` alternately on the two builds (base first
in odd rounds, head first in even ones), on the same targets, one decoder thread, each run
with an empty index cache. Prints each workload's median of the rounds' medians for both
builds, their ratio (head / base) and its spread, and says which ratios moved beyond the
spread: the larger of the two builds' relative ranges over the rounds.

Media: the 720p encode (GOP 250, B-frames) of Benchmarks/make-bench-media.sh, made when
missing. random and scrub seek exactly to targets made as ../shared/bench/peers.py makes them;
sample is bench's 32 frames spread evenly on one decoder; sequential steps over every frame;
long is one whole `frameseek seek FILM 3600.48 --md5` process, with an empty index cache, (FILM: default
.build/bench-media/film_2h.mp4 when it exists, else the 720p encode at its middle), timed
here, so that it runs on any commit. Exit 0 when nothing moved, 1 when a ratio moved beyond its
spread (either way), 2 on a failure to build or run, any run included: a workload an older
BASE does not have is reported as not measured, and the exit is 2.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = ["random", "scrub", "sample", "sequential", "long"]


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, **kwargs)


def build(tree):
    """Builds frameseek in `tree` as `make build` does; returns the binary's path."""
    run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "frameseek"], cwd=tree,
        stdout=subprocess.DEVNULL)
    return os.path.join(tree, ".build", "release", "frameseek")


def worktree(base):
    sha = run(["git", "rev-parse", "--verify", base + "^{commit}"], cwd=ROOT, capture_output=True).stdout.strip()
    path = os.path.join(ROOT, ".build", "bench-compare", sha)
    if not os.path.isdir(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        # `make clean` removes the folder but not git's record of it.
        run(["git", "worktree", "prune"], cwd=ROOT)
        run(["git", "worktree", "add", "--detach", path, sha], cwd=ROOT, stdout=subprocess.DEVNULL)
    return sha, path


def duration(media):
    out = run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", media],
              capture_output=True).stdout
    return float(out.strip())


def targets(folder, media):
    """The same targets for both builds, made as ../shared/bench/peers.py makes them (seed 7):
    60 random times, and a 60-sample drag back and forth over a 6 s window (a sine)."""
    import math
    import random
    span = duration(media)
    generator = random.Random(7)
    seeks = [round(generator.uniform(0, span - 0.1), 6) for _ in range(60)]
    low = random.Random(7).uniform(0, span - 6.0)
    drag = [round(low + 3.0 + 3.0 * math.sin(i / 4.0), 6) for i in range(60)]
    paths = {}
    for name, times in (("random", seeks), ("scrub", drag)):
        paths[name] = os.path.join(folder, name + ".txt")
        with open(paths[name], "w") as out:
            out.write("".join(f"{t}\n" for t in times))
    return paths


def measure(binary, workload, media, film, paths, scratch):
    """One bench run: the workload's median latency in ms; for long, the wall time of one
    whole `frameseek seek FILM 3600.48 --md5` process (every commit has it)."""
    cache = tempfile.mkdtemp(dir=scratch)
    environment = dict(os.environ, XDG_CACHE_HOME=cache)
    if workload == "long":
        at = 3600.48 if duration(film) > 3601 else duration(film) / 2
        start = time.monotonic()
        # An empty index cache stands for --no-index-cache, which older commits do not have.
        run([binary, "seek", film, str(at), "--md5"], capture_output=True, env=environment)
        subprocess.run(["rm", "-rf", cache])
        return (time.monotonic() - start) * 1000
    command = [binary, "bench", media, "--workload", workload, "--threads", "1", "--json"]
    if workload in paths:
        command += ["--targets", paths[workload], "--precision", "exact"]
    if workload == "sample":
        command += ["--decoders", "1"]
    result = run(command, capture_output=True, env=environment)
    subprocess.run(["rm", "-rf", cache])
    return json.loads(result.stdout.splitlines()[0])["median_ms"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--film", default=os.path.join(ROOT, ".build", "bench-media", "film_2h.mp4"))
    options = parser.parse_args()
    workloads = options.workloads.split(",")
    try:
        sha, tree = worktree(options.base)
        print(f"building {options.base} ({sha[:10]}) in {tree}", file=sys.stderr)
        builds = {"base": build(tree)}
        print("building this tree", file=sys.stderr)
        builds["head"] = build(ROOT)
        run([os.path.join(ROOT, "Benchmarks", "make-bench-media.sh")], cwd=ROOT)
    except subprocess.CalledProcessError as error:
        print(f"bench-compare: {error}", file=sys.stderr)
        return 2
    media = os.path.join(ROOT, ".build", "bench-media", "h264_720p_gop250.mp4")
    film = options.film if os.path.exists(options.film) else media
    results = {(build, workload): [] for build in builds for workload in workloads}
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        try:
            paths = targets(scratch, media)
        except (subprocess.CalledProcessError, ValueError) as error:
            print(f"bench-compare: cannot make the targets: {error}", file=sys.stderr)
            return 2
        for number in range(1, options.rounds + 1):
            order = ["base", "head"] if number % 2 else ["head", "base"]
            for build_name in order:
                for workload in workloads:
                    try:
                        value = measure(builds[build_name], workload, media, film, paths, scratch)
                    except (subprocess.CalledProcessError, ValueError, KeyError, IndexError) as error:
                        print(f"bench-compare: {build_name} {workload}: {error}", file=sys.stderr)
                        failures += 1
                        continue
                    results[(build_name, workload)].append(value)
            print(f"round {number} of {options.rounds} done", file=sys.stderr)
    print(f"bench-compare: head ({run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True).stdout.strip()}"
          f" and the working tree) against {options.base}, medians of {options.rounds} rounds, one decoder thread")
    print(f"media: {os.path.relpath(media, ROOT)}; long: {os.path.relpath(film, ROOT)}")
    moved = False
    for workload in workloads:
        base, head = results[("base", workload)], results[("head", workload)]
        if not base or not head:
            print(f"{workload:11s} not measured on {'base' if not base else 'head'}")
            continue
        base_median, head_median = statistics.median(base), statistics.median(head)
        if base_median <= 0 or head_median <= 0:
            print(f"{workload:11s} a median of 0 ms: no ratio")
            continue
        ratio = head_median / base_median
        spread = max((max(base) - min(base)) / base_median, (max(head) - min(head)) / head_median)
        verdict = "within the spread"
        if abs(ratio - 1) > spread:
            verdict = "MOVED: faster" if ratio < 1 else "MOVED: slower"
            moved = True
        print(f"{workload:11s} base {base_median:9.3f} ms  head {head_median:9.3f} ms  ratio {ratio:5.2f} "
              f"± {spread:.2f}  {verdict}   (base {sorted(base)}, head {sorted(head)})")
    if failures:
        print(f"bench-compare: {failures} runs failed (see above); their workloads are not compared", file=sys.stderr)
        return 2
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
