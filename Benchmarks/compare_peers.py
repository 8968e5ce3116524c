#!/usr/bin/env python3
"""FrameSeek beside the peer decoders, on the same file, the same targets, one decoder thread.

For each workload, runs ../shared/bench/peers.py (PyAV, torchcodec, decord, OpenCV, the ffmpeg
CLI; whichever are installed), which writes its targets; then `frameseek bench --targets` on
the same targets in the same run. Prints medians, FrameSeek's ratio to each peer, and checks
every FrameSeek landing against the frame ffprobe says covers the target. FrameSeek runs one
decoder too (`--decoders 1`): its sample batch would otherwise split its GOPs between two.

  python3 Benchmarks/compare_peers.py FILE [-n N] [--seed S] [--workloads random,scrub,backstep]
          [--python PY] [--peers-script PATH] [--frameseek PATH] [--json OUT]

--json OUT writes what `frameseek bench [FILE] --peers OUT --report out.html` draws:
  {"file", "n", "seed", "threads", "peers": [names in order], "cpu_model", "date",
   "workloads": {WORKLOAD: {PEER: {"median_s", "p95_s", "mean_s", "n", "wrong_landings",
                                    "errors": [...]}}}}
A decoder that did not run has median_s, p95_s, n and wrong_landings null and says why in errors.
"""
import argparse, bisect, datetime, json, os, subprocess, sys, tempfile

# Every peer and FrameSeek decode with one thread, so latency is decode work, not core count.
THREADS = 1

def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None

def entry(stats, errors=()):
    """One decoder's numbers on one workload, every field present (null when not measured)."""
    return {"median_s": stats.get("median_s"), "p95_s": stats.get("p95_s"), "mean_s": stats.get("mean_s"),
            "n": stats.get("n"), "wrong_landings": stats.get("wrong_landings"), "errors": list(errors)}

def ffprobe_pts(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                          "frame=pts_time", "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout
    return sorted(float(x.split(",")[0]) for x in out.split() if x.split(",")[0] != "N/A")

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("-n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workloads", default="random,scrub,backstep")
    ap.add_argument("--python", default=sys.executable, help="the Python that has the peers installed")
    ap.add_argument("--peers-script", default=os.path.join(here, "..", "..", "shared", "bench", "peers.py"))
    ap.add_argument("--frameseek", default=os.path.join(here, "..", ".build", "release", "frameseek"))
    ap.add_argument("--peers", default="pyav,torchcodec,decord,opencv,ffmpeg-cli")
    ap.add_argument("--json", help="write all numbers here")
    a = ap.parse_args()
    pts = ffprobe_pts(a.file)
    peer_names = a.peers.split(",")
    report = {"file": a.file, "n": a.n, "seed": a.seed, "threads": THREADS, "peers": ["frameseek"] + peer_names,
              "cpu_model": cpu_model(),
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "workloads": {}}
    for workload in a.workloads.split(","):
        with tempfile.NamedTemporaryFile("r", suffix=".txt") as targets:
            peers = json.loads(subprocess.run([a.python, a.peers_script, a.file, "--workload", workload, "-n", str(a.n),
                                               "--seed", str(a.seed), "--targets-out", targets.name, "--peers", a.peers],
                                              capture_output=True, text=True, check=True).stdout)
            ours = json.loads(subprocess.run([a.frameseek, "bench", a.file, "--workload", workload, "--targets", targets.name,
                                              "--threads", str(THREADS), "--decoders", "1", "--json"], capture_output=True, text=True, check=True).stdout)
            times = [float(line) for line in open(targets.name) if line.strip()]
        # backstep lands on its first target as set-up, not a sample: its samples are the steps
        # to the targets after it.
        measured = times[1:] if workload == "backstep" else times
        wrong = 0
        for t, sample in zip(measured, ours["samples"]):
            expected = max(bisect.bisect_right(pts, t + 1e-9) - 1, 0)
            if sample["frame_index"] != expected:
                wrong += 1
        if ours["median_ms"] is None:   # no operation ran: bench writes null, never a median of nothing
            fs = entry({"n": ours["n"], "wrong_landings": wrong}, ["no measurements (n = 0)"])
        else:
            fs = entry({"median_s": ours["median_ms"] / 1000, "p95_s": ours["p95_ms"] / 1000, "mean_s": ours["mean_ms"] / 1000,
                        "n": ours["n"], "wrong_landings": wrong})
        row = {"frameseek": fs}
        print(f"\n{workload}: {a.file}, n {a.n}, seed {a.seed}")
        print(f"  {'decoder':12} {'median ms':>10} {'p95 ms':>10} {'wrong':>6}  frameseek/peer (median)")
        if fs["median_s"] is not None:
            print(f"  {'frameseek':12} {fs['median_s']*1000:10.2f} {fs['p95_s']*1000:10.2f} {wrong:6d}")
        for name in peer_names:
            peer = peers.get(name, {})
            if "error" in peer:
                errors = [peer["error"]]
            else:
                errors = [] if "median_s" in peer else ["not run"]
            row[name] = entry(peer, errors)
            if "median_s" not in peer:
                print(f"  {name:12} {'-':>10} {'-':>10} {'-':>6}  ({peer.get('error', 'not run')[:60]})")
                continue
            ratio = fs["median_s"] / peer["median_s"] if peer["median_s"] and fs["median_s"] is not None else float("nan")
            w = peer.get("wrong_landings")
            print(f"  {name:12} {peer['median_s']*1000:10.2f} {peer['p95_s']*1000:10.2f} {('-' if w is None else w):>6}  {ratio:.3f}")
        report["workloads"][workload] = row
    if a.json:
        with open(a.json, "w") as out:
            json.dump(report, out, indent=1)

if __name__ == "__main__":
    main()
