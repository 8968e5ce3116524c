#!/usr/bin/env python3
"""Independent check of the frame-number barcode in the synthetic FrameSeek fixtures.

For every entry of Fixtures/fixtures.json with "barcode": true, decode the stream with the ffmpeg
CLI to 8-bit gray (presentation order, no frame dropped or duplicated), read the 16 blocks of the
top band (luma sampled at (20*b + 10, 10), threshold 128) and check that frame i reads
i + barcode_offset. Also checks, for every video entry, that the oracle's frames.json and
framemd5 describe the same number of frames as the decode.

Usage: Fixtures/check-barcodes.py [name-or-id ...]     (standard library only; exit 1 on failure)
"""
import json
import os
import subprocess
import sys

FIX = os.path.dirname(os.path.abspath(__file__))
BITS = 16
BLOCK = 20


def read_barcode(frame: bytes, width: int) -> int:
    value = 0
    for b in range(BITS):
        if frame[10 * width + BLOCK * b + 10] >= 128:
            value |= 1 << b
    return value


def decode_gray(path: str, stream: int, width: int, height: int):
    cmd = ["ffmpeg", "-nostdin", "-v", "error", "-noautorotate", "-i", path,
           "-map", f"0:{stream}", "-fps_mode", "passthrough",
           "-f", "rawvideo", "-pix_fmt", "gray", "-"]
    size = width * height
    with subprocess.Popen(cmd, stdout=subprocess.PIPE) as proc:
        while True:
            buf = proc.stdout.read(size)
            if not buf:
                break
            if len(buf) != size:
                raise RuntimeError(f"short frame ({len(buf)} of {size} bytes)")
            yield buf
        if proc.wait() != 0:
            raise RuntimeError(f"ffmpeg exited with {proc.returncode}")


def frames_json(entry):
    with open(os.path.join(FIX, entry["oracle"]["frames"])) as f:
        return json.load(f)["frames"]


def framemd5_lines(entry):
    with open(os.path.join(FIX, entry["oracle"]["framemd5"])) as f:
        return [l for l in f if l.strip() and not l.startswith("#")]


def main(argv):
    with open(os.path.join(FIX, "fixtures.json")) as f:
        manifest = json.load(f)
    wanted = set(argv)
    failures = 0
    for e in manifest:
        if wanted and e["name"] not in wanted and e["id"] not in wanted:
            continue
        if e["media_type"] != "video":
            continue
        frames = frames_json(e)
        md5 = framemd5_lines(e)
        problems = []
        if len(md5) != len(frames):
            problems.append(f"framemd5 has {len(md5)} lines, frames.json {len(frames)} frames")
        if e["barcode"]:
            w, h = frames[0]["width"], frames[0]["height"]
            if w < BITS * BLOCK:
                problems.append(f"width {w} < {BITS * BLOCK}")
            else:
                offset = e["barcode_offset"]
                n = 0
                bad = []
                for i, fr in enumerate(decode_gray(os.path.join(FIX, e["file"]), e["stream"], w, h)):
                    got = read_barcode(fr, w)
                    if got != i + offset:
                        bad.append((i, got))
                    n += 1
                if n != len(frames):
                    problems.append(f"decoded {n} frames, frames.json has {len(frames)}")
                if bad:
                    problems.append(f"{len(bad)} frames misread, first: " +
                                    ", ".join(f"frame {i} reads {v} (want {i + offset})" for i, v in bad[:5]))
            what = f"{len(frames)} frames, barcodes {e['barcode_offset']}..{e['barcode_offset'] + len(frames) - 1}"
        else:
            what = f"{len(frames)} frames (no barcode; frame counts only)"
        if problems:
            failures += 1
            print(f"FAIL {e['id']}: " + "; ".join(problems))
        else:
            print(f"ok   {e['id']}: {what}")
    if failures:
        print(f"{failures} fixture(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
