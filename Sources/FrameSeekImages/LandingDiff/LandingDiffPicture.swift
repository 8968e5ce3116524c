import FrameSeekCore

/// The picture `frameseek landing check --diff-dir` writes for one landing mismatch: three
/// panels side by side, each under a label strip: the frame the manifest expected, the frame
/// that landed, and their difference amplified so that a small drift is visible.
///
/// Layout, in pixels, for panels of `panelWidth` x `panelHeight`:
///
///     x:  0            panelWidth+panelGap        2*(panelWidth+panelGap)
///         +-----------+     +-----------+     +-----------+   rows 0 ..< labelHeight:
///         | EXPECTED  | gap | LANDED    | gap | DIFFERENCE|   labels, white on dark
///         +-----------+     +-----------+     +-----------+
///         |  expected |     |  landed   |     | |e-l|*amp |   rows labelHeight ..< labelHeight+panelHeight
///         +-----------+     +-----------+     +-----------+
///
/// Panel `i` (0, 1, 2) starts at x = i * (panelWidth + panelGap), y = labelHeight. The gaps
/// and label strips are `background`.
public enum LandingDiffPicture {
    /// Default amplification of the difference panel.
    public static let defaultAmplification = 8
    /// Gap between panels, in pixels, so the three pictures do not read as one.
    public static let panelGap = 4
    /// Height of the label strip above the panels, in pixels: the font's 14 px glyphs
    /// (5x7 at 2x) with 3 px above and below.
    public static let labelHeight = 20
    /// The longest panel side, in pixels. Decoded video is at most 16384 px on a side; a
    /// larger picture is sampled down (nearest neighbour) to this on that side, so the
    /// arithmetic cannot overflow and the picture stays within a few GiB.
    public static let maximumPanelSide = 16_384
    /// The colour of label strips and gaps.
    public static let background: (red: UInt8, green: UInt8, blue: UInt8) = (32, 32, 32)
    /// The colour of label text.
    public static let textColor: (red: UInt8, green: UInt8, blue: UInt8) = (255, 255, 255)
    /// The grey of a panel with nothing to show: a missing expected frame, and then the
    /// difference too. Mid grey so that it cannot be mistaken for "no difference" (black).
    public static let missingGrey: UInt8 = 128
    /// Appended to the expected label when there is no expected frame.
    public static let missingSuffix = ": missing"
    /// Where label text starts: this far right of its panel's left edge and below the strip's top.
    public static let labelInset = (x: 4, y: 3)

    /// "EXPECTED frame N", the first panel's usual label.
    public static func expectedLabel(frame: Int) -> String { "EXPECTED frame \(frame)" }
    /// "LANDED frame M", the second panel's usual label.
    public static func landedLabel(frame: Int) -> String { "LANDED frame \(frame)" }
    /// "DIFFERENCE xA", the third panel's label, naming the amplification so a reader can
    /// scale what they see back.
    public static func differenceLabel(amplification: Int) -> String { "DIFFERENCE x\(clampedAmplification(amplification))" }

    /// The size of the composed picture for panels of the given size:
    /// width = 3 * panelWidth + 2 * panelGap, height = labelHeight + panelHeight, after
    /// each side is clamped to 0 ... `maximumPanelSide` (the clamp `compose` applies), so no
    /// argument overflows.
    public static func size(panelWidth: Int, panelHeight: Int) -> (width: Int, height: Int) {
        let (w, h) = clampedPanel(panelWidth, panelHeight)
        return (3 * w + 2 * panelGap, labelHeight + h)
    }

