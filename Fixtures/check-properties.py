#!/usr/bin/env python3
"""Checks that each FrameSeek fixture really has the property it is there to exercise, and prints
a summary of its frame and packet tables (from the committed oracles).

Examples: hevc_opengop.mkv really has CRA keyframes followed in decode order by leading (RASL)
pictures; h264_vfr.mkv really has unequal frame intervals; h264_editlist_midgop.mp4 really starts
on a non-key frame with discarded packets before it; the bad inputs are really broken the way
their names say.

Usage: Fixtures/check-properties.py     (standard library only; exit 1 on failure)
"""
import json
import os
import re
import struct
import subprocess
import sys
from collections import Counter
from fractions import Fraction

FIX = os.path.dirname(os.path.abspath(__file__))
SIZE_LIMIT = 25 * 1000 * 1000
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL {what}")
    return cond


def load(rel):
    with open(os.path.join(FIX, rel)) as f:
        return json.load(f)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def top_level_boxes(path):
    """(type, offset, size, complete) for each top-level ISO BMFF box."""
    out = []
    total = os.path.getsize(path)
    with open(path, "rb") as f:
        off = 0
        while off + 8 <= total:
            f.seek(off)
            size, typ = struct.unpack(">I4s", f.read(8))
            if size == 1:
                size = struct.unpack(">Q", f.read(8))[0]
            elif size == 0:
                size = total - off
            if size < 8:
                break
            out.append((typ.decode("latin-1"), off, size, off + size <= total))
            off += size
    return out


def mp4_pasp(path):
    """(hSpacing, vSpacing) of the first pasp box inside moov, or None."""
    for typ, off, size, complete in top_level_boxes(path):
        if typ == "moov" and complete:
            with open(path, "rb") as f:
                f.seek(off)
                moov = f.read(size)
            i = moov.find(b"pasp")
            if i >= 4 and struct.unpack(">I", moov[i - 4:i])[0] == 16:
                return struct.unpack(">II", moov[i + 4:i + 12])
    return None


def mp4_edit_start(path):
    """(media_time, media timescale) of the first edit of the first track, or (None, None)."""
    for typ, off, size, complete in top_level_boxes(path):
        if typ == "moov" and complete:
            with open(path, "rb") as f:
                f.seek(off)
                moov = f.read(size)
            i, j = moov.find(b"elst"), moov.find(b"mdhd")
            if i < 0 or j < 0:
                return None, None
            version = moov[i + 4]
            media_time = struct.unpack(">q" if version == 1 else ">i",
                                       moov[i + 12 + (8 if version == 1 else 4):][:8 if version == 1 else 4])[0]
            scale = struct.unpack(">I", moov[j + 4 + (20 if moov[j + 4] == 1 else 12):][:4])[0]
            return media_time, scale
    return None, None


def trace_headers(path, bsf="trace_headers"):
    p = run(["ffmpeg", "-nostdin", "-v", "debug", "-i", path, "-map", "0:v:0", "-c", "copy",
             "-bsf:v", bsf, "-f", "null", "-"])
    return p.stderr


def stream_tb(probe, index):
    for s in probe["streams"]:
        if s["index"] == index:
            return Fraction(s["time_base"])
    raise KeyError(index)


def summarize(e):
    """Facts from the oracles, printed for the engine author and used by the checks."""
    base = e["file"][len("media/"):]
    frames = load(e["oracle"]["frames"])["frames"]
    packets = load(e["oracle"]["packets"])["packets"]
    probe = load(e["oracle"]["probe"])
    by_pos = {p.get("pos"): p for p in packets if p.get("pos") not in (None, "N/A")}
    k_mismatch = 0
    for fr in frames:
        pk = by_pos.get(fr.get("pkt_pos"))
        if pk is not None and (("K" in pk["flags"]) != (fr["key_frame"] == 1)):
            k_mismatch += 1
    s = {
        "id": e["id"], "file": base,
        "size": os.path.getsize(os.path.join(FIX, e["file"])),
        "frames": len(frames),
        "key_frames": [i for i, fr in enumerate(frames) if fr["key_frame"] == 1],
        "packets": len(packets),
        "k_packets": sum("K" in p["flags"] for p in packets),
        "discard_packets": sum("D" in p["flags"] for p in packets),
        "no_pts_packets": sum("pts" not in p for p in packets),
        "no_dts_packets": sum("dts" not in p for p in packets),
        "no_pts_frames": sum("pts" not in fr for fr in frames),
        "k_mismatch": k_mismatch,
        "first_pts": frames[0].get("pts"), "first_best_effort": frames[0].get("best_effort_timestamp"),
        "first_key": frames[0]["key_frame"], "first_pict": frames[0].get("pict_type"),
        "start_time": probe["format"].get("start_time"),
        "tb": str(stream_tb(probe, e["stream"])),
        "pict_types": dict(Counter(fr.get("pict_type", "?") for fr in frames)),
    }
    pts = [fr.get("best_effort_timestamp") for fr in frames]
    if None not in pts:
        s["intervals"] = dict(Counter(b - a for a, b in zip(pts, pts[1:])))
        s["monotonic"] = all(b > a for a, b in zip(pts, pts[1:]))
    return s, frames, packets, probe


