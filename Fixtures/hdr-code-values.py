#!/usr/bin/env python3
"""HDR tone mapping checked without zimg: known 10-bit code values and the SDR colours they
should become, computed here from the published formulas alone.

    hdr-code-values.py raw OUT.yuv       write the frame: 10-bit 4:4:4 (yuv444p10le), 256x128,
                                         4 rows of 8 patches of 32x32, limited range
    hdr-code-values.py expected OUT.json write each patch's code values and its expected SDR
                                         RGB (8-bit, full range) under FrameSeek's default
                                         mapping (hable, peak 1000 nits)

The patches are PQ (SMPTE ST 2084) code values in the BT.2020 non-constant-luminance matrix:
greys from black to 10,000 nits and colours inside BT.709's gamut, so no stage clips. The
expected colour of a patch follows FFmpeg's recipe stage by stage, each from its standard:

1. Y'CbCr to R'G'B': BT.2020 (Kr 0.2627, Kb 0.0593), 10-bit limited range (BT.2100 table 9).
2. PQ EOTF (SMPTE ST 2084, BT.2100 table 4): nits, then / 100 (linear 1.0 = 100 nits, npl=100).
3. BT.2020 to BT.709 primaries: the 3x3 matrix made from the two sets of chromaticities and
   D65 (SMPTE RP 177), in linear light.
4. Hable's filmic curve (Uncharted 2: A 0.15, B 0.50, C 0.10, D 0.20, E 0.02, F 0.30) on the
   largest component, each component scaled by the same ratio: peak 10 (1000 nits), no
   desaturation, as FFmpeg's tonemap filter applies it.
5. The BT.709 transfer for the output, display-referred as zscale applies it: the inverse of
   the BT.1886 EOTF (annex 1, a 2.4 power with black at 0), full range, rounded to 8 bits.
   (BT.709's own OETF, the scene-referred curve, would put the darks up to 28 codes lower.)

Only the standard library: the fixtures' recipe needs nothing else.
"""
import json
import struct
import sys

WIDTH, HEIGHT, PATCH = 256, 128, 32
PEAK_NITS = 1000.0

# PQ constants, SMPTE ST 2084.
M1, M2 = 2610 / 16384, 2523 / 4096 * 128
C1, C2, C3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
KR, KB = 0.2627, 0.0593


def pq_inverse_eotf(nits):
    y = max(0.0, nits) / 10000
    return ((C1 + C2 * y ** M1) / (1 + C3 * y ** M1)) ** M2


def pq_eotf(value):
    e = max(0.0, value) ** (1 / M2)
    return 10000 * (max(e - C1, 0.0) / (C2 - C3 * e)) ** (1 / M1)


def rgb_to_xyz(primaries, white):
    """The RGB-to-XYZ matrix of a set of xy primaries and white point (SMPTE RP 177)."""
    columns = [[x / y, 1.0, (1 - x - y) / y] for x, y in primaries]
    wx, wy = white
    w = [wx / wy, 1.0, (1 - wx - wy) / wy]
    m = [[columns[c][r] for c in range(3)] for r in range(3)]
    s = solve(m, w)
    return [[m[r][c] * s[c] for c in range(3)] for r in range(3)]


def solve(m, v):
    inverse = invert(m)
    return [sum(inverse[r][c] * v[c] for c in range(3)) for r in range(3)]


def invert(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
            [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
            [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]


def multiply(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(3)) for c in range(3)] for r in range(3)]


D65 = (0.3127, 0.3290)
BT2020 = rgb_to_xyz([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], D65)
BT709 = rgb_to_xyz([(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)], D65)
BT2020_TO_BT709 = multiply(invert(BT709), BT2020)
BT709_TO_BT2020 = invert(BT2020_TO_BT709)


def apply(m, v):
    return [sum(m[r][c] * v[c] for c in range(3)) for r in range(3)]


def hable(x):
    a, b, c, d, e, f = 0.15, 0.50, 0.10, 0.20, 0.02, 0.30
    return (x * (x * a + b * c) + d * e) / (x * (x * a + b) + d * f) - e / f


def bt1886_inverse_eotf(value):
    return min(1.0, max(0.0, value)) ** (1 / 2.4)


def codes_for(nits_rgb_709):
    """10-bit limited-range Y'CbCr code values of a BT.709 colour given in nits per channel."""
    rgb2020 = apply(BT709_TO_BT2020, nits_rgb_709)
    r, g, b = (pq_inverse_eotf(c) for c in rgb2020)
    y = KR * r + (1 - KR - KB) * g + KB * b
    cb = (b - y) / (2 * (1 - KB))
    cr = (r - y) / (2 * (1 - KR))
    return round(64 + 876 * y), round(512 + 896 * cb), round(512 + 896 * cr)


def expected_sdr(y_code, cb_code, cr_code):
    y, cb, cr = (y_code - 64) / 876, (cb_code - 512) / 896, (cr_code - 512) / 896
    r = y + 2 * (1 - KR) * cr
    b = y + 2 * (1 - KB) * cb
    g = (y - KR * r - KB * b) / (1 - KR - KB)
    linear2020 = [pq_eotf(c) / 100 for c in (r, g, b)]
    linear = apply(BT2020_TO_BT709, linear2020)
    signal = max(max(linear), 1e-6)
    scale = hable(signal) / hable(PEAK_NITS / 100) / signal
    return [round(255 * bt1886_inverse_eotf(c * scale)) for c in linear]


def patches():
    greys = [0, 0.1, 1, 5, 10, 20, 50, 100, 150, 203, 300, 500, 700, 1000, 2000, 10000]
    colours = [(100, 20, 20), (20, 100, 20), (20, 20, 100), (200, 200, 20), (20, 200, 200),
               (200, 20, 200), (400, 100, 50), (50, 100, 400), (600, 300, 100), (30, 60, 90),
               (5, 2, 1), (1, 2, 5), (800, 800, 100), (250, 120, 40), (60, 60, 500), (900, 200, 200)]
    values = [codes_for([n, n, n]) for n in greys] + [codes_for(list(c)) for c in colours]
    assert len(values) == (WIDTH // PATCH) * (HEIGHT // PATCH)
    for index, codes in enumerate(values):
        yield (index % (WIDTH // PATCH)) * PATCH, (index // (WIDTH // PATCH)) * PATCH, codes


def write_raw(path):
    planes = [[0] * (WIDTH * HEIGHT) for _ in range(3)]
    for x0, y0, codes in patches():
        for y in range(y0, y0 + PATCH):
            for x in range(x0, x0 + PATCH):
                for plane, code in zip(planes, codes):
                    plane[y * WIDTH + x] = code
    with open(path, "wb") as out:
        for plane in planes:
            out.write(struct.pack("<%dH" % len(plane), *plane))


def write_expected(path):
    entries = [{"x": x0, "y": y0, "size": PATCH, "ycbcr": list(codes), "sdr_rgb": expected_sdr(*codes)}
               for x0, y0, codes in patches()]
    with open(path, "w") as out:
        json.dump({"width": WIDTH, "height": HEIGHT, "transfer": "smpte2084", "matrix": "bt2020nc",
                   "peak_nits": PEAK_NITS, "tonemap": "hable", "patches": entries}, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("raw", "expected"):
        sys.exit("usage: hdr-code-values.py raw OUT.yuv | expected OUT.json")
    (write_raw if sys.argv[1] == "raw" else write_expected)(sys.argv[2])
