// What thumbnails show, checked against truths outside the generator:
//
// - the decoded frame behind every thumbnail hashes to ffmpeg's framemd5 line for the
//   oracle's frame (so the keyframe-only fast path decodes the same picture as a full decode);
// - a zero-tolerance thumbnail is byte for byte the frame an exact seek of a separate engine
//   lands on, scaled to the same size and turned upright;
// - a keyframe-only thumbnail is byte for byte that keyframe reached by decoding forward;
// - on the synthetic fixtures, the barcode read from the RGB thumbnail is the oracle's frame
//   number (plus the fixture's offset) at the reported actual time;
// - rotated phone clips come out turned as FFmpeg's `transpose=clock` turns them.

import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Thumbnails: pixels", .ffmpegLog)
struct ThumbnailPixelTests {
    /// The oracle frame that starts exactly at `time`.
    static func frame(at time: MediaTime, in oracle: Oracle) throws -> Int {
        try #require(oracle.frames.indices.first { oracle.time($0) == time }, "no oracle frame starts at \(time)")
    }

    /// `engine`'s landed frame as the generator would scale it: the coded-orientation size of
    /// `size`, then turned upright.
    static func reference(_ engine: FFmpegEngine, size: (width: Int, height: Int)) throws -> RGBImage {
        let orientation = engine.media.selectedStream.orientation
        let coded = orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
        return try #require(try engine.landedImage(width: coded.0, height: coded.1)).oriented(orientation)
    }

    /// A few frames per fixture: keyframes, their neighbours, the last, and seeded others.
    static func sample(_ oracle: Oracle, _ label: String) -> [Int] {
        var random = SeededGenerator(label)
        if isLarge(oracle) {
            // Each phone-clip frame far into its GOP costs a long decode: the first frame (before
            // the first keyframe on the edit-listed iPhone clip), keyframes and their neighbours.
            return Set([0] + oracle.keyframes.flatMap { [$0, $0 + 2] }).filter(oracle.frames.indices.contains).sorted()
        }
        var chosen: Set<Int> = [0, oracle.lastIndex, oracle.count / 2]
        for k in oracle.keyframes { chosen.formUnion([k - 1, k, k + 2].filter(oracle.frames.indices.contains)) }
        for _ in 0..<3 { chosen.insert(Int.random(in: 0..<oracle.count, using: &random)) }
        return chosen.sorted()
    }

