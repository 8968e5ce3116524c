#!/usr/bin/env python3
"""Adds HDR10 static metadata boxes to an MP4's video sample entry.

    Fixtures/add-hdr-metadata.py IN.mp4 OUT.mp4

Appends an `mdcv` box (SMPTE ST 2086 mastering display: BT.2020 primaries, D65 white, 1000 and
0.0001 nits) and a `clli` box (CTA-861.3: MaxCLL 1000, MaxFALL 400 nits) to the first `hvc1`
or `hev1` sample entry, and grows the sizes of the boxes around it. FFmpeg 5.1's ffmpeg command
line cannot put this metadata in a container (libx265 writes it as SEI in the stream only), and
FFmpeg's mov demuxer reads these boxes as the stream's side data, which is what FrameSeek reports
and tone-maps from. IN must have its moov after the mdat (ffmpeg's default), so that no chunk
offset moves.

Standard library only. Used by make-fixtures.sh for hevc_pq_hdr10.mp4.
"""
import struct
import sys

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl"}
# mdcv: display primaries in G, B, R order, then the white point, in units of 0.00002, then the
# maximum and minimum luminance in units of 0.0001 nits (ISO/IEC 23001-8, as in the HEVC SEI).
BT2020 = {"G": (0.170, 0.797), "B": (0.131, 0.046), "R": (0.708, 0.292)}
D65 = (0.3127, 0.3290)
MDCV = b"".join(struct.pack(">HH", round(x / 0.00002), round(y / 0.00002)) for x, y in (BT2020[c] for c in "GBR")) \
    + struct.pack(">HH", round(D65[0] / 0.00002), round(D65[1] / 0.00002)) \
    + struct.pack(">II", 1000 * 10000, 1)
CLLI = struct.pack(">HH", 1000, 400)


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def children(data, start, end):
    off = start
    while off + 8 <= end:
        size, kind = struct.unpack(">I4s", data[off:off + 8])
        if size < 8 or off + size > end:
            raise SystemExit(f"add-hdr-metadata: bad box {kind!r} at {off}")
        yield kind, off, off + size
        off += size


def path_to_entry(data):
    """The offsets of moov, trak, mdia, minf, stbl, stsd and the first HEVC sample entry."""
    chain = []

    def walk(start, end):
        for kind, off, box_end in children(data, start, end):
            if kind == b"moov" and any(k == b"mdat" and o > off for k, o, _ in children(data, 0, len(data))):
                raise SystemExit("add-hdr-metadata: the moov comes before the mdat; offsets would move")
            if kind in CONTAINERS:
                chain.append(off)
                if walk(off + 8, box_end):
                    return True
                chain.pop()
            elif kind == b"stsd":
                # A full box (4 bytes) and an entry count (4) before the sample entries.
                for entry, entry_off, _ in children(data, off + 16, box_end):
                    if entry in (b"hvc1", b"hev1"):
                        chain.extend([off, entry_off])
                        return True
        return False

    if not walk(0, len(data)):
        raise SystemExit("add-hdr-metadata: no HEVC sample entry found")
    return chain


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    data = bytearray(open(sys.argv[1], "rb").read())
    chain = path_to_entry(data)
    added = box(b"mdcv", MDCV) + box(b"clli", CLLI)
    entry = chain[-1]
    entry_end = entry + struct.unpack(">I", data[entry:entry + 4])[0]
    data[entry_end:entry_end] = added
    for off in chain:
        size = struct.unpack(">I", data[off:off + 4])[0]
        data[off:off + 4] = struct.pack(">I", size + len(added))
    open(sys.argv[2], "wb").write(data)


if __name__ == "__main__":
    main()
