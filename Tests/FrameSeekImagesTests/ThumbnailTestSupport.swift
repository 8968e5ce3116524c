// What the thumbnail tests share: the barcode reader for RGB thumbnails, and the fixtures and
// precisions the tests run over. PNG files are read back with FrameSeekTestSupport's readPNG.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// Video fixtures, all of them.
let videoFixtures = FixtureCatalog.video

/// The phone clips (1080p HEVC 10-bit, 4K H.264): each exact decode costs tens of times a
/// 320x240 one, so the tests sample them more sparsely.
func isLarge(_ oracle: Oracle) -> Bool { (oracle.frames[0].width ?? 0) * (oracle.frames[0].height ?? 0) > 1_000_000 }

/// A generator on a fixture's stream.
func makeGenerator(
    _ fixture: Fixture, size: (width: Int, height: Int) = (160, 90),
    precision: SeekPrecision? = nil
) throws -> ThumbnailGenerator {
    let generator = try ThumbnailGenerator(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
    generator.maximumSize = size
    if let precision { generator.precision = precision }
    return generator
}

/// Times every `step` from 0 up to (not including) the end of the last frame, plus a few
/// outside the range (the clamp), as exact rationals.
func timesAcross(_ oracle: Oracle, step: MediaTime) -> [MediaTime] {
    var times: [MediaTime] = [MediaTime(value: -1, timescale: 1)]
    var t = MediaTime.zero
    let end = oracle.end(oracle.lastIndex)
    while t < end {
        times.append(t)
        t = t + step
    }
    times.append(end)
    times.append(end + MediaTime(value: 3, timescale: 1))
    return times
}

/// A tolerance window as the oracle takes it: nil for an unbounded side.
func bounded(_ t: MediaTime) -> MediaTime? { t == .positiveInfinity ? nil : t }

/// Seconds as an exact `MediaTime`: `seconds(1, 4)` is 1/4 s.
func seconds(_ value: Int64, _ timescale: Int32 = 1) -> MediaTime { MediaTime(value: value, timescale: timescale) }

extension RGBImage {
    /// The largest difference between two same-sized pictures' bytes, for failure messages.
    func maximumDifference(from other: RGBImage) -> Int {
        guard width == other.width, height == other.height else { return 255 }
        return zip(pixels, other.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The sample point of barcode bit `bit` in a picture of a `codedWidth` x `codedHeight`
    /// frame shown at this size: (20b + 10, 10) in coded pixels, scaled.
    private func barcodePoint(_ bit: Int, codedWidth: Int, codedHeight: Int) -> Int {
        let x = (20 * bit + 10) * width / codedWidth
        let y = 10 * height / codedHeight
        return (y * width + x) * 3
    }

    /// The frame number the synthetic fixtures draw in their top band, read from RGB: the band
    /// is grey (Cb = Cr = 128), so any channel carries the luma; threshold 128.
    func barcode(codedWidth: Int, codedHeight: Int) -> Int {
        (0..<16).reduce(0) { number, bit in
            pixels[barcodePoint(bit, codedWidth: codedWidth, codedHeight: codedHeight)] >= 128 ? number | 1 << bit : number
        }
    }

    /// Whether the barcode's sample points are grey (R, G and B within 24 of each other), as a
    /// band drawn with neutral chroma must be after any correct conversion.
    func bandIsGrey(codedWidth: Int, codedHeight: Int) -> Bool {
        (0..<16).allSatisfy { bit in
            let i = barcodePoint(bit, codedWidth: codedWidth, codedHeight: codedHeight)
            let channels = [Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2])]
            return channels.max()! - channels.min()! <= 24
        }
    }
}
