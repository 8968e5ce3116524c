// Landed pictures: rotation from the display matrix, PNG output, 10-bit conversion.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// A real clip shot upright on a phone: coded landscape, display matrix -90.
struct RotatedClip: Sendable, CustomTestStringConvertible {
    let id: String
    let codedWidth: Int
    let codedHeight: Int
    var testDescription: String { id }

    static let all = [
        RotatedClip(id: "iphone_hevc_editlist.s0", codedWidth: 1920, codedHeight: 1080),
        RotatedClip(id: "android_h264_portrait_4k60.s0", codedWidth: 3840, codedHeight: 2160)
    ]
}

@Suite("Pictures", .ffmpegLog)
struct PictureTests {
    @Test(
        "Display matrix -90: portrait display image, landscape without autorotate, PNG sizes",
        arguments: RotatedClip.all)
    func rotation(_ clip: RotatedClip) throws {
        let fixture = try #require(FixtureCatalog.fixture(clip.id))
        let oracle = try Oracle(fixture)
        // probe.json says the coded size and the rotation.
        let probe = try JSON.file(fixture.probe)
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first { JSON.int($0["index"]) == fixture.stream })
        #expect(JSON.int(stream["width"]) == clip.codedWidth && JSON.int(stream["height"]) == clip.codedHeight)
        let rotations = (stream["side_data_list"] as? [[String: Any]] ?? []).compactMap { JSON.int($0["rotation"]) }
        #expect(rotations.contains(-90))

        let engine = try openEngine(fixture)
        let index = oracle.count / 2
        let landing = try engine.seek(to: oracle.middle(index), precision: .exact)
        #expect(landing.frame.index == index)
        let picture = try #require(try engine.landedPicture())
        #expect(picture.width == clip.codedWidth && picture.height == clip.codedHeight)
        #expect(picture.md5 == oracle.md5s?[index], "MD5 is of the coded (unrotated) picture, as framemd5's")

        let upright = try picture.displayImage(using: engine)
        #expect(upright.width == clip.codedHeight && upright.height == clip.codedWidth, "upright \(upright.width)x\(upright.height)")
        let coded = try picture.displayImage(autorotate: false, using: engine)
        #expect(coded.width == clip.codedWidth && coded.height == clip.codedHeight, "coded \(coded.width)x\(coded.height)")
        // Rotation -90 is a quarter turn clockwise (ffmpeg's transpose=clock): the displayed
        // pixel (x, y) is the coded pixel (y, codedHeight - 1 - x).
        let probes = [(0, 0), (upright.width - 1, 0), (0, upright.height - 1), (upright.width / 3, upright.height / 5)]
        for (x, y) in probes {
            let d = (y * upright.width + x) * 3
            let s = ((clip.codedHeight - 1 - x) * coded.width + y) * 3
            #expect(Array(upright.pixels[d..<(d + 3)]) == Array(coded.pixels[s..<(s + 3)]), "displayed pixel (\(x), \(y))")
        }
        #expect(upright.pixels.contains { $0 != 0 }, "the picture is not black")

        let directory = try temporaryDirectory("rotation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let uprightPNG = directory.appendingPathComponent("upright.png").path
        let codedPNG = directory.appendingPathComponent("coded.png").path
        try picture.writePNG(to: uprightPNG, using: engine)
        try picture.writePNG(to: codedPNG, autorotate: false, using: engine)
        let uprightSize = try pngDimensions(uprightPNG)
        let codedSize = try pngDimensions(codedPNG)
        #expect(uprightSize.width == clip.codedHeight && uprightSize.height == clip.codedWidth)
        #expect(codedSize.width == clip.codedWidth && codedSize.height == clip.codedHeight)
    }

    @Test("10-bit H.264: ffmpeg's MD5s, and an RGB image with the barcode in white and black")
    func tenBit() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_10bit.s0"))
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        let engine = try openEngine(fixture)
        for index in [63, 85, 42, 7, 30, 89] where oracle.frames.indices.contains(index) {
            let landing = try engine.seek(to: oracle.middle(index), precision: .exact)
            #expect(landing.frame.index == index)
            let picture = try #require(try engine.landedPicture())
            #expect(picture.bitsPerComponent == 10)
            #expect(picture.pixelFormat == "yuv420p10le")
            #expect(picture.md5 == md5s[index], "frame \(index)")
            #expect(readBarcode(picture) == index, "frame \(index): barcode in the 10-bit luma")

            let image = try picture.displayImage(using: engine)
            #expect(image.width == 320 && image.height == 240)
            #expect(image.pixels.contains { $0 != 0 }, "frame \(index): the RGB image is not all black")
            for bit in 0..<16 {
                let offset = (10 * image.width + 20 * bit + 10) * 3
                let rgb = image.pixels[offset..<(offset + 3)]
                if index >> bit & 1 == 1 {
                    #expect(rgb.allSatisfy { $0 >= 200 }, "frame \(index) bit \(bit): expected white, got \(Array(rgb))")
                } else {
                    #expect(rgb.allSatisfy { $0 <= 55 }, "frame \(index) bit \(bit): expected black, got \(Array(rgb))")
                }
            }
        }
    }

    @Test("8-bit barcode band converts to white and black RGB too", arguments: FixtureCatalog.barcoded.filter { $0.id != "h264_10bit.s0" })
    func barcodeInRGB(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let index = min(oracle.lastIndex, 85)
        _ = try engine.seek(to: oracle.middle(index), precision: .exact)
        let picture = try #require(try engine.landedPicture())
        let image = try picture.displayImage(using: engine)
        let number = index + fixture.barcodeOffset
        for bit in 0..<16 {
            let offset = (10 * image.width + 20 * bit + 10) * 3
            let gray = Int(image.pixels[offset]) + Int(image.pixels[offset + 1]) + Int(image.pixels[offset + 2])
            #expect((gray >= 3 * 128) == (number >> bit & 1 == 1), "\(fixture.id) frame \(index) bit \(bit)")
        }
    }
}
