// PNG files at every zlib level and row filter, and FFmpeg's own PNG encoder, checked by the
// ffmpeg CLI: each file decodes (to rgb24) to the MD5 that ffmpeg gives the raw RGB frame.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("PNG output: every compression setting keeps every pixel", .ffmpegLog)
struct PNGCompressionTests {
    /// Part of a landed frame of a phone clip, upright, and a sheet of thumbnails: camera
    /// noise and flat synthetic areas, which the filters treat differently. The frame is
    /// cropped to 480x270 because level 9 with filters takes seconds on a whole 1080x1920 one.
    static func pictures() throws -> [(String, RGBImage)] {
        let clip = try #require(FixtureCatalog.fixture("iphone_hevc_editlist.s0"))
        let engine = try FFmpegEngine(path: clip.path, options: .init(streamIndex: clip.stream))
        _ = try engine.seek(to: seconds(1, 2), precision: .exact)
        let frame = try #require(try engine.landedPicture()).displayImage(using: engine).crop(x: 300, y: 800, width: 480, height: 270)
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let thumbnails = try makeGenerator(fixture).thumbnails(at: (0..<7).map { seconds(Int64($0)) })
        let directory = try temporaryDirectory("png-sheet")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storyboard = try Storyboard.write(thumbnails, duration: seconds(7), to: directory.path, columns: 3, rows: 3)
        let sheet = try readPNG(directory.appendingPathComponent(try #require(storyboard.tiles.first).file).path)
        return [(clip.id, frame), ("sheet", sheet)]
    }

    /// The MD5 ffmpeg gives `image`'s raw bytes, read as rgb24 of its size.
    static func truth(_ image: RGBImage, in directory: URL) throws -> String {
        let raw = directory.appendingPathComponent("frame.rgb")
        try Data(image.pixels).write(to: raw)
        return try ffmpegRGB24MD5([
            "-f", "rawvideo", "-pixel_format", "rgb24", "-video_size", "\(image.width)x\(image.height)",
            "-i", raw.path
        ])
    }

    /// Every level with the default filter, and every filter at levels 1, 6 and 9.
    static let settings =
        (0...9).map { PNGCompression(level: $0, filter: PNGCompression.default.filter) }
        + [1, 6, 9].flatMap { level in PNGFilter.allCases.map { PNGCompression(level: level, filter: $0) } }

    @Test("Levels 0-9 and every filter: ffmpeg decodes each file to the frame's pixels; none is larger than stored")
    func everyLevel() throws {
        let directory = try temporaryDirectory("png-levels")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, image) in try Self.pictures() {
            let truth = try Self.truth(image, in: directory)
            var sizes: [PNGCompression: Int] = [:]
            for compression in Self.settings + [PNGCompression(level: 0, filter: .none)] {
                let path = directory.appendingPathComponent("\(compression.level)-\(compression.filter.rawValue).png").path
                try PNGFile.write(image, to: path, compression: compression)
                #expect(try ffmpegRGB24MD5(["-i", path]) == truth, "\(name), \(compression): other pixels")
                sizes[compression] = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            }
            let stored = try #require(sizes[PNGCompression(level: 0, filter: .none)])
            #expect(stored > image.pixels.count, "\(name): level 0 stores the pixels, \(stored) bytes")
            #expect(sizes.values.allSatisfy { $0 <= stored }, "\(name): a level larger than stored")
            #expect(try #require(sizes[.default]) < stored / 2, "\(name): the default level barely compresses")
        }
    }

    @Test("FFmpeg's PNG encoder (the benchmark's reference) decodes to the same pixels as the default libpng file")
    func referenceEncoder() throws {
        let directory = try temporaryDirectory("png-reference")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, image) in try Self.pictures() {
            let truth = try Self.truth(image, in: directory)
            let encoder = try PictureEncoder(.png(compressionLevel: nil), width: image.width, height: image.height)
            for round in 0..<2 {
                let path = directory.appendingPathComponent("ffmpeg-\(round).png")
                try Data(try encoder.encode(image)).write(to: path)
                #expect(try ffmpegRGB24MD5(["-i", path.path]) == truth, "\(name): FFmpeg's PNG, round \(round)")
            }
            let ours = directory.appendingPathComponent("ours.png")
            try Data(try PNGFile.encode(image)).write(to: ours)
            #expect(try ffmpegRGB24MD5(["-i", ours.path]) == truth, "\(name): libpng's default PNG")
            #expect(throws: PictureEncoderError.self) {
                _ = try encoder.encode(RGBImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 12)))
            }
        }
    }
}
