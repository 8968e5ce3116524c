// The landing-diff picture checked against truth computed here, not by the code under test:
// the size from the documented formula, the difference from min(255, |a - b| * amp) over
// synthetic pictures, the panels byte for byte at their documented offsets, labels by their
// white pixels against the font's documented metrics (5x7 glyphs at 2x, a column apart).

import Foundation
@testable import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("LandingDiffPicture", .ffmpegLog)
struct LandingDiffPictureTests {
    typealias Picture = LandingDiffPicture
    static let white: [UInt8] = [255, 255, 255]

    /// A picture whose every byte is a known function of its place, different for `seed`.
    static func synthetic(_ width: Int, _ height: Int, seed: Int = 0) -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 { pixels.append(UInt8((x * 7 + y * 13 + c * 50 + seed * 31) % 256)) }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// The left edge of panel `i` for panels `panelWidth` wide, as the layout documents it.
    static func left(_ i: Int, _ panelWidth: Int) -> Int { i * (panelWidth + Picture.panelGap) }

    /// The label strip above panel `i`.
    static func strip(_ picture: RGBImage, panel i: Int, panelWidth: Int) -> RGBImage {
        picture.crop(x: left(i, panelWidth), y: 0, width: panelWidth, height: Picture.labelHeight)
    }

    /// The columns of `image` holding a white pixel.
    static func whiteColumns(_ image: RGBImage) -> [Int] {
        (0..<image.width).filter { x in
            (0..<image.height).contains { y in
                let i = (y * image.width + x) * 3
                return Array(image.pixels[i..<(i + 3)]) == white
            }
        }
    }

    /// The columns `count` letters E ink: E inks all five font columns, so glyph k spans
    /// 4 + 12k ..< 4 + 12k + 10 (4 px inset, 12 px advance, 5 columns at 2x).
    static func columnsOfEs(_ count: Int) -> [Int] {
        var columns: [Int] = []
        for k in 0..<count {
            let start: Int = 4 + 12 * k
            columns += Array(start..<(start + 10))
        }
        return columns
    }

    static func compose(
        _ expected: RGBImage?, _ landed: RGBImage, amplification: Int = Picture.defaultAmplification,
        labels: (String, String) = ("EXPECTED frame 1", "LANDED frame 2")
    ) -> RGBImage {
        Picture.compose(
            expected: expected, landed: landed, expectedLabel: labels.0, landedLabel: labels.1,
            amplification: amplification)
    }

    @Test("The composed size is 3w + 2*gap by labelHeight + h", arguments: [(1, 1), (7, 3), (64, 36), (320, 240), (33, 200)])
    func size(width: Int, height: Int) {
        let truth = (3 * width + 2 * 4, 20 + height)
        let size = Picture.size(panelWidth: width, panelHeight: height)
        #expect(size == truth)
        let picture = Self.compose(Self.synthetic(width, height), Self.synthetic(width, height, seed: 1))
        #expect((picture.width, picture.height) == truth)
    }

    @Test("Absurd panel sizes are clamped to the documented maximum, negative ones to 0")
    func clampedSize() {
        #expect(Picture.size(panelWidth: 16_384, panelHeight: 16_384) == (3 * 16_384 + 8, 20 + 16_384))
        #expect(Picture.size(panelWidth: Int.max, panelHeight: Int.max) == (3 * 16_384 + 8, 20 + 16_384))
        #expect(Picture.size(panelWidth: -5, panelHeight: Int.min) == (8, 20))
        let empty = RGBImage(width: 0, height: 0, pixels: [])
        let picture = Self.compose(empty, empty)
        #expect((picture.width, picture.height) == (8, 20))
    }

    @Test("The difference of a picture and itself is black")
    func identical() {
        let a = Self.synthetic(40, 30)
        let picture = Self.compose(a, a)
        let difference = picture.crop(x: Self.left(2, 40), y: 20, width: 40, height: 30)
        #expect(difference.pixels.allSatisfy { $0 == 0 })
    }