    /// Composes the three panels.
    ///
    /// Each panel is the expected picture's size (the landed one's when `expected` is nil),
    /// clamped to `maximumPanelSide`. A landed picture of another size (a re-encode at
    /// another size) is scaled, nearest neighbour, to that size, both for its panel and for
    /// the difference, which is min(255, |expected - landed| * amplification) per channel.
    /// A nil `expected` (the expected frame does not exist in a changed file) gives a mid-grey
    /// panel labelled `expectedLabel + missingSuffix`, and a mid-grey difference panel; so
    /// does an empty (0-pixel) landed picture for the landed and difference panels.
    ///
    /// Labels are drawn as capitals (but "x"), and cut to whole glyphs fitting their panel.
    /// `amplification` is clamped to 0 ... 255: beyond 255 every non-zero difference is
    /// already white.
    public static func compose(
        expected: RGBImage?, landed: RGBImage, expectedLabel: String, landedLabel: String,
        amplification: Int = defaultAmplification
    ) -> RGBImage {
        let (pw, ph) = clampedPanel(expected?.width ?? landed.width, expected?.height ?? landed.height)
        let size = size(panelWidth: pw, panelHeight: ph)
        var canvas = Canvas(width: size.width, height: size.height, color: background)
        let left = (0..<3).map { $0 * (pw + panelGap) }
        let labels = [
            expected == nil ? expectedLabel + missingSuffix : expectedLabel, landedLabel,
            differenceLabel(amplification: amplification)
        ]
        for (x, label) in zip(left, labels) {
            LabelFont.draw(
                label, on: &canvas, x: x + labelInset.x, y: labelInset.y,
                width: pw - labelInset.x, color: textColor)
        }
        let expectedPanel = expected.flatMap { Panel($0, width: pw, height: ph) }
        let landedPanel = Panel(landed, width: pw, height: ph)
        let grey: Canvas.Color = (missingGrey, missingGrey, missingGrey)
        canvas.draw(panelAt: left[0], labelHeight, width: pw, height: ph, grey: grey, expectedPanel.map { $0.pixel })
        canvas.draw(panelAt: left[1], labelHeight, width: pw, height: ph, grey: grey, landedPanel.map { $0.pixel })
        var difference: ((Int, Int) -> Canvas.Color)?
        if let expectedPanel, let landedPanel {
            let amp = clampedAmplification(amplification)
            func channel(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8(min(255, abs(Int(a) - Int(b)) * amp)) }
            difference = { x, y in
                let (e, l) = (expectedPanel.pixel(x, y), landedPanel.pixel(x, y))
                return (channel(e.red, l.red), channel(e.green, l.green), channel(e.blue, l.blue))
            }
        }
        canvas.draw(panelAt: left[2], labelHeight, width: pw, height: ph, grey: grey, difference)
        return canvas.image
    }

    static func clampedPanel(_ width: Int, _ height: Int) -> (Int, Int) {
        (min(max(0, width), maximumPanelSide), min(max(0, height), maximumPanelSide))
    }

    static func clampedAmplification(_ amplification: Int) -> Int { min(max(0, amplification), 255) }
}

/// A picture seen through a panel of another size: which source pixel each panel pixel shows.
private struct Panel {
    let image: RGBImage
    let columns: [Int]
    let rows: [Int]

    /// Nil when `image` has no pixels to show in a non-empty panel.
    init?(_ image: RGBImage, width: Int, height: Int) {
        if width > 0, height > 0, image.width == 0 || image.height == 0 { return nil }
        self.image = image
        columns = nearestIndices(destination: width, source: image.width)
        rows = nearestIndices(destination: height, source: image.height)
    }

    func pixel(_ x: Int, _ y: Int) -> Canvas.Color {
        let i = (rows[y] * image.width + columns[x]) * 3
        return (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2])
    }
}

extension Canvas {
    /// Fills the `width` x `height` panel at (`x0`, `y0`) with `pixel`'s colour for each
    /// panel pixel, or `grey` when there is nothing to show (`pixel` nil).
    fileprivate mutating func draw(
        panelAt x0: Int, _ y0: Int, width: Int, height: Int, grey: Color,
        _ pixel: ((Int, Int) -> Color)?
    ) {
        guard let pixel else { return fill(x: x0, y: y0, width: width, height: height, color: grey) }
        let canvasWidth = self.width
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                var i = ((y0 + y) * canvasWidth + x0) * 3
                for x in 0..<width {
                    let c = pixel(x, y)
                    out[i] = c.red
                    out[i + 1] = c.green
                    out[i + 2] = c.blue
                    i += 3
                }
            }
        }
    }
}
