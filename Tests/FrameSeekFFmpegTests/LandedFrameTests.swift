// A landing reports the frame the decoder produced, not the frame the plan named.
//
// On packet-scanned (video) streams the two cannot differ: decoding stops on the packet whose
// PTS is the planned frame's. On decode-scanned (audio) streams the decoder's frame covering
// the target is the landing, and after a seek back to the start Opus in Matroska and MP3 keep
// the priming samples the scan saw trimmed: that frame comes out with a PTS ffprobe's table
// does not have. No fixture makes the decoder cover the target with another frame than the
// planned one, so these tests check the report against what the decoder output, for every
// target, with ffprobe's frame table as the independent truth of which frame that is.

import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Landed frame is the decoded frame", .ffmpegLog)
struct LandedFrameTests {
    @Test("Decode-scanned streams report the frame whose PTS the decoder output", arguments: FixtureCatalog.audio)
    func decodeScanned(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        var generator = SeededGenerator("landed-frame-" + fixture.id)
        var order = oracle.seekSample(minimum: 40, using: &generator).shuffled(using: &generator)
        // Back to the start from later frames: where decoders keep their priming after a seek.
        for later in [oracle.count / 2, oracle.lastIndex, 1] { order += [later, 0] }
        var keptPriming = 0
        let longestFrame = oracle.frames.indices.map(oracle.span).max() ?? 0
        for (step, index) in order.enumerated() {
            for target in [oracle.middle(index), oracle.time(index)] {
                let context = "\(fixture.id) seek #\(step) to \(target) (frame \(index))"
                let landing = try engine.seek(to: target, precision: .exact)
                let decoded = try #require(engine.landedFramePTS, "\(context): no decoded frame")
                if let same = oracle.frames.firstIndex(where: { $0.pts == decoded }) {
                    #expect(
                        landing.frame.index == same,
                        "\(context): reported frame \(landing.frame.index), decoded ffprobe frame \(same) (pts \(decoded))")
                    #expect(landing.frame.pts == decoded, "\(context): reported pts \(landing.frame.pts), decoded pts \(decoded)")
                } else {
                    // Priming kept: the decoder's frame starts less than one frame before the
                    // ffprobe frame it holds, the first one starting after it.
                    keptPriming += 1
                    let holds = try #require(
                        oracle.frames.firstIndex { $0.pts > decoded }, "\(context): decoded pts \(decoded) after every frame")
                    #expect(
                        oracle.frames[holds].pts - decoded < longestFrame,
                        "\(context): decoded pts \(decoded) is more than a frame before ffprobe frame \(holds)")
                    #expect(
                        landing.frame.index == holds,
                        "\(context): reported frame \(landing.frame.index), decoded frame holds ffprobe frame \(holds)")
                }
                #expect(landing.frame.index == index, "\(context): the decoder covered the target with frame \(landing.frame.index)")
            }
        }
        if fixture.name == "opus_sine" {
            #expect(
                keptPriming > 0,
                "\(fixture.id): no seek back to the start kept the Opus priming; the case this test is for was not exercised")
        }
    }

    @Test("Packet-scanned streams report the frame whose picture the decoder output", arguments: FixtureCatalog.video)
    func packetScanned(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        var generator = SeededGenerator("landed-picture-" + fixture.id)
        let indices = (0..<6).map { _ in Int.random(in: 0..<oracle.count, using: &generator) }
        let precisions: [SeekPrecision] = [.previousKeyframe, .nextKeyframe, .nearestKeyframe(tolerance: MediaTime(value: 1, timescale: 2))]
        for (step, index) in indices.enumerated() {
            let target = oracle.middle(index)
            let precision = precisions[step % precisions.count]
            let context = "\(fixture.id) \(precision) seek to \(target)"
            let landing = try engine.seek(to: target, precision: precision)
            let picture = try #require(try engine.landedPicture(), "\(context): no picture")
            let shown = try #require(
                oracle.frames.firstIndex { $0.pts == picture.pts }, "\(context): decoded pts \(picture.pts) not in ffprobe's table")
            #expect(
                landing.frame.index == shown && landing.frame.pts == picture.pts,
                "\(context): reported frame \(landing.frame.index), the decoder output ffprobe frame \(shown)")
            if let md5s = oracle.md5s, md5s.indices.contains(shown) {
                #expect(picture.md5 == md5s[shown], "\(context): MD5 differs from framemd5 line \(shown)")
            }
        }
    }
}