def decode_order_leading(packets):
    """For each K packet after the first (decode order), the packets after it with a smaller pts
    before the next keyframe: the leading pictures."""
    out = []
    ks = [i for i, p in enumerate(packets) if "K" in p["flags"]]
    for n, k in enumerate(ks):
        if n == 0:
            continue
        end = ks[n + 1] if n + 1 < len(ks) else len(packets)
        lead = [p["pts"] for p in packets[k + 1:end] if p["pts"] < packets[k]["pts"]]
        out.append((packets[k]["pts"], lead))
    return out


def main():
    manifest = load("fixtures.json")
    summaries = {}
    for e in manifest:
        s, frames, packets, probe = summarize(e)
        summaries[e["id"]] = s
        check(s["no_pts_frames"] == 0, f"{e['id']}: frames without pts")
        if e["media_type"] == "video":
            check("monotonic" in s and s["monotonic"], f"{e['id']}: presentation timestamps not increasing")
        name = e["name"]
        if name == "h264_bframes_gop250":
            check(s["frames"] == 360, f"{name}: 360 frames")
            check(s["key_frames"] == [0, 250], f"{name}: keyframes at 0 and 250, got {s['key_frames']}")
            check(s["pict_types"].get("B", 0) > 0, f"{name}: has B-frames")
            boxes = [b[0] for b in top_level_boxes(os.path.join(FIX, e["file"]))]
            check(boxes.index("moov") > boxes.index("mdat"), f"{name}: moov after mdat ({boxes})")
        elif name == "h264_mpegts_offset":
            check(float(probe["format"]["start_time"]) >= 10.0, f"{name}: start_time >= 10")
            check(s["key_frames"] == [0, 50, 100], f"{name}: keyframes every 50, got {s['key_frames']}")
            check(s["pict_types"].get("B", 0) > 0, f"{name}: has B-frames")
        elif name == "hevc_opengop":
            lead = decode_order_leading(packets)
            check(len(lead) >= 1 and all(l for _, l in lead),
                  f"{name}: every non-first keyframe has leading pictures after it in decode order ({lead})")
            nal = Counter(int(m) for m in re.findall(r"nal_unit_type\s+\S+\s+=\s+(\d+)",
                                                       trace_headers(os.path.join(FIX, e["file"]))))
            check(nal.get(21, 0) >= 1, f"{name}: has CRA NAL units (type 21), got {dict(nal)}")
            check(nal.get(8, 0) + nal.get(9, 0) >= 1, f"{name}: has RASL NAL units (types 8/9)")
            s["leading"] = lead
            s["nal_types"] = dict(sorted(nal.items()))
        elif name == "vp9_altref":
            th = trace_headers(os.path.join(FIX, e["file"]), "vp9_superframe_split,trace_headers")
            shown = Counter(re.findall(r"\s show_frame\s+\S+\s+=\s+(\d)", th))
            check(int(shown.get("0", 0)) >= 1, f"{name}: has hidden (alt-ref) frames, got {dict(shown)}")
            s["hidden_frames"] = shown.get("0", 0)
            s["coded_frames"] = shown.get("0", 0) + shown.get("1", 0)
        elif name == "vp8_segment_map":
            # What it is for, by FFmpeg's own decoder: skipping the non-reference frames
            # (-skip_frame noref) changes frames that are decoded either way.
            def md5s(*options):
                p = run(["ffmpeg", "-nostdin", "-v", "error", *options, "-i", os.path.join(FIX, e["file"]),
                         "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-f", "framemd5", "-"])
                return dict((f[2].strip(), f[5].strip()) for f in
                            (l.split(",") for l in p.stdout.splitlines() if not l.startswith("#")))
            full, skipped = md5s(), md5s("-skip_frame", "noref")
            changed = sum(1 for pts, md5 in skipped.items() if full.get(pts) != md5)
            check(s["frames"] == 90 and s["key_frames"] == [0, 60], f"{name}: 90 frames, keyframes at 0 and 60")
            check(len(skipped) < len(full), f"{name}: has non-reference frames ({len(skipped)} of {len(full)} kept)")
            check(changed > 0, f"{name}: skipping them changes frames decoded either way")
            s["changed_by_skipping"] = changed
        elif name == "av1":
            check(s["frames"] == 90, f"{name}: 90 frames decoded")
            th = trace_headers(os.path.join(FIX, e["file"]))
            sef = Counter(re.findall(r"\s show_existing_frame\s+\S+\s+=\s+(\d)", th))
            s["show_existing_frame"] = sef.get("1", 0)
            s["show_frame0"] = len(re.findall(r"\s show_frame\s+\S+\s+=\s+0", th))
        elif name == "h264_vfr":
            check(len(s.get("intervals", {})) >= 2, f"{name}: unequal frame intervals ({s.get('intervals')})")
        elif name == "h264_editlist_midgop":
            check(s["first_key"] == 0, f"{name}: first presented frame is not a keyframe")
            check(s["discard_packets"] > 0, f"{name}: has discarded packets")
            check(s["packets"] > s["frames"], f"{name}: more packets than frames")
        elif name == "h264_10bit":
            st = [x for x in probe["streams"] if x["index"] == e["stream"]][0]
            check(st.get("pix_fmt") == "yuv420p10le", f"{name}: yuv420p10le")
            check(st.get("profile") == "High 10", f"{name}: High 10 profile")

        elif name == "h264_anamorphic_sar64x45":
            st = [x for x in probe["streams"] if x["index"] == e["stream"]][0]
            check((st.get("width"), st.get("height")) == (320, 240), f"{name}: 320x240 coded")
            check(st.get("sample_aspect_ratio") == "64:45",
                  f"{name}: ffprobe reports sample_aspect_ratio 64:45, got {st.get('sample_aspect_ratio')}")
            check(st.get("display_aspect_ratio") == "256:135",
                  f"{name}: ffprobe reports display_aspect_ratio 256:135, got {st.get('display_aspect_ratio')}")
            # Signalled twice: in the bitstream (SPS VUI) and in the container (pasp box).
            th = trace_headers(os.path.join(FIX, e["file"]))
            vui = {k: [int(v) for v in re.findall(rf"\s{k}\s+\S+\s+=\s+(\d+)", th)]
                   for k in ("aspect_ratio_idc", "sar_width", "sar_height")}
            check(vui["aspect_ratio_idc"] and set(vui["aspect_ratio_idc"]) == {255}
                  and set(vui["sar_width"]) == {64} and set(vui["sar_height"]) == {45},
                  f"{name}: SPS VUI aspect_ratio_idc 255 (Extended_SAR) 64x45, got {vui}")
            pasp = mp4_pasp(os.path.join(FIX, e["file"]))
            check(pasp == (64, 45), f"{name}: MP4 pasp box 64:45, got {pasp}")
            check(s["key_frames"] == [0, 25, 50], f"{name}: keyframes every 25, got {s['key_frames']}")
            check(s["pict_types"].get("B", 0) > 0, f"{name}: has B-frames")
            s["sar"] = {"stream": st.get("sample_aspect_ratio"), "dar": st.get("display_aspect_ratio"),
                        "sps_vui": (vui["sar_width"][:1] + vui["sar_height"][:1]), "pasp": pasp}
        elif name == "h264_ts_cut_midgop":
            path = os.path.join(FIX, e["file"])
            with open(path, "rb") as f:
                head = f.read(188 * 4)
            size = os.path.getsize(path)
            check(size % 188 == 0 and all(head[i] == 0x47 for i in range(0, len(head), 188)),
                  f"{name}: whole 188-byte TS packets from the first byte (size {size})")
            check("K" not in packets[0]["flags"], f"{name}: the first packet is not a keyframe (cut mid-GOP)")
            first_k = next(i for i, p in enumerate(packets) if "K" in p["flags"])
            lead = [p["pts"] for p in packets[first_k + 1:] if p["pts"] < packets[first_k]["pts"]]
            check(first_k > 0, f"{name}: packets before the first keyframe ({first_k})")
            check(len(lead) >= 1, f"{name}: the first keyframe has leading B-frames after it in decode order ({lead})")
            check(s["packets"] > s["frames"], f"{name}: ffprobe decodes fewer frames ({s['frames']}) than packets ({s['packets']})")
            check(s["packets"] - s["frames"] == first_k + len(lead),
                  f"{name}: exactly the packets before the first keyframe and its leading pictures are not frames "
                  f"({s['packets']} - {s['frames']} != {first_k} + {len(lead)})")
            check(s["first_key"] == 1 and s["first_pts"] == packets[first_k]["pts"],
                  f"{name}: the first frame is the first keyframe")
            check(s["pict_types"].get("B", 0) > 0, f"{name}: has B-frames")
            s["undecodable"] = {"before_first_key": first_k, "leading": lead}
        elif name == "hevc_cra_start":
            check("K" in packets[0]["flags"], f"{name}: the first packet is a keyframe")
            lead = [p["pts"] for p in packets[1:] if p["pts"] < packets[0]["pts"]]
            th = trace_headers(os.path.join(FIX, e["file"]))
            vcl = [int(m) for m in re.findall(r"nal_unit_type\s+\S+\s+=\s+(\d+)", th) if int(m) < 32]
            check(vcl[:1] == [21], f"{name}: the first picture is a CRA (NAL type 21), got {vcl[:4]}")
            check(len(vcl) > 2 and set(vcl[1:3]) <= {8, 9},
                  f"{name}: the two pictures after the CRA are RASL (types 8/9), got {vcl[1:3]}")
            check(len(lead) == 2, f"{name}: two leading pictures after the CRA in decode order ({lead})")
            check(s["packets"] - s["frames"] == len(lead),
                  f"{name}: ffprobe drops exactly the RASL pictures ({s['packets']} packets, {s['frames']} frames)")
            check(s["first_key"] == 1 and s["first_pts"] == packets[0]["pts"], f"{name}: the first frame is the CRA")
            s["leading"] = lead
        elif name == "h264_editlist_late":
            st = [x for x in probe["streams"] if x["index"] == e["stream"]][0]
            nb = int(st.get("nb_frames", 0))
            media_time, media_scale = mp4_edit_start(os.path.join(FIX, e["file"]))
            check(media_time is not None and Fraction(media_time, media_scale) > 1,
                  f"{name}: the edit starts after the first GOP (1 s): media_time {media_time}/{media_scale}")
            check(nb > s["packets"], f"{name}: the header counts more samples ({nb}) than the demuxer lists packets "
                                     f"({s['packets']}): the samples of the first GOP are dropped")
            check(s["discard_packets"] > 0, f"{name}: has discarded packets")
            check(s["first_key"] == 0, f"{name}: first presented frame is not a keyframe")
            check(s["first_pts"] == 0, f"{name}: first presented frame at pts 0")
            s["edit"] = {"media_time": f"{media_time}/{media_scale}", "nb_frames": nb}
        elif name == "opus_sine":
            st = [x for x in probe["streams"] if x["index"] == e["stream"]][0]
            check(st.get("codec_name") == "opus", f"{name}: Opus")
            check(probe["format"]["format_name"] == "matroska,webm", f"{name}: Matroska/WebM")
            check(float(probe["format"]["start_time"]) < 0, f"{name}: negative start_time (codec delay)")

    # Bad inputs
    bad = os.path.join(FIX, "bad")
    check(os.path.getsize(os.path.join(bad, "empty.mp4")) == 0, "bad/empty.mp4 is empty")
    with open(os.path.join(bad, "not_media.mp4"), "rb") as f:
        text = f.read()
        check(len(text) > 0 and all(c in b"\n\t" or 32 <= c < 127 for c in text), "bad/not_media.mp4 is ASCII text")
    for n in ("empty.mp4", "not_media.mp4", "truncated_moov_at_end.mp4"):
        p = run(["ffprobe", "-v", "error", "-show_format", os.path.join(bad, n)])
        check(p.returncode != 0, f"bad/{n}: ffprobe fails ({p.stderr.strip()!r})")
        print(f"bad/{n}: ffprobe exit {p.returncode}: {p.stderr.strip()}")
    boxes = top_level_boxes(os.path.join(bad, "truncated_moov_at_end.mp4"))
    check(not any(b[0] == "moov" for b in boxes), "bad/truncated_moov_at_end.mp4 has no moov")
    boxes = top_level_boxes(os.path.join(bad, "truncated_faststart.mp4"))
    check(any(b[0] == "moov" and b[3] for b in boxes), "bad/truncated_faststart.mp4 has a complete moov")
    check(any(b[0] == "mdat" and not b[3] for b in boxes), "bad/truncated_faststart.mp4 has a cut mdat")
    p = run(["ffprobe", "-v", "error", "-show_format", os.path.join(bad, "truncated_faststart.mp4")])
    check(p.returncode == 0, "bad/truncated_faststart.mp4 opens (moov intact)")
    p = run(["ffmpeg", "-nostdin", "-v", "error", "-i", os.path.join(bad, "truncated_faststart.mp4"),
             "-f", "framemd5", "-"])
    got = sum(1 for l in p.stdout.splitlines() if l and not l.startswith("#"))
    print(f"bad/truncated_faststart.mp4: opens, decodes {got} of 360 frames, ffmpeg exit {p.returncode}, "
          f"stderr: {p.stderr.strip().splitlines()[:2]}")
    check(got < 360, "bad/truncated_faststart.mp4 cannot decode every frame")

    def packet_pts(n):
        p = run(["ffprobe", "-v", "error", "-select_streams", "0", "-show_entries", "packet=pts",
                 "-of", "csv=p=0", os.path.join(bad, n)])
        return [l.strip().rstrip(",") for l in p.stdout.splitlines() if l.strip()]

    pts = packet_pts("duplicate_pts.mkv")
    numbers = [int(v) for v in pts if v != "N/A"]
    repeats = len(numbers) - len(set(numbers))
    check(len(numbers) == len(pts) and repeats > 0, f"bad/duplicate_pts.mkv: packets with repeated pts ({pts[:8]})")
    print(f"bad/duplicate_pts.mkv: {len(pts)} packets, {repeats} repeat an earlier pts: {' '.join(pts[:8])} ...")

    p = run(["ffprobe", "-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0",
             os.path.join(bad, "raw_stream.h264")])
    pts = packet_pts("raw_stream.h264")
    check(p.stdout.strip() == "h264" and pts and all(v == "N/A" for v in pts),
          f"bad/raw_stream.h264: raw H.264 without any packet pts ({p.stdout.strip()}, {pts[:4]})")
    print(f"bad/raw_stream.h264: format {p.stdout.strip()}, {len(pts)} packets, none with a pts")

    pts = packet_pts("overflow_pts.mkv")
    numbers = [int(v) for v in pts if v != "N/A"]
    check("N/A" in pts and numbers and min(numbers) < -(1 << 62) and max(numbers) >= 0
          and max(numbers) - min(numbers) >= (1 << 63),
          f"bad/overflow_pts.mkv: pts whose differences overflow 64 bits ({pts})")
    print(f"bad/overflow_pts.mkv: packet pts {pts}")

    # Real clips are byte-identical to ../shared/media when it is there
    shared = os.path.join(os.path.dirname(FIX), os.environ.get("SHARED", "../shared"), "media")
    if os.path.isdir(shared):
        for e in manifest:
            if e["real"]:
                a, b = os.path.join(FIX, e["file"]), os.path.join(shared, os.path.basename(e["file"]))
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    check(fa.read() == fb.read(), f"{e['file']} identical to {b}")

    # Size budget
    total = 0
    for root, _, files in os.walk(FIX):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    check(total < SIZE_LIMIT, f"Fixtures/ is {total} bytes, limit {SIZE_LIMIT}")

    print()
    print(f"{'id':36} {'bytes':>9} {'frames':>6} {'pkts':>5} {'K-fr':>4} {'K-pkt':>5} {'D':>3} "
          f"{'noPTS':>5} {'noDTS':>5} {'Kdiff':>5}  first(pts,key,type)  start_time  tb")
    for sid, s in summaries.items():
        print(f"{sid:36} {s['size']:>9} {s['frames']:>6} {s['packets']:>5} {len(s['key_frames']):>4} "
              f"{s['k_packets']:>5} {s['discard_packets']:>3} {s['no_pts_packets']:>5} {s['no_dts_packets']:>5} "
              f"{s['k_mismatch']:>5}  {str((s['first_pts'], s['first_key'], s['first_pict'])):20} "
              f"{str(s['start_time']):11} {s['tb']}")
    print()
    for sid, s in summaries.items():
        extra = {k: s[k] for k in ("key_frames", "pict_types", "intervals", "leading", "nal_types",
                                   "hidden_frames", "coded_frames", "show_existing_frame", "show_frame0", "sar",
                                   "undecodable", "edit", "changed_by_skipping")
                 if k in s}
        if len(extra.get("key_frames", [])) > 12:
            extra["key_frames"] = extra["key_frames"][:12] + ["..."]
        print(f"{sid}: {extra}")
    print(f"\nFixtures/ total: {total} bytes")
    if failures:
        print(f"{len(failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
