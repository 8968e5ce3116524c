#!/usr/bin/env python3
"""One exact frame from a long file, as a whole process: FrameSeek beside the peer decoders.

Each way opens FILE, gets the frame that covers TIME, and hashes its decoded planes (the MD5
`ffmpeg -f framemd5` gives, so every way is checked against ffmpeg's own decode). The frame is
the one `frameseek seek FILE TIME` lands on; the peers addressed by frame index (L-SMASH Works,
BestSource) are given its index, PyAV TIME (it takes the last frame at or before a time, as
FrameSeek does), ffmpeg the frame's start (its -ss takes the first frame at or after). Every way runs with one decoder thread, as a
process of its own, measured through os.wait4 (wall time and that child's peak RSS); medians
of --runs rounds, the ways in turn in each round.

  python3 Benchmarks/long_peers.py FILE [--at 3600.48] [--runs 3] [--frameseek PATH]
          [--av-python PY] [--vs-python PY] [--ways frameseek,ffmpeg,pyav,lsmash,bestsource]

PyAV needs a Python with `av` and numpy; L-SMASH Works and BestSource a Python 3.12 with
vapoursynth, vapoursynth-lsmas and vapoursynth-bestsource (../shared/bench/peers-env.sh vs),
and numpy (`pip install numpy` in that environment), which the planes are hashed through.
BestSource indexes by decoding every frame, and keeps no index here (a fresh cache folder each
run), so its figure is its first open. No index cache for FrameSeek either (--no-index-cache).
"""
import argparse, json, os, re, statistics, subprocess, sys, tempfile, time

PYAV = r"""
import av, hashlib, sys
path, t = sys.argv[1], float(sys.argv[2])
c = av.open(path); s = c.streams.video[0]; s.thread_type = "SLICE"; s.codec_context.thread_count = 1
c.seek(int(t / s.time_base), stream=s, backward=True, any_frame=False)
prev = None
for f in c.decode(s):
    if f.pts is not None and float(f.pts * s.time_base) > t + 1e-9: break
    prev = f
print("md5", hashlib.md5(prev.to_ndarray(format=prev.format.name).tobytes()).hexdigest())
"""

VAPOURSYNTH = r"""
import hashlib, sys, tempfile
import numpy as np, vapoursynth as vs
path, index, source = sys.argv[1], int(sys.argv[2]), sys.argv[3]
core = vs.core; core.num_threads = 1
if source == "bestsource":
    clip = core.bs.VideoSource(source=path, cachepath=tempfile.mkdtemp(), threads=1)
else:
    clip = core.lsmas.LibavSMASHSource(source=path, threads=1)
f = clip.get_frame(index)
md5 = hashlib.md5()
for p in range(f.format.num_planes): md5.update(np.ascontiguousarray(np.asarray(f[p])).tobytes())
print("md5", md5.hexdigest())
"""

def measure(command):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        return None
    md5 = re.findall(r"md5[ =:\"]+([0-9a-f]{32})", out) or [l.split(",")[-1].strip() for l in out.splitlines() if l and l[0] != "#"]
    return wall, usage.ru_maxrss / 1024, (md5[-1] if md5 else None)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file"); ap.add_argument("--at", default="3600.48"); ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--frameseek", default=".build/release/frameseek")
    ap.add_argument("--av-python", default=os.path.expanduser("~/.cache/frameseek-peers-av/bin/python"))
    ap.add_argument("--vs-python", default=os.path.expanduser("~/.cache/frameseek-peers-vs/bin/python"))
    ap.add_argument("--ways", default="frameseek,ffmpeg,pyav,lsmash,bestsource")
    a = ap.parse_args()
    landed = json.loads(subprocess.run([a.frameseek, "seek", a.file, a.at, "--json", "--no-index-cache"],
                                       capture_output=True, text=True, check=True).stdout)
    index, start = landed["frame_index"], landed["landed_rational"]
    num, den = (int(x) for x in start.split("/")) if "/" in start else (int(start), 1)
    micros = num * 1_000_000 // den
    ffmpeg_at = f"{micros // 1_000_000}.{micros % 1_000_000:06d}"
    every = {
        "frameseek": [a.frameseek, "seek", a.file, a.at, "--md5", "--no-index-cache"],
        "ffmpeg": ["ffmpeg", "-v", "error", "-threads", "1", "-ss", ffmpeg_at, "-i", a.file, "-frames:v", "1", "-f", "framemd5", "-"],
        "pyav": [a.av_python, "-c", PYAV, a.file, a.at],
        "lsmash": [a.vs_python, "-c", VAPOURSYNTH, a.file, str(index), "lsmash"],
        "bestsource": [a.vs_python, "-c", VAPOURSYNTH, a.file, str(index), "bestsource"],
    }
    ways = a.ways.split(",")
    walls = {w: [] for w in ways}; peaks = {w: 0.0 for w in ways}; md5s = {w: None for w in ways}
    for _ in range(a.runs):
        for w in ways:
            result = measure(every[w])
            if result is None:
                md5s[w] = "failed"; continue
            walls[w].append(result[0]); peaks[w] = max(peaks[w], result[1]); md5s[w] = result[2]
    print(f"file: {a.file}, frame {index} at {a.at} s; whole processes, medians of {a.runs} rounds, one decoder thread")
    reference = statistics.median(walls["ffmpeg"]) if walls.get("ffmpeg") else None
    print("wall_ms   / ffmpeg  peak_MiB  md5                               way")
    for w in ways:
        if not walls[w]:
            print(f"{'-':>8}  {'-':>8}  {'-':>8}  {md5s[w] or '-':32}  {w}"); continue
        wall = statistics.median(walls[w])
        ratio = f"{wall / reference:8.2f}" if reference else f"{'-':>8}"
        same = "" if md5s[w] == md5s.get("ffmpeg") else "  (not ffmpeg's)"
        print(f"{wall * 1000:8.0f}  {ratio}  {peaks[w]:8.0f}  {md5s[w] or '-':32}  {w}{same}")

if __name__ == "__main__":
    main()
