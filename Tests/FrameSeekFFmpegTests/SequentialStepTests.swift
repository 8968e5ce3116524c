// A sequential pass of forward steps keeps only its last few landings in the frame cache
// (FrameCache.trailFrames): a cache filled with frames the pass never asks for again would
// cost more than the decoding, on small pictures. The steps back over the trail are free, the
// step past it refills from the keyframe, and every landing is ffprobe's frame with ffmpeg's
// pixels (verifyStep checks the PTS and the framemd5 MD5).

import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Sequential steps", .ffmpegLog)
struct SequentialStepTests {
    @Test("A forward pass over a GOP boundary caches only its last steps; steps back over them decode nothing, the next one refills")
    func forwardTrail() throws {
        let fixture = try #require(FixtureCatalog.fixture(FrameStepTests.longGOP))
        let oracle = try Oracle(fixture)
        let second = try #require(oracle.keyframes.dropFirst().first, "\(fixture.id): one GOP only")
        let end = min(second + 20, oracle.lastIndex)
        let trail = FrameCache.trailFrames
        try #require(end > trail + 1, "\(fixture.id): too short for the trail")
        let engine = try openEngine(fixture)
        try land(engine, on: 0, oracle: oracle, context: fixture.id)
        // The seek's landing is the one frame cached so far: its size is a frame's.
        let frameBytes = engine.cacheUsedBytes
        try #require(frameBytes > 0)

        let forward = walk(engine, .forward, onto: 1...end, oracle: oracle, context: "\(fixture.id) forward pass")
        try #require(forward.count == end)
        #expect(forward.allSatisfy { $0.framesDecoded == 1 }, "a forward step decodes its own frame and no other")
        // The trail and the seek's landing, never more, at any point of the pass.
        #expect(
            engine.cachePeakBytes <= (trail + 1) * frameBytes,
            "peak \(engine.cachePeakBytes) B over \(end) steps: more than \(trail + 1) frames of \(frameBytes) B")

        let free = walk(
            engine, .backward, onto: stride(from: end - 1, through: end - trail + 1, by: -1), oracle: oracle,
            context: "\(fixture.id) back over the trail")
        #expect(
            free.count == trail - 1 && free.allSatisfy { $0.framesDecoded == 0 },
            "steps back over the trail decoded \(free.map(\.framesDecoded))")
        let past = walk(engine, .backward, onto: [end - trail], oracle: oracle, context: "\(fixture.id) past the trail")
        #expect(past.first.map { $0.framesDecoded > 0 } == true, "the frame before the trail was still cached")
        // The refill cached the frames before it: the steps after it are free again.
        let refilled = walk(
            engine, .backward, onto: stride(from: end - trail - 1, through: end - trail - 4, by: -1),
            oracle: oracle, context: "\(fixture.id) after the refill")
        #expect(refilled.allSatisfy { $0.framesDecoded == 0 }, "after the refill: \(refilled.map(\.framesDecoded))")
    }

    @Test("Forward steps over frames a backward refill cached come from the cache, then decode on, landing right")
    func forwardOverRefill() throws {
        let fixture = try #require(FixtureCatalog.fixture(FrameStepTests.longGOP))
        let oracle = try Oracle(fixture)
        let start = min(60, oracle.lastIndex)
        let engine = try openEngine(fixture)
        try land(engine, on: start, oracle: oracle, context: fixture.id)
        walk(
            engine, .backward, onto: stride(from: start - 1, through: start - 10, by: -1), oracle: oracle,
            context: "\(fixture.id) backward")
        let forward = walk(
            engine, .forward, onto: (start - 9)...(start + 20), oracle: oracle,
            context: "\(fixture.id) forward again")
        #expect(forward.prefix(9).allSatisfy { $0.framesDecoded == 0 }, "\(forward.prefix(9).map(\.framesDecoded))")
    }
}
