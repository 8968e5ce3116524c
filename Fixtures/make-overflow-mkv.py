#!/usr/bin/env python3
"""Writes a hostile Matroska file whose timestamps overflow 64 bits.

    Fixtures/make-overflow-mkv.py FRAMES.mjpeg OUT.mkv [CLUSTER1_MS CLUSTER2_MS]

FRAMES.mjpeg is a raw MJPEG stream of at least four JPEG pictures (ffmpeg -f mjpeg). The file is
assembled by hand, element by element (no muxer would write it): an EBML header, a Segment of
unknown size with Info (TimestampScale 1 ms), one V_MJPEG track (64x48), and two Clusters of
two keyframe SimpleBlocks each, at relative times 0 and 40 ms. The first Cluster's timestamp is
CLUSTER1_MS (default 100), the second's CLUSTER2_MS (default 0x8000000000000000 = 2^63). FFmpeg
reads the 2^63 Cluster timestamp as INT64_MIN, which is AV_NOPTS_VALUE: its first block has no
timestamp and its second one has INT64_MIN + 40, so the gap to the first Cluster's frames
overflows a signed 64-bit integer.

Standard library only. Used by make-fixtures.sh for bad/overflow_pts.mkv.
"""
import struct
import sys


def vint_size(n):
    """An EBML data size: the shortest length whose all-ones value is not n."""
    for length in range(1, 9):
        if n < (1 << (7 * length)) - 1:
            return ((1 << (7 * length)) | n).to_bytes(length, "big") if length > 1 else bytes([0x80 | n])
    raise ValueError(n)


def element(ident, payload):
    return ident + vint_size(len(payload)) + payload


def uint(ident, value, width=None):
    return element(ident, value.to_bytes(width or max(1, (value.bit_length() + 7) // 8), "big"))


def text(ident, value):
    return element(ident, value.encode())


def simple_block(relative_ms, picture):
    # Track number 1 (as a vint), signed 16-bit relative timestamp, flags 0x80 = keyframe.
    return element(b"\xa3", b"\x81" + struct.pack(">hB", relative_ms, 0x80) + picture)


def cluster(timestamp, pictures):
    body = uint(b"\xe7", timestamp, 8)
    for relative, picture in zip((0, 40), pictures):
        body += simple_block(relative, picture)
    return element(b"\x1f\x43\xb6\x75", body)


def main(argv):
    if len(argv) not in (3, 5):
        raise SystemExit(__doc__)
    data = open(argv[1], "rb").read()
    pictures = [b"\xff\xd8" + part for part in data.split(b"\xff\xd8")[1:]]
    if len(pictures) < 4:
        raise SystemExit(f"make-overflow-mkv: {argv[1]} holds {len(pictures)} JPEG pictures, need 4")
    first, second = (int(argv[3], 0), int(argv[4], 0)) if len(argv) == 5 else (100, 1 << 63)

    ebml = element(b"\x1a\x45\xdf\xa3",
                   uint(b"\x42\x86", 1) + uint(b"\x42\xf7", 1) + uint(b"\x42\xf2", 4) + uint(b"\x42\xf3", 8)
                   + text(b"\x42\x82", "matroska") + uint(b"\x42\x87", 4) + uint(b"\x42\x85", 2))
    info = element(b"\x15\x49\xa9\x66",
                   uint(b"\x2a\xd7\xb1", 1_000_000) + text(b"\x4d\x80", "x") + text(b"\x57\x41", "x"))
    video = element(b"\xe0", uint(b"\xb0", 64) + uint(b"\xba", 48))
    track = element(b"\xae", uint(b"\xd7", 1) + uint(b"\x73\xc5", 1) + uint(b"\x83", 1)
                    + text(b"\x86", "V_MJPEG") + video)
    tracks = element(b"\x16\x54\xae\x6b", track)
    payload = info + tracks + cluster(first, pictures[0:2]) + cluster(second, pictures[2:4])
    # A Segment of unknown size (all ones in an 8-byte size field).
    segment = b"\x18\x53\x80\x67" + b"\x01\xff\xff\xff\xff\xff\xff\xff" + payload
    with open(argv[2], "wb") as out:
        out.write(ebml + segment)


if __name__ == "__main__":
    main(sys.argv)
