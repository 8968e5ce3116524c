// Where thumbnails land: every actual time is checked against ffprobe's frame table (the
// oracle), by the design's landing rules computed in the test from that table alone.
//
// - the default tolerance (unbounded both ways): the keyframe nearest the requested time,
//   ties to the earlier, decoded alone (`fromKeyframeOnly`);
// - zero tolerance: the frame whose interval covers the requested time;
// - bounded windows: a keyframe inside [T - before, T + after] if there is one (the nearest),
//   else the frame covering T - before.

import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

@Suite("Thumbnails: actual times follow the landing rules", .ffmpegLog)
struct ThumbnailLandingTests {
    /// The oracle frame that starts exactly at `time`, if any.
    static func frame(at time: MediaTime, in oracle: Oracle) -> Int? {
        oracle.frames.indices.first { oracle.time($0) == time }
    }

    @Test("Default tolerance: every 0.5 s lands on the nearest keyframe, decoded alone", arguments: videoFixtures)
    func nearestKeyframe(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture)
        #expect(generator.toleranceBefore == .positiveInfinity && generator.toleranceAfter == .positiveInfinity)
        let times = timesAcross(oracle, step: seconds(1, 2))
        // Asked in a shuffled order: the answers come back in the order asked.
        var random = SeededGenerator("nearest-\(fixture.id)")
        let asked = times.shuffled(using: &random)
        let thumbnails = try generator.thumbnails(at: asked)
        try #require(thumbnails.count == asked.count)
        let size = generator.thumbnailSize
        for (t, thumbnail) in zip(asked, thumbnails) {
            let context = "\(fixture.id) at \(t)"
            let expected = oracle.expectedLanding(at: t, before: nil, after: nil)
            #expect(thumbnail.requestedTime == t, "\(context): answered for \(thumbnail.requestedTime)")
            #expect(oracle.frames[expected].isKey, "\(context): the oracle's landing \(expected) is no keyframe")
            #expect(
                thumbnail.actualTime == oracle.time(expected),
                "\(context): actual \(thumbnail.actualTime), expected keyframe \(expected) at \(oracle.time(expected))")
            #expect(thumbnail.frameIndex == expected, "\(context): frame \(thumbnail.frameIndex), expected \(expected)")
            #expect(thumbnail.fromKeyframeOnly, "\(context): not from the keyframe alone")
            #expect(
                thumbnail.image.width == size.width && thumbnail.image.height == size.height,
                "\(context): \(thumbnail.image.width)x\(thumbnail.image.height), expected \(size.width)x\(size.height)")
            #expect(thumbnail.image.pixels.count == size.width * size.height * 3)
        }
        // Asking one at a time gives the same answers as the batch.
        for (t, batch) in zip(asked, thumbnails).prefix(6) {
            let single = try generator.thumbnail(at: t)
            #expect(
                single.actualTime == batch.actualTime && single.image == batch.image, "\(fixture.id) at \(t): single differs from batch")
        }
    }

    @Test("Zero tolerance: the frame covering the requested time", arguments: videoFixtures)
    func exact(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture, precision: .exact)
        #expect(generator.toleranceBefore == .zero && generator.toleranceAfter == .zero)
        var random = SeededGenerator("exact-\(fixture.id)")
        let sample =
            isLarge(oracle)
            ? Array(Set([0, oracle.lastIndex] + oracle.keyframes + [oracle.count / 2])).sorted()
            : oracle.seekSample(minimum: 20, using: &random)
        // The middle of each sampled frame, its first tick and the last tick before it.
        var times: [MediaTime] = []
        for i in sample {
            times.append(oracle.middle(i))
            times.append(oracle.time(i))
            if i > 0 { times.append(oracle.tickBefore(i)) }
        }
        times.append(seconds(-2))
        times.append(oracle.end(oracle.lastIndex) + seconds(1))
        let thumbnails = try generator.thumbnails(at: times)
        try #require(thumbnails.count == times.count)
        for (t, thumbnail) in zip(times, thumbnails) {
            let context = "\(fixture.id) at \(t)"
            let expected = oracle.expectedLanding(at: t, before: .zero, after: .zero)
            if t >= .zero && t < oracle.end(oracle.lastIndex) {
                #expect(expected == oracle.covering(t), "\(context): the oracle's rules disagree with covering()")
            }
            #expect(
                thumbnail.actualTime == oracle.time(expected),
                "\(context): actual \(thumbnail.actualTime), expected frame \(expected) at \(oracle.time(expected))")
            #expect(thumbnail.frameIndex == expected, "\(context): frame \(thumbnail.frameIndex), expected \(expected)")
            // In a batch, times landing on one frame share its picture (and how it was made),
            // so the flag only promises that a keyframe-only picture shows a keyframe.
            if thumbnail.fromKeyframeOnly {
                #expect(oracle.frames[expected].isKey, "\(context): fromKeyframeOnly on frame \(expected), no keyframe")
            }
        }
        // One at a time: the keyframe alone serves exactly when the target is a keyframe's
        // own time (zero tolerance admits that keyframe and nothing else).
        for k in oracle.keyframes {
            let at = try generator.thumbnail(at: oracle.time(k))
            #expect(at.fromKeyframeOnly && at.actualTime == oracle.time(k), "\(fixture.id) at keyframe \(k)'s time")
            let inside = try generator.thumbnail(at: oracle.middle(k))
            #expect(!inside.fromKeyframeOnly && inside.actualTime == oracle.time(k), "\(fixture.id) inside keyframe \(k)")
            #expect(inside.image == at.image, "\(fixture.id): keyframe \(k) alone and decoded in sequence differ")
        }
    }

    /// Bounded and one-sided windows.
    static let windowCases: [(name: String, precision: SeekPrecision)] = [
        ("nearest-keyframe:0.5", .nearestKeyframe(tolerance: seconds(1, 2))),
        ("nearest-keyframe:1001/30000", .nearestKeyframe(tolerance: seconds(1001, 30000))),
        ("tolerance:1/4,1", .tolerance(before: seconds(1, 4), after: seconds(1))),
        ("tolerance:1,0", .tolerance(before: seconds(1), after: .zero)),
        ("tolerance:0,3/2", .tolerance(before: .zero, after: seconds(3, 2))),
        ("previous-keyframe", .previousKeyframe),
        ("next-keyframe", .nextKeyframe)
    ]

    /// Every window on every fixture, except that the phone clips (whose exact decodes cost
    /// a full single-threaded decode of the clip per window) take two windows: one that
    /// always finds a keyframe nearby and one that often decodes forward.
    static var windowRuns: [(Fixture, Int)] {
        videoFixtures.flatMap { fixture -> [(Fixture, Int)] in
            let large = fixture.id.hasPrefix("iphone") || fixture.id.hasPrefix("android")
            return (large ? [0, 3] : Array(windowCases.indices)).map { (fixture, $0) }
        }
    }

    @Test("Bounded windows: a keyframe inside the window, else the frame covering T - before", arguments: windowRuns)
    func windows(fixture: Fixture, window: Int) throws {
        let (name, precision) = Self.windowCases[window]
        let oracle = try Oracle(fixture)
        let generator = try makeGenerator(fixture, precision: precision)
        let (before, after) = precision.window
        #expect(generator.toleranceBefore == before && generator.toleranceAfter == after)
        var times = timesAcross(oracle, step: isLarge(oracle) ? seconds(1, 2) : seconds(1, 4))
        // Plus the exact middles of frames near each keyframe, where windows begin and end.
        for k in oracle.keyframes {
            let near = isLarge(oracle) ? [k - 1, k + 1] : [k - 16, k - 15, k - 1, k, k + 1, k + 15]
            for i in near.filter(oracle.frames.indices.contains) { times.append(oracle.middle(i)) }
        }
        times.sort()
        let thumbnails = try generator.thumbnails(at: times)
        try #require(thumbnails.count == times.count)
        let end = oracle.end(oracle.lastIndex)
        for (t, thumbnail) in zip(times, thumbnails) {
            let context = "\(fixture.id) \(name) at \(t)"
            let expected = oracle.expectedLanding(at: t, before: bounded(before), after: bounded(after))
            #expect(
                thumbnail.actualTime == oracle.time(expected),
                "\(context): actual \(thumbnail.actualTime), expected frame \(expected) at \(oracle.time(expected))")
            #expect(thumbnail.frameIndex == expected, "\(context): frame \(thumbnail.frameIndex), expected \(expected)")
            if thumbnail.fromKeyframeOnly {
                #expect(oracle.frames[expected].isKey, "\(context): fromKeyframeOnly on frame \(expected), no keyframe")
            }
            // The rule restated as the property a caller relies on, for targets inside the range
            // (which starts at the first frame: not 0 when a stream's first frames cannot be decoded).
            guard t >= oracle.time(0) && t < end, let landed = Self.frame(at: thumbnail.actualTime, in: oracle) else { continue }
            let low = before == .positiveInfinity ? nil : t - before
            let high = after == .positiveInfinity ? nil : t + after
            let inWindow = (low.map { thumbnail.actualTime >= $0 } ?? true) && (high.map { thumbnail.actualTime <= $0 } ?? true)
            let keyframeInWindow = oracle.keyframes.contains { k in
                (low.map { oracle.time(k) >= $0 } ?? true) && (high.map { oracle.time(k) <= $0 } ?? true)
            }
            if keyframeInWindow {
                #expect(inWindow && oracle.frames[landed].isKey, "\(context): a keyframe is in the window, landed on \(landed)")
            } else {
                let floor = low.map { max($0, oracle.time(0)) } ?? oracle.time(0)
                #expect(landed == oracle.covering(floor), "\(context): no keyframe in the window, landed on \(landed)")
                #expect(
                    oracle.intersects(landed, requested: t, before: bounded(before), after: bounded(after)),
                    "\(context): frame \(landed)'s interval misses the window")
            }
        }
    }
}
