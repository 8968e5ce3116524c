#!/usr/bin/env python3
"""FrameSeek beside the peer decoders, on the same file, the same targets, one decoder thread.

For each workload, runs ../shared/bench/peers.py (PyAV, torchcodec, decord, OpenCV, the ffmpeg
CLI; whichever are installed), which writes its targets; then `frameseek bench --targets` on
the same targets in the same run. Prints medians, FrameSeek's ratio to each peer, and checks
every FrameSeek landing against the frame ffprobe says covers the target.

  python3 Benchmarks/compare_peers.py FILE [-n N] [--seed S] [--workloads random,scrub,backstep]
          [--python PY] [--peers-script PATH] [--frameseek PATH] [--json OUT]
"""
import argparse, bisect, json, os, subprocess, sys, tempfile

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
    report = {"file": a.file, "n": a.n, "seed": a.seed, "workloads": {}}
    for workload in a.workloads.split(","):
        with tempfile.NamedTemporaryFile("r", suffix=".txt") as targets:
            peers = json.loads(subprocess.run([a.python, a.peers_script, a.file, "--workload", workload, "-n", str(a.n),
                                               "--seed", str(a.seed), "--targets-out", targets.name, "--peers", a.peers],
                                              capture_output=True, text=True, check=True).stdout)
            ours = json.loads(subprocess.run([a.frameseek, "bench", a.file, "--workload", workload, "--targets", targets.name,
                                              "--threads", "1", "--json"], capture_output=True, text=True, check=True).stdout)
            times = [float(line) for line in open(targets.name) if line.strip()]
        wrong = 0
        for t, sample in zip(times, ours["samples"]):
            expected = max(bisect.bisect_right(pts, t + 1e-9) - 1, 0)
            if sample["frame_index"] != expected:
                wrong += 1
        fs = {"median_s": ours["median_ms"] / 1000, "p95_s": ours["p95_ms"] / 1000, "mean_s": ours["mean_ms"] / 1000,
              "n": ours["n"], "wrong_landings": wrong}
        row = {"frameseek": fs}
        print(f"\n{workload}: {a.file}, n {a.n}, seed {a.seed}")
        print(f"  {'decoder':12} {'median ms':>10} {'p95 ms':>10} {'wrong':>6}  frameseek/peer (median)")
        print(f"  {'frameseek':12} {fs['median_s']*1000:10.2f} {fs['p95_s']*1000:10.2f} {wrong:6d}")
        for name in a.peers.split(","):
            peer = peers.get(name, {})
            row[name] = peer
            if "median_s" not in peer:
                print(f"  {name:12} {'-':>10} {'-':>10} {'-':>6}  ({peer.get('error', 'not run')[:60]})")
                continue
            ratio = fs["median_s"] / peer["median_s"] if peer["median_s"] else float("nan")
            w = peer.get("wrong_landings")
            print(f"  {name:12} {peer['median_s']*1000:10.2f} {peer['p95_s']*1000:10.2f} {('-' if w is None else w):>6}  {ratio:.3f}")
        report["workloads"][workload] = row
    if a.json:
        json.dump(report, open(a.json, "w"), indent=1)

if __name__ == "__main__":
    main()
