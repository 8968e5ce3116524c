/// The frame-number barcode the synthetic fixtures carry (see `Fixtures/make-fixtures.sh`):
/// the top 20 rows hold 16 blocks of 20x20 pixels, block `b` covering x in `[20b, 20b + 20)`,
/// white when bit `b` of the number is set (least significant bit leftmost), else black.
///
/// It survives compression and lets a test or a landing manifest say which frame it landed on
/// without trusting any timestamp.
public enum FrameBarcode {
    /// Bits in the band.
    public static let bits = 16
    /// A block's side in pixels; the band is `bits * blockSize` pixels wide, `blockSize` high.
    public static let blockSize = 20
    /// How far from mid-grey (luma 128 of 255) every sample of a block must be for the block
    /// to count as black or white. Encoders blur and ring near the block edges, so the samples
    /// stay inside; a picture with no band has mid-tones and reads as nil.
    static let margin = 64
    /// Where the blocks are sampled, as offsets from a block's corner: a 3x3 grid away from
    /// its edges.
    static let sampleOffsets = [6, 10, 14]

    /// The number `image` carries, or nil when it carries none: narrower than 320 or lower
    /// than 20 pixels, or some block not clearly black or white.
    ///
    /// - Parameter image: the picture in coded orientation (as decoded, before any display
    ///   rotation), which is where the band was stamped.
    public static func read(from image: RGBImage) -> Int? {
        guard image.width >= bits * blockSize, image.height >= blockSize else { return nil }
        var number = 0
        for bit in 0..<bits {
            var white = 0, black = 0
            for dy in sampleOffsets {
                for dx in sampleOffsets {
                    let luma = self.luma(image, x: bit * blockSize + dx, y: dy)
                    if luma >= 128 + margin { white += 1 } else if luma <= 128 - margin { black += 1 }
                }
            }
            let samples = sampleOffsets.count * sampleOffsets.count
            if white == samples {
                number |= 1 << bit
            } else if black != samples {
                return nil
            }
        }
        return number
    }

    /// BT.601 luma of one pixel, in integers (weights 77, 150, 29 of 256): the band is black
    /// or white, so the matrix hardly matters, but a colourful picture must not pass for it.
    private static func luma(_ image: RGBImage, x: Int, y: Int) -> Int {
        let offset = (y * image.width + x) * 3
        let p = image.pixels
        return (77 * Int(p[offset]) + 150 * Int(p[offset + 1]) + 29 * Int(p[offset + 2])) >> 8
    }
}
