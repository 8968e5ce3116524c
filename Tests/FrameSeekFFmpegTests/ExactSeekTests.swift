// Exact seeks land on the frame ffprobe says covers the target, with ffmpeg's pixels.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// Checks one `.exact` landing on frame `expected` against the oracles: frame index and PTS,
/// exact landed time and delta, tolerance, clamp, and for video the framemd5 MD5, the
/// picture size and (synthetic fixtures) the barcode.
func verifyExactLanding(
    _ landing: SeekLanding, engine: FFmpegEngine, oracle: Oracle, target: MediaTime,
    expected: Int, context: String
) {
    let fixture = oracle.fixture
    #expect(landing.frame.index == expected, "\(context): landed on frame \(landing.frame.index), expected \(expected)")
    #expect(landing.frame.pts == oracle.frames[expected].pts, "\(context): landed pts \(landing.frame.pts)")
    #expect(landing.accuracy.requestedMediaTime == target, "\(context)")
    #expect(landing.accuracy.landedMediaTime == oracle.time(expected), "\(context): landed time \(landing.accuracy.landedMediaTime)")
    #expect(landing.accuracy.deltaMediaTime == oracle.time(expected) - target, "\(context): delta \(landing.accuracy.deltaMediaTime)")
    #expect(
        landing.accuracy.withinRequestedTolerance,
        "\(context): withinRequestedTolerance is false, but frame \(expected) covers [\(oracle.time(expected)), \(oracle.end(expected))) which contains \(target)"
    )
    #expect(landing.plan.clamp == SeekClamp.none, "\(context): clamp \(landing.plan.clamp.name)")
    guard fixture.isVideo else {
        #expect(landedPicture(engine, context) == nil, "\(context): an audio landing has no picture")
        return
    }
    verifyLandedPicture(engine: engine, oracle: oracle, expected: expected, context: context)
}

@Suite("Exact seeks", .ffmpegLog)
struct ExactSeekTests {
    @Test("Seeded-random order through one engine (backward and forward seeks)", arguments: FixtureCatalog.video)
    func randomOrderOneEngine(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        var generator = SeededGenerator("exact-random-" + fixture.id)
        let order = oracle.seekSample(using: &generator).shuffled(using: &generator)
        #expect(order.count >= min(24, oracle.count))
        let engine = try openEngine(fixture)
        var sawBackward = false
        for (step, index) in order.enumerated() {
            if step > 0, index < order[step - 1] { sawBackward = true }
            let target = oracle.middle(index)
            let landing = try engine.seek(to: target, precision: .exact)
            verifyExactLanding(
                landing, engine: engine, oracle: oracle, target: target, expected: index,
                context: "\(fixture.id) seek #\(step) to middle of frame \(index) (\(target))")
        }
        #expect(sawBackward || order.count < 3)
    }

    @Test("Ascending order through a fresh engine (decode-forward path)", arguments: FixtureCatalog.video)
    func ascendingOrderFreshEngine(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        var generator = SeededGenerator("exact-forward-" + fixture.id)
        let order = oracle.seekSample(using: &generator)
        let engine = try openEngine(fixture)
        for index in order {
            let target = oracle.middle(index)
            let landing = try engine.seek(to: target, precision: .exact)
            verifyExactLanding(
                landing, engine: engine, oracle: oracle, target: target, expected: index,
                context: "\(fixture.id) forward seek to middle of frame \(index) (\(target))")
        }
    }

    @Test("Every frame of the barcoded fixtures, in order, shows its own number", arguments: FixtureCatalog.barcoded)
    func everyFrameInOrder(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        for index in oracle.frames.indices {
            let target = oracle.time(index)
            let landing = try engine.seek(to: target, precision: .exact)
            verifyExactLanding(
                landing, engine: engine, oracle: oracle, target: target, expected: index,
                context: "\(fixture.id) seek to the pts of frame \(index)")
        }
    }

    @Test("On a frame's PTS lands on it; one tick earlier lands on the frame before", arguments: FixtureCatalog.all)
    func boundaries(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        var chosen = Set(oracle.keyframes.prefix(6))
        chosen.formUnion([1, 2, oracle.count / 3, oracle.count / 2, oracle.lastIndex].filter { oracle.frames.indices.contains($0) })
        if fixture.isVideo {
            // Frames with a longer gap than their packet duration (VFR, ms rounding) too.
            let long = oracle.frames.indices.dropLast().filter {
                (oracle.frames[$0].packetDuration ?? 0) < oracle.frames[$0 + 1].pts - oracle.frames[$0].pts
            }
            chosen.formUnion(long.prefix(3).map { $0 + 1 })
        }
        let engine = try openEngine(fixture)
        for index in chosen.sorted() {
            let onPTS = oracle.time(index)
            let landing = try engine.seek(to: onPTS, precision: .exact)
            verifyExactLanding(
                landing, engine: engine, oracle: oracle, target: onPTS, expected: index,
                context: "\(fixture.id) target on the pts of frame \(index)")
            #expect(landing.accuracy.deltaMediaTime == .zero)

            let earlier = oracle.tickBefore(index)
            let before = try engine.seek(to: earlier, precision: .exact)
            if index == 0 {
                #expect(before.frame.index == 0, "\(fixture.id): one tick before frame 0")
                #expect(before.plan.clamp == .clampedToStart(oracle.time(0)))
            } else {
                verifyExactLanding(
                    before, engine: engine, oracle: oracle, target: earlier, expected: index - 1,
                    context: "\(fixture.id) target one tick before frame \(index) (\(earlier))")
            }
        }
    }
}

@Suite("Audio seeks", .ffmpegLog)
struct AudioSeekTests {
    @Test("Exact seeks land on the audio frame covering the target; no picture", arguments: FixtureCatalog.audio)
    func audioExact(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        var generator = SeededGenerator("audio-" + fixture.id)
        let order = oracle.seekSample(minimum: 40, using: &generator).shuffled(using: &generator)
        let engine = try openEngine(fixture)
        #expect(engine.media.selectedStream.mediaType == .audio)
        for index in order {
            let target = oracle.middle(index)
            let landing = try engine.seek(to: target, precision: .exact)
            verifyExactLanding(
                landing, engine: engine, oracle: oracle, target: target, expected: index,
                context: "\(fixture.id) audio seek to middle of frame \(index) (\(target))")
        }
    }
}