    @Test("Zero tolerance gives the pixels of an exact seek to that time", arguments: videoFixtures)
    func exactMatchesSeek(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture, precision: .exact)
        let size = generator.thumbnailSize
        let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
        for i in Self.sample(oracle, "exact-pixels-\(fixture.id)") {
            let t = oracle.middle(i)
            let context = "\(fixture.id) frame \(i) (at \(t))"
            let thumbnail = try generator.thumbnail(at: t)
            #expect(thumbnail.actualTime == oracle.time(i), "\(context): actual \(thumbnail.actualTime)")
            if let md5s = oracle.md5s, md5s.indices.contains(i) {
                #expect(
                    try generator.engine.landedPicture()?.md5 == md5s[i], "\(context): the generator decoded other pixels than framemd5's")
            }
            let landing = try engine.seek(to: t, precision: .exact, interruption: nil)
            #expect(landing.frame.index == i, "\(context): the reference seek landed on \(landing.frame.index)")
            if let md5s = oracle.md5s, md5s.indices.contains(i) {
                #expect(try engine.landedPicture()?.md5 == md5s[i], "\(context): the reference seek decoded other pixels than framemd5's")
            }
            let expected = try Self.reference(engine, size: size)
            #expect(thumbnail.image.width == expected.width && thumbnail.image.height == expected.height)
            #expect(
                thumbnail.image == expected,
                "\(context): thumbnail differs from the exact seek's frame, by up to \(thumbnail.image.maximumDifference(from: expected))")
        }
    }

    @Test(
        "The keyframe-only fast path decodes the same picture as decoding forward into the keyframe",
        arguments: videoFixtures)
    func keyframeOnlyMatchesFullDecode(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture)
        let size = generator.thumbnailSize
        let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
        for k in oracle.keyframes {
            let context = "\(fixture.id) keyframe \(k)"
            // Asked for a time in the keyframe's own interval (a frame after it, when there is
            // one), so only that keyframe is nearest.
            let t = oracle.middle(k)
            let thumbnail = try generator.thumbnail(at: t)
            #expect(thumbnail.actualTime == oracle.time(k), "\(context): actual \(thumbnail.actualTime)")
            #expect(thumbnail.fromKeyframeOnly, "\(context): not from the keyframe alone")
            if let md5s = oracle.md5s, md5s.indices.contains(k) {
                #expect(
                    try generator.engine.landedPicture()?.md5 == md5s[k],
                    "\(context): the keyframe alone decodes other pixels than framemd5's")
            }
            // The reference reaches the keyframe by decoding forward from the frame before it.
            if k > 0 { _ = try engine.seek(to: oracle.middle(k - 1), precision: .exact, interruption: nil) }
            let landing = try engine.seek(to: t, precision: .exact, interruption: nil)
            try #require(landing.frame.index == k, "\(context): the reference landed on \(landing.frame.index)")
            let expected = try Self.reference(engine, size: size)
            #expect(
                thumbnail.image == expected,
                "\(context): keyframe-only thumbnail differs from the full decode, by up to \(thumbnail.image.maximumDifference(from: expected))"
            )
            // And the zero-tolerance thumbnail at the keyframe's own time is the same picture.
            let exact = try makeGenerator(fixture, precision: .exact)
            #expect(try exact.thumbnail(at: oracle.time(k)).image == thumbnail.image, "\(context): exact at the keyframe's time differs")
        }
    }

    /// The display size of the barcoded fixtures, coded 320x240: square pixels give 320x240;
    /// SAR 64:45 gives 455x240 (320 * 64 / 45 = 455.1).
    static func displaySize(_ fixture: Fixture) -> (width: Int, height: Int) {
        fixture.id.contains("sar64x45") ? (455, 240) : (320, 240)
    }

    @Test("The barcode in the thumbnail is the oracle's frame at the actual time", arguments: FixtureCatalog.barcoded)
    func barcodes(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let display = Self.displaySize(fixture)
        for precision in [
            SeekPrecision.tolerance(before: .positiveInfinity, after: .positiveInfinity), .exact,
            .nearestKeyframe(tolerance: seconds(1, 2))
        ] {
            let generator = try makeGenerator(fixture, size: display, precision: precision)
            #expect(generator.thumbnailSize == display, "\(fixture.id): size \(generator.thumbnailSize)")
            var times = timesAcross(oracle, step: seconds(1, 4))
            times += Self.sample(oracle, "barcode-\(fixture.id)").map(oracle.middle)
            times.sort()
            let thumbnails = try generator.thumbnails(at: times)
            try #require(thumbnails.count == times.count)
            for (t, thumbnail) in zip(times, thumbnails) {
                let context = "\(fixture.id) \(precision) at \(t)"
                let frame = try Self.frame(at: thumbnail.actualTime, in: oracle)
                #expect(thumbnail.image.width == display.width && thumbnail.image.height == display.height)
                #expect(thumbnail.image.bandIsGrey(codedWidth: 320, codedHeight: 240), "\(context): the barcode band is not grey")
                let barcode = thumbnail.image.barcode(codedWidth: 320, codedHeight: 240)
                #expect(
                    barcode == frame + fixture.barcodeOffset,
                    "\(context): barcode \(barcode), but actual time \(thumbnail.actualTime) is frame \(frame) + offset \(fixture.barcodeOffset)"
                )
            }
        }
    }

    @Test(
        "Rotated phone clips are turned as FFmpeg's transpose=clock turns them",
        arguments: [
            "iphone_hevc_editlist.s0", "android_h264_portrait_4k60.s0"
        ])
    func rotation(id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture, size: (270, 480), precision: .exact)
        #expect(generator.engine.media.selectedStream.orientation == .rotate90Clockwise)
        let size = generator.thumbnailSize
        #expect(size == (270, 480), "\(id): \(size)")
        let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
        // Keyframes and the frames right after them: upright pixels, without a long decode.
        for i in Set(oracle.keyframes.flatMap { [$0, min($0 + 1, oracle.lastIndex)] }).sorted() {
            let thumbnail = try generator.thumbnail(at: oracle.middle(i))
            _ = try engine.seek(to: oracle.middle(i), precision: .exact, interruption: nil)
            let coded = try #require(try engine.landedImage(width: size.height, height: size.width))  // 480x270, as coded
            // transpose=clock: shown (x, y) is coded (y, codedHeight - 1 - x).
            var turned = [UInt8](repeating: 0, count: coded.pixels.count)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let source = ((coded.height - 1 - x) * coded.width + y) * 3
                    let destination = (y * size.width + x) * 3
                    turned[destination..<(destination + 3)] = coded.pixels[source..<(source + 3)]
                }
            }
            #expect(
                thumbnail.image == RGBImage(width: size.width, height: size.height, pixels: turned),
                "\(id) frame \(i): not turned clockwise")
        }
    }
}