    @Test("The difference panel is min(255, |a - b| * amp), byte for byte", arguments: [0, 1, 8, 40, 255, 1000, -3])
    func difference(amplification: Int) {
        let (a, b) = (Self.synthetic(24, 18), Self.synthetic(24, 18, seed: 5))
        // Small drifts too, where the amplification matters most.
        let drifted = RGBImage(
            width: 24, height: 18,
            pixels: a.pixels.enumerated().map { i, v in
                i % 4 == 0 ? v : UInt8(clamping: Int(v) + (i % 7) - 3)
            })
        let amp = min(max(amplification, 0), 255)
        for other in [b, drifted] {
            let truth = zip(a.pixels, other.pixels).map { UInt8(min(255, abs(Int($0) - Int($1)) * amp)) }
            let picture = Self.compose(a, other, amplification: amplification)
            let panel = picture.crop(x: Self.left(2, 24), y: 20, width: 24, height: 18)
            #expect(panel.pixels == truth)
        }
    }

    @Test("The expected and landed panels hold the input pixels at their offsets; gaps are background")
    func panels() {
        let (a, b) = (Self.synthetic(31, 17), Self.synthetic(31, 17, seed: 9))
        let picture = Self.compose(a, b)
        #expect(picture.crop(x: 0, y: 20, width: 31, height: 17) == a)
        #expect(picture.crop(x: 35, y: 20, width: 31, height: 17) == b)
        let background = [UInt8](repeating: 32, count: 4 * 17 * 3)
        #expect(picture.crop(x: 31, y: 20, width: 4, height: 17).pixels == background)
        #expect(picture.crop(x: 66, y: 20, width: 4, height: 17).pixels == background)
    }

    @Test("A landed picture of another size is scaled, nearest neighbour, to the expected size")
    func otherSize() {
        let expected = Self.synthetic(12, 9)
        for landed in [Self.synthetic(4, 3, seed: 2), Self.synthetic(25, 20, seed: 3)] {
            var scaled: [UInt8] = []
            for y in 0..<9 {
                for x in 0..<12 {
                    let i = ((y * landed.height / 9) * landed.width + x * landed.width / 12) * 3
                    scaled += landed.pixels[i..<(i + 3)]
                }
            }
            let picture = Self.compose(expected, landed, amplification: 3)
            #expect((picture.width, picture.height) == (3 * 12 + 8, 20 + 9))
            #expect(picture.crop(x: 0, y: 20, width: 12, height: 9) == expected)
            #expect(picture.crop(x: 16, y: 20, width: 12, height: 9).pixels == scaled)
            let truth = zip(expected.pixels, scaled).map { UInt8(min(255, abs(Int($0) - Int($1)) * 3)) }
            #expect(picture.crop(x: 32, y: 20, width: 12, height: 9).pixels == truth)
        }
    }

    @Test("A missing expected frame gives mid-grey expected and difference panels, labelled missing")
    func missing() {
        let (w, h) = (400, 10)
        let landed = Self.synthetic(w, h)
        let picture = Self.compose(nil, landed, labels: ("EXPECTED frame 3", "LANDED frame 4"))
        #expect((picture.width, picture.height) == (3 * w + 8, 20 + h))
        let grey = [UInt8](repeating: 128, count: w * h * 3)
        #expect(picture.crop(x: Self.left(0, w), y: 20, width: w, height: h).pixels == grey)
        #expect(picture.crop(x: Self.left(1, w), y: 20, width: w, height: h) == landed)
        #expect(picture.crop(x: Self.left(2, w), y: 20, width: w, height: h).pixels == grey)
        // The label is the one a present frame labelled "...: missing" would have, which is
        // longer than the plain one.
        func strip(_ expected: RGBImage?, _ label: String) -> RGBImage {
            Self.strip(Self.compose(expected, landed, labels: (label, "")), panel: 0, panelWidth: w)
        }
        let missing = strip(nil, "EXPECTED frame 3")
        #expect(missing == strip(landed, "EXPECTED frame 3: missing"))
        #expect(Self.whiteColumns(missing).last! > Self.whiteColumns(strip(landed, "EXPECTED frame 3")).last!)
    }

