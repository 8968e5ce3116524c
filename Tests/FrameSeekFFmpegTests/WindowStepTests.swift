// Steps in seek windows (FrameIndexing.asNeeded) on the Matroska and MPEG-TS fixtures, against
// ffprobe's frames: a step of any count, up to Int.max, stops at the stream's edge as on the
// whole table, and lands on ffprobe's first or last frame.

import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Steps in seek windows", .ffmpegLog)
struct WindowStepTests {
    @Test(
        "From the middle, steps of 1, of the frames left and of Int.max reach ffprobe's neighbour, last and first frames",
        arguments: ["h264_vfr.s0", "hevc_opengop.s0", "h264_mpegts_offset.s0"])
    func stepsToTheEdges(_ id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let oracle = try Oracle(fixture)
        var options = FFmpegEngine.Options(streamIndex: fixture.stream)
        options.indexing = .asNeeded
        let middle = oracle.frames.count / 2
        for (direction, count, expected) in [
            (FrameStepDirection.forward, 1, middle + 1), (.backward, 1, middle - 1),
            (.forward, oracle.lastIndex - middle, oracle.lastIndex), (.forward, Int.max, oracle.lastIndex), (.backward, Int.max, 0)
        ] {
            // A fresh engine each time: every step starts from one window around the middle.
            let engine = try FFmpegEngine(path: fixture.path, options: options)
            let landing = try engine.seek(to: oracle.time(middle), precision: .exact)
            #expect(!landing.isIndexed && landing.frame.pts == oracle.frames[middle].pts, "\(id): the landing")
            let report = engine.step(direction, count: count)
            let context = "\(id): \(direction) \(count) from frame \(middle)"
            #expect(report.result.didStep, "\(context): \(report.result)")
            #expect(report.frame?.pts == oracle.frames[expected].pts, "\(context): pts \(report.frame?.pts ?? -1)")
            #expect(report.framesStepped == abs(expected - middle), "\(context): moved \(report.framesStepped)")
        }
    }
}
