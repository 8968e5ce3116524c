// Landed pictures in RGB are byte for byte what ffmpeg's own scale filter makes with the same
// flags and matrix: full size (bilinear), a 160x90 thumbnail (area) and 16-bit, on every pixel
// format family FrameSeek converts, whether a picture converts on one thread or in slices on two
// (swscale's slice threads, `FFmpegEngine.Options.conversionThreads`).

import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

/// A picture format and size the test encodes losslessly (FFV1) from ffmpeg's test source.
struct ConversionCase: Sendable, CustomTestStringConvertible {
    let pixelFormat: String
    let width: Int
    let height: Int
    var testDescription: String { "\(pixelFormat) \(width)x\(height)" }

    /// The matrix FrameSeek assumes for untagged YUV of this size, as ffmpeg's scale filter
    /// names it (`ScaleContext`: BT.709 from 1280 columns or above 576 rows, as mpv assumes;
    /// else BT.601).
    var assumedMatrix: String { width >= 1280 || height > 576 ? "bt709" : "bt601" }

    static let all = [
        ConversionCase(pixelFormat: "yuv420p", width: 1280, height: 720),
        ConversionCase(pixelFormat: "yuv420p", width: 853, height: 481),
        // Widescreen HD cropped below 720 rows, and SD-wide pictures above 576 rows.
        ConversionCase(pixelFormat: "yuv420p", width: 1280, height: 544),
        ConversionCase(pixelFormat: "yuv420p", width: 720, height: 640),
        ConversionCase(pixelFormat: "yuv420p10le", width: 640, height: 360),
        ConversionCase(pixelFormat: "yuv422p", width: 640, height: 362),
        ConversionCase(pixelFormat: "yuv444p", width: 641, height: 359),
        ConversionCase(pixelFormat: "nv12", width: 1280, height: 720),
        ConversionCase(pixelFormat: "gray", width: 320, height: 240),
        ConversionCase(pixelFormat: "gray10le", width: 322, height: 240),
        ConversionCase(pixelFormat: "yuvj422p", width: 640, height: 360),
        ConversionCase(pixelFormat: "yuvj420p", width: 1920, height: 1080)
    ]
}

@Suite("Picture conversion", .ffmpegLog)
struct PictureConversionTests {
    /// The second frame of `clip` as ffmpeg converts it: `scale` with `flags` and this
    /// source matrix, to full-range `format`, in raw bytes.
    static func ffmpegPicture(
        _ clip: String, size: String?, flags: String, matrix: String, format: String, in directory: URL
    ) throws -> [UInt8] {
        let output = directory.appendingPathComponent("ffmpeg-\(format)-\(size ?? "same").raw").path
        let scale = (size.map { "scale=\($0):" } ?? "scale=") + "flags=\(flags):in_color_matrix=\(matrix):out_range=pc"
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", clip, "-vf", "select=eq(n\\,1),\(scale),format=\(format)",
            "-frames:v", "1", "-f", "rawvideo", output
        ])
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test("RGB pictures are ffmpeg's scale filter's bytes: full size, 160x90 and 16-bit, on 1 and 2 threads", arguments: ConversionCase.all)
    func sameBytesAsFFmpeg(_ conversion: ConversionCase) throws {
        let directory = try temporaryDirectory("conversion")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.nut").path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i",
            "testsrc2=size=\(conversion.width)x\(conversion.height):rate=25,noise=alls=20:allf=t",
            "-frames:v", "3", "-pix_fmt", conversion.pixelFormat, "-c:v", "ffv1", clip
        ])

        // The independent truth: ffmpeg's scale filter, same flags, same matrix.
        let matrix = conversion.assumedMatrix
        let full = try Self.ffmpegPicture(clip, size: nil, flags: "bilinear+accurate_rnd", matrix: matrix, format: "rgb24", in: directory)
        let deep = try Self.ffmpegPicture(clip, size: nil, flags: "bilinear+accurate_rnd", matrix: matrix, format: "rgb48be", in: directory)
        let thumbnail = try Self.ffmpegPicture(
            clip, size: "160:90", flags: "area+accurate_rnd", matrix: matrix, format: "rgb24", in: directory)

        for threads in [1, 2] {
            var options = FFmpegEngine.Options()
            options.conversionThreads = threads
            let engine = try FFmpegEngine(path: clip, options: options)
            let landing = try engine.seek(to: MediaTime(value: 1, timescale: 25), precision: .exact)
            #expect(landing.frame.index == 1)
            let landedFull = try #require(try engine.landedImage())
            let landedThumbnail = try #require(try engine.landedImage(width: 160, height: 90))
            let landedDeep = try #require(try engine.landedPicture()).rgb16Image(using: engine)
            #expect(differingBytes(full, landedFull.pixels) == 0, "full size against ffmpeg, \(threads) threads")
            #expect(differingBytes(deep, landedDeep.bigEndianSamples) == 0, "16-bit against ffmpeg, \(threads) threads")
            #expect(differingBytes(thumbnail, landedThumbnail.pixels) == 0, "160x90 against ffmpeg, \(threads) threads")
        }
    }

    /// How many bytes differ, the length difference counting as differing bytes: one number
    /// for a failure message, not two pictures. Equal pictures, the passing case, take one
    /// memcmp: counting a byte at a time through a closure, in a debug build and under the
    /// sanitizers, made this suite the longest of the whole run (minutes under TSan).
    func differingBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let equal =
            a.count == b.count
            && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
        if equal { return 0 }
        return zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 == $1.1 ? 0 : 1) }
    }
}