    @Test("Every label strip has white text; the difference label names the amplification")
    func labels() {
        let a = Self.synthetic(200, 10)
        let picture = Self.compose(a, a, amplification: 8)
        for i in 0..<3 { #expect(!Self.whiteColumns(Self.strip(picture, panel: i, panelWidth: 200)).isEmpty, "panel \(i)") }
        let named = Self.compose(a, a, labels: ("", "DIFFERENCE x8"))
        #expect(Self.strip(picture, panel: 2, panelWidth: 200) == Self.strip(named, panel: 1, panelWidth: 200))
        // Nothing but text and background in the strips.
        let strips = picture.crop(x: 0, y: 0, width: picture.width, height: 20)
        #expect(strips.pixels.allSatisfy { $0 == 32 || $0 == 255 })
    }

    @Test("A label grows by one 12 px glyph a character, ending where the font's metrics say")
    func labelWidth() {
        let a = Self.synthetic(400, 4)
        var previous = -1
        for n in 1...12 {
            let strip = Self.strip(Self.compose(a, a, labels: (String(repeating: "E", count: n), "")), panel: 0, panelWidth: 400)
            let columns = Self.whiteColumns(strip)
            #expect(columns == Self.columnsOfEs(n), "\(n) glyphs")
            #expect(columns.last! > previous)
            previous = columns.last!
        }
    }

    @Test("A label longer than its panel is cut to the whole glyphs that fit, never into the gap")
    func labelCut() {
        let a = Self.synthetic(50, 4)
        let picture = Self.compose(a, a, labels: ("EEEEEEEEEEEEEEEEEEEE", "EEEEEEEEEEEEEEEEEEEE"))
        // (50 - 4 - 10) / 12 + 1 = 4 whole glyphs fit.
        let truth = Self.columnsOfEs(4)
        #expect(Self.whiteColumns(Self.strip(picture, panel: 0, panelWidth: 50)) == truth)
        #expect(Self.whiteColumns(Self.strip(picture, panel: 1, panelWidth: 50)) == truth)
        let gap = picture.crop(x: 50, y: 0, width: 4, height: 20)
        #expect(gap.pixels.allSatisfy { $0 == 32 })
        let tiny = Self.compose(Self.synthetic(13, 4), Self.synthetic(13, 4), labels: ("EXPECTED", "LANDED"))
        #expect(Self.whiteColumns(tiny.crop(x: 0, y: 0, width: tiny.width, height: 20)).isEmpty)
    }

    @Test("Glyphs are drawn 2x at the documented inset: the letter I, pixel by pixel")
    func glyphBitmap() {
        let a = Self.synthetic(30, 4)
        let strip = Self.strip(Self.compose(a, a, labels: ("I", "")), panel: 0, panelWidth: 30)
        let rows = [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."]
        for y in 0..<20 {
            for x in 0..<30 {
                let (fx, fy) = ((x - 4) / 2, (y - 3) / 2)
                let inked = x >= 4 && y >= 3 && fx < 5 && fy < 7 && Array(rows[fy])[fx] == "#"
                let i = (y * 30 + x) * 3
                #expect(Array(strip.pixels[i..<(i + 3)]) == (inked ? Self.white : [32, 32, 32]), "(\(x), \(y))")
            }
        }
    }

    @Test("Lowercase is drawn as capitals, except x; no two glyphs look alike")
    func glyphs() {
        let a = Self.synthetic(300, 4)
        func strip(_ label: String) -> RGBImage { Self.strip(Self.compose(a, a, labels: (label, "")), panel: 0, panelWidth: 300) }
        #expect(strip("frame missing") == strip("FRAME MISSING"))
        #expect(strip("x") != strip("X"))
        #expect(strip("é") == strip("?"))
        let bitmaps = LabelFont.glyphs.values.map { $0 }
        #expect(Set(bitmaps).count == bitmaps.count)
        #expect(LabelFont.glyphs.values.allSatisfy { $0.count == 7 && $0.allSatisfy { $0 < 32 } })
    }

    @Test("A composed picture written with PNGFile reads back with libpng at its size, byte for byte")
    func png() throws {
        let directory = try temporaryDirectory("landing-diff")
        defer { try? FileManager.default.removeItem(at: directory) }
        let picture = Self.compose(
            Self.synthetic(64, 36), Self.synthetic(48, 27, seed: 4),
            labels: (Picture.expectedLabel(frame: 120), Picture.landedLabel(frame: 121)))
        let path = directory.appendingPathComponent("mismatch-0001.png").path
        try PNGFile.write(picture, to: path)
        let read = try readPNG(path)
        #expect((read.width, read.height) == (3 * 64 + 8, 20 + 36))
        #expect(read == picture)
    }
}
