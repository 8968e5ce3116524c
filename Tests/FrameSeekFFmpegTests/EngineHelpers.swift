// Helpers for the FFmpeg engine tests. The fixture manifest and the ffprobe / framemd5
// oracles are in FrameSeekTestSupport, shared with the command-line tests.

import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// The frame number the synthetic fixtures draw in their top band: 16 blocks of 20x20 luma,
/// block b white when bit b is set. Read from the packed planes, sampled at (20b+10, 10).
func readBarcode(_ picture: DecodedPicture) -> Int {
    let wide = picture.bitsPerComponent > 8
    let threshold = wide ? 1 << (picture.bitsPerComponent - 1) : 128
    var number = 0
    for bit in 0..<16 {
        let x = 20 * bit + 10, y = 10
        let sample: Int
        if wide {
            let offset = (y * picture.width + x) * 2
            sample = Int(picture.bytes[offset]) | Int(picture.bytes[offset + 1]) << 8
        } else {
            sample = Int(picture.bytes[y * picture.width + x])
        }
        if sample >= threshold { number |= 1 << bit }
    }
    return number
}

/// Checks the landed picture of a video fixture against the oracles: frame `expected`'s PTS,
/// its framemd5 MD5, its size, and (synthetic fixtures) the barcode it carries.
func verifyLandedPicture(engine: FFmpegEngine, oracle: Oracle, expected: Int, context: String) {
    let fixture = oracle.fixture
    guard let picture = landedPicture(engine, context) else {
        Issue.record("\(context): no landed picture")
        return
    }
    #expect(picture.pts == oracle.frames[expected].pts, "\(context): picture pts \(picture.pts)")
    if let md5s = oracle.md5s, md5s.indices.contains(expected) {
        #expect(picture.md5 == md5s[expected], "\(context): MD5 differs from framemd5 line \(expected)")
    }
    if let width = oracle.frames[expected].width, let height = oracle.frames[expected].height {
        #expect(picture.width == width && picture.height == height, "\(context): \(picture.width)x\(picture.height)")
    }
    if fixture.hasBarcode {
        let barcode = readBarcode(picture)
        #expect(
            barcode == expected + fixture.barcodeOffset,
            "\(context): barcode reads \(barcode), expected frame \(expected) + offset \(fixture.barcodeOffset)")
    }
}

/// The engine's landed picture, or nil with an issue recorded when copying it out failed.
func landedPicture(_ engine: FFmpegEngine, _ context: String) -> DecodedPicture? {
    do { return try engine.landedPicture() } catch {
        Issue.record("\(context): \(error)")
        return nil
    }
}

/// Opens the engine on a fixture's stream, one decoder thread.
func openEngine(_ fixture: Fixture) throws -> FFmpegEngine {
    try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
}
