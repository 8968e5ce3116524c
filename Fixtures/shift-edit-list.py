#!/usr/bin/env python3
"""Moves the start of an MP4's edit list later by a whole number of frames.

    Fixtures/shift-edit-list.py IN.mp4 OUT.mp4 FRAMES

IN must have one track with one edit (what ffmpeg's MP4 muxer writes for a single video
stream). The edit's media_time grows by FRAMES frame durations (the first stts delta) and its
segment_duration, the track's tkhd duration and the movie's mvhd duration shrink by as much, so
the file says consistently that playback starts FRAMES frames into the media. Every sample stays
in the file: with FRAMES past the first GOP, the samples of that whole GOP lie before the edit
(FFmpeg's mov demuxer drops them from its index; the header's sample count still lists them).

Standard library only. Used by make-fixtures.sh for h264_editlist_late.mp4.
"""
import struct
import sys

CONTAINERS = {b"moov", b"trak", b"mdia", b"minf", b"stbl", b"edts"}


def boxes(data, start, end):
    """(type, offset of the box, offset of its payload, end) for each box in [start, end)."""
    off = start
    while off + 8 <= end:
        size, typ = struct.unpack(">I4s", data[off:off + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[off + 8:off + 16])[0]
            header = 16
        elif size == 0:
            size = end - off
        if size < header or off + size > end:
            raise ValueError(f"bad box {typ!r} at {off}")
        yield typ, off, off + header, off + size
        off += size


def find(data, start, end, path, found):
    """Collects the payload offsets of every box at `path` (a list of types) under [start, end)."""
    for typ, _, payload, box_end in boxes(data, start, end):
        if typ != path[0]:
            continue
        if len(path) == 1:
            found.append((payload, box_end))
        elif typ in CONTAINERS:
            find(data, payload, box_end, path[1:], found)
    return found


def one(data, path):
    found = find(data, 0, len(data), [p.encode() for p in path], [])
    if len(found) != 1:
        raise SystemExit(f"shift-edit-list: expected one {'/'.join(path)}, found {len(found)}")
    return found[0][0]


def full_box_version(data, payload):
    return data[payload]


def duration_field(data, payload, v1_offset, v0_offset):
    """(offset, format) of a version-dependent duration field of a full box."""
    return (payload + v1_offset, ">Q") if full_box_version(data, payload) == 1 else (payload + v0_offset, ">I")


def main(argv):
    if len(argv) != 4:
        raise SystemExit(__doc__)
    src, dst, frames = argv[1], argv[2], int(argv[3])
    data = bytearray(open(src, "rb").read())

    mvhd = one(data, ["moov", "mvhd"])
    # mvhd: version(1) flags(3), then v0: ctime(4) mtime(4) timescale(4) duration(4); v1: 8 8 4 8.
    v1 = full_box_version(data, mvhd) == 1
    movie_scale = struct.unpack(">I", data[mvhd + (20 if v1 else 12):][:4])[0]
    mvhd_dur = duration_field(data, mvhd, 24, 16)

    tkhd = one(data, ["moov", "trak", "tkhd"])
    # tkhd: v0: ctime(4) mtime(4) track_id(4) reserved(4) duration(4); v1: 8 8 4 4 8.
    tkhd_dur = duration_field(data, tkhd, 28, 20)

    mdhd = one(data, ["moov", "trak", "mdia", "mdhd"])
    v1 = full_box_version(data, mdhd) == 1
    media_scale = struct.unpack(">I", data[mdhd + (20 if v1 else 12):][:4])[0]

    stts = one(data, ["moov", "trak", "mdia", "minf", "stbl", "stts"])
    entries = struct.unpack(">I", data[stts + 4:stts + 8])[0]
    if entries < 1:
        raise SystemExit("shift-edit-list: empty stts")
    delta = struct.unpack(">I", data[stts + 12:stts + 16])[0]

    elst = one(data, ["moov", "trak", "edts", "elst"])
    version = full_box_version(data, elst)
    count = struct.unpack(">I", data[elst + 4:elst + 8])[0]
    if count != 1:
        raise SystemExit(f"shift-edit-list: expected one edit, found {count}")
    fmt = ">Qq" if version == 1 else ">Ii"
    at = elst + 8
    segment, media_time = struct.unpack(fmt, data[at:at + struct.calcsize(fmt)])

    shift_media = frames * delta
    shift_movie = shift_media * movie_scale // media_scale
    if shift_movie >= segment:
        raise SystemExit("shift-edit-list: the shift is longer than the edit")
    struct.pack_into(fmt, data, at, segment - shift_movie, media_time + shift_media)
    for offset, f in (mvhd_dur, tkhd_dur):
        value = struct.unpack(f, data[offset:offset + struct.calcsize(f)])[0]
        struct.pack_into(f, data, offset, value - shift_movie)
    with open(dst, "wb") as out:
        out.write(data)
    print(f"shift-edit-list: media_time {media_time} -> {media_time + shift_media} "
          f"(+{frames} frames of {delta}/{media_scale} s), segment {segment} -> {segment - shift_movie} "
          f"(1/{movie_scale} s)", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
