// The decoder pool: seeks that go on from a decoder parked in a recently visited GOP land on
// the frame ffprobe names, with ffmpeg's pixels, and the pool keeps within its bound. What the
// pool saves is measured by `frameseek bench`, not here.

@testable import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Decoder pool", .ffmpegLog)
struct DecoderPoolTests {
    /// Seeds a seek order that revisits GOPs out of order: each GOP's frames in shuffled
    /// order, the GOPs interleaved, so targets fall after, before and between parked decoders.
    static func revisitingOrder(_ oracle: Oracle, _ fixture: Fixture) -> [Int] {
        var generator = SeededGenerator("pool-" + fixture.id)
        return oracle.seekSample(using: &generator).shuffled(using: &generator)
    }

    @Test(
        "Random seeks through a pool land on ffprobe's frame with ffmpeg's pixels, as with one decoder",
        arguments: FixtureCatalog.video)
    func pooledSeeksLandExactly(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let order = Self.revisitingOrder(oracle, fixture)
        let pooled = try openEngine(fixture)
        let single = try FFmpegEngine(
            path: fixture.path,
            options: .init(
                streamIndex: fixture.stream, threads: 1,
                decoderPoolBytes: 0))
        for (step, index) in order.enumerated() {
            let target = oracle.middle(index)
            let landing = try pooled.seek(to: target, precision: .exact)
            verifyExactLanding(
                landing, engine: pooled, oracle: oracle, target: target, expected: index,
                context: "\(fixture.id) pooled seek #\(step) to frame \(index)")
            let alone = try single.seek(to: target, precision: .exact)
            verifyExactLanding(
                alone, engine: single, oracle: oracle, target: target, expected: index,
                context: "\(fixture.id) one-decoder seek #\(step) to frame \(index)")
        }
        #expect(single.decoderPoolPeakDecoders == 1)
        #expect(pooled.decoderPoolPeakDecoders <= DecoderPool.maxSlots)
        #expect(pooled.decoderPoolPeakBytes <= pooled.decoderPoolBoundBytes)
        if oracle.keyframes.count > 2 {
            #expect(pooled.decoderPoolPeakDecoders > 1, "\(fixture.id): a seek order across GOPs parks more than one decoder")
        }
    }

    @Test("A bound of two decoders keeps two, and the pool's bytes stay within the bound")
    func boundLimitsDecoders() throws {
        let oracles = try FixtureCatalog.video.map { try Oracle($0) }
        let oracle = try #require(oracles.max { $0.keyframes.count < $1.keyframes.count })
        let fixture = oracle.fixture
        // Without a cache no frame is lent, so each decoder holds what a new one does, at the
        // size the first one's frames really take.
        let probe = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1, cacheBytes: 0))
        _ = try probe.seek(to: oracle.middle(0), precision: .exact)
        let twoDecoders = probe.pool.newSlotBytes(lending: 0) * 2
        let engine = try FFmpegEngine(
            path: fixture.path,
            options: .init(
                streamIndex: fixture.stream, threads: 1, cacheBytes: 0,
                decoderPoolBytes: twoDecoders))
        for index in Self.revisitingOrder(oracle, fixture) {
            let landing = try engine.seek(to: oracle.middle(index), precision: .exact)
            #expect(landing.frame.index == index)
        }
        #expect(engine.decoderPoolPeakDecoders == 2)
        #expect(engine.decoderPoolBoundBytes == twoDecoders)
        #expect(engine.decoderPoolPeakBytes <= twoDecoders)
    }

    /// After every landing on media where decoders come to hold more than their level says
    /// (PoolMemoryShape), the pool keeps to its bound, and the landed pictures are ffmpeg's.
    /// Whether what it counts is what the process holds is measured by DecoderPoolMemoryTests.
    @Test(
        "On long refilled GOPs, a large index and growing pictures, the pool keeps to its bound and lands ffmpeg's pictures",
        arguments: PoolMemoryShape.allCases)
    func keepsToItsBound(_ shape: PoolMemoryShape) throws {
        let directory = try TemporaryDirectory()
        let (path, parts) = try shape.make(in: directory)
        let bound = shape.workload.poolMB << 20
        let engine = try FFmpegEngine(path: path, options: .init(threads: 1, cacheBytes: 16 << 20, decoderPoolBytes: bound))
        let frames = engine.frameTable.frames
        // Every frame of the large index is the same gray picture: ffmpeg's first ones stand
        // for all, which it would take seconds to decode.
        let md5s: [String]
        if shape == .largeIndex {
            let first = try runTool([
                "ffmpeg", "-nostdin", "-v", "quiet", "-threads", "1", "-i", path, "-frames:v", "3", "-f", "framemd5", "-"
            ])
            .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
            .compactMap { $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) }
            try #require(first.count == 3 && Set(first).count == 1, "ffmpeg's first frames: \(first)")
            md5s = Array(repeating: first[0], count: frames.count)
        } else {
            md5s = try parts.flatMap(ffmpegVideoMD5sByPTS)
        }
        try #require(md5s.count == frames.count, "\(frames.count) frames, ffmpeg decodes \(md5s.count)")
        func check(_ index: Int?, _ expected: Int, _ context: String) throws {
            #expect(index == expected, "\(shape) \(context): landed on \(index ?? -1)")
            #expect(
                engine.pool.slots.count == 1 || engine.pool.heldBytes <= bound,
                "\(shape) \(context): \(engine.pool.slots.count) decoders hold \(engine.pool.heldBytes) bytes")
            #expect(try engine.landedPicture()?.md5 == md5s[expected], "\(shape) \(context)")
        }
        switch shape {
        case .longGOP:
            var index = frames.count - 1
            try check(try engine.seek(to: frames[index].time, precision: .exact).frame.index, index, "seek")
            while index > frames.count - 1 - shape.workload.count {
                index -= 1
                try check(engine.step(.backward).frame?.index, index, "step back to \(index)")
            }
        case .largeIndex, .growingPictures:
            var generator = SeededGenerator(seed: 7)
            for _ in 0..<shape.workload.count {
                let index = Int.random(in: 0..<frames.count, using: &generator)
                try check(try engine.seek(to: frames[index].time, precision: .exact).frame.index, index, "seek to \(index)")
            }
        }
        #expect(engine.decoderPoolPeakDecoders > 1, "\(shape): the pool parked more than one decoder")
    }

    /// Table A-1 of H.264 and A.4.2 of HEVC, worked by hand for the sizes FrameSeek meets.
    @Test(
        "The per-decoder bound follows the codec level's picture buffer limits",
        arguments: [
            (264, 31, 1280, 720, 5), (264, 51, 3840, 2160, 5), (264, 40, 1920, 1080, 4),
            (264, 12, 320, 180, 9), (264, 51, 320, 180, 16), (264, -99, 1280, 720, 16),
            (265, 120, 1920, 1080, 6), (265, 93, 960, 540, 8), (265, 150, 1280, 720, 16)
        ])
    func levelLimits(_ codec: Int, _ level: Int, _ width: Int, _ height: Int, _ frames: Int) {
        let computed =
            codec == 264
            ? Decoder.h264PictureBufferFrames(level: level, width: width, height: height)
            : Decoder.hevcPictureBufferFrames(level: level, width: width, height: height)
        #expect(computed == frames, "codec \(codec) level \(level) \(width)x\(height)")
    }
}
