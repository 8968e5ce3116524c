// The packet limit of a seek window holds for the run that later tries are joined into, not
// only for each try's own read: h264_mpegts_offset.ts has a keyframe every 50 frames, and a
// window for the frame just before its second keyframe takes three tries (the target, a second
// before it, then the stream's start), each reading fewer packets than the window holds.

@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("The seek window's packet limit", .ffmpegLog)
struct SeekWindowPacketLimitTests {
    @Test("A window joined from tries of fewer packets each is refused when the joined run is over the limit")
    func limitHoldsForTheJoinedRun() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0"))
        let oracle = try Oracle(fixture)
        // Frame 48 in presentation order, two before the second keyframe.
        try #require(oracle.keyframes.count >= 2 && oracle.keyframes[1] == 50)
        let target = oracle.frames[48].pts

        func window(packetLimit: Int?) throws -> Result<SeekWindowReader.Window, SeekWindowReader.Unavailable> {
            let demuxer = try Demuxer(path: fixture.path, log: FFmpegLogSink())
            let origin = try #require(demuxer.stream(fixture.stream).startTime)
            var reader = SeekWindowReader(
                builder: FrameTableBuilder(demuxer: demuxer, streamIndex: fixture.stream, originPTS: origin), streamStart: origin,
                packetsCarryDecodeTime: true, isAudio: false)
            if let packetLimit { reader.packetLimit = packetLimit }
            return try reader.read(keyframeAtOrBefore: target, through: target)
        }

        let whole = try window(packetLimit: nil).get()
        let frames = whole.result.table.frames.count
        #expect(whole.demuxerSeeks == 3 && whole.startsStream)
        // Every frame up to the target, from the stream's first, is in it.
        #expect(whole.result.table.frames.filter { $0.pts <= target }.map(\.pts) == oracle.frames.prefix(49).map(\.pts))
        // One packet fewer than the joined run, and more than any one try reads (the first
        // keyframe is the run's first packet, so the window holds every packet read).
        let limited = try window(packetLimit: frames - 1)
        guard case .failure(let refusal) = limited else {
            Issue.record("a window of \(frames) packets under a limit of \(frames - 1): \(limited)")
            return
        }
        #expect(refusal.reason == "more than \(frames - 1) packets before the target")
    }
}
