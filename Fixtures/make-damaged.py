#!/usr/bin/env python3
"""Writes the damaged inputs of Fixtures/bad from committed fixtures, deterministically.

Usage: make-damaged.py MEDIA_DIR BAD_DIR

Each file is one kind of damage a user meets, kept small: bytes flipped in the media data of
an MP4 (the frames decode, with errors, and the damage spreads to the frames that reference
them), containers cut short (Matroska, WebM, MPEG-TS: the header states a duration the data
no longer reaches), and an MP4 whose moov states an absurd sample count (FFmpeg fails with
ENOMEM, which is a damaged header, not a lack of memory). Standard library only.
"""
import os
import struct
import sys


def top_level_boxes(data):
    """(type, offset, size) of each top-level ISO BMFF box."""
    offset = 0
    while offset + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size == 1:
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
        elif size == 0:
            size = len(data) - offset
        yield kind.decode("latin-1"), offset, size
        offset += size


def find_box(data, path, start=0, end=None):
    """Offset and size of the box at `path` (e.g. ["moov", "trak", "mdia"]), searching
    containers by their 8-byte headers."""
    end = len(data) if end is None else end
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind.decode("latin-1") == path[0]:
            if len(path) == 1:
                return offset, size
            return find_box(data, path[1:], offset + 8, offset + size)
        offset += size
    raise SystemExit("box %s not found" % "/".join(path))


def flip_mdat(source, target, fraction, count):
    """XORs `count` bytes with 0x55 from `fraction` of the way into the mdat payload."""
    data = bytearray(open(source, "rb").read())
    mdat = [(o, s) for k, o, s in top_level_boxes(data) if k == "mdat"][0]
    first = mdat[0] + 8 + int((mdat[1] - 8) * fraction)
    for i in range(first, first + count):
        data[i] ^= 0x55
    open(target, "wb").write(data)


def cut(source, target, percent, extra=0):
    """Keeps the first `percent` of the file, and `extra` bytes more."""
    data = open(source, "rb").read()
    open(target, "wb").write(data[:len(data) * percent // 100 + extra])


def absurd_stts(source, target):
    """Sets the stts entry count of the first track to 0x7ffffff0: FFmpeg's mov demuxer tries
    to allocate that many entries and fails with ENOMEM."""
    data = bytearray(open(source, "rb").read())
    offset, _ = find_box(data, ["moov", "trak", "mdia", "minf", "stbl", "stts"])
    struct.pack_into(">I", data, offset + 12, 0x7FFFFFF0)
    open(target, "wb").write(data)


def main():
    media, bad = sys.argv[1], sys.argv[2]
    gop250 = os.path.join(media, "h264_bframes_gop250.mp4")
    # 300 bytes 60% into the media data. FFmpeg 5.1 decodes 359 of the 360 frames: frame 222
    # (pts 222222) does not come out at all, frames 217 to 249 but 218 and 222 differ from
    # the clean decode (errors concealed, then inherited by the frames that reference them up
    # to the IDR at frame 250), frames 250 on are clean again.
    flip_mdat(gop250, os.path.join(bad, "bitflip_mdat.mp4"), 0.6, 300)
    cut(os.path.join(media, "h264_vfr.mkv"), os.path.join(bad, "truncated_half.mkv"), 50)
    cut(os.path.join(media, "vp9_altref.webm"), os.path.join(bad, "truncated_half.webm"), 50)
    # MPEG-TS states no duration: what shows a cut is a last 188-byte packet left incomplete,
    # as an interrupted download leaves it (50% of this file is a whole number of packets).
    cut(os.path.join(media, "h264_mpegts_offset.ts"), os.path.join(bad, "truncated_half.ts"), 50, 77)
    absurd_stts(gop250, os.path.join(bad, "damaged_moov.mp4"))


if __name__ == "__main__":
    main()
