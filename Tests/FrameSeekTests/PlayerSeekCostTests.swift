// What a seek cost, through the player on the real engine: the counts of SeekLanding reach
// SeekOutcome, and a seek the cache serves says so and reads nothing.

import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: the cost of a seek", .ffmpegLog)
struct PlayerSeekCostTests {
    @Test("a cold exact seek reads, demuxes and decodes from its keyframe; the same frame again comes from the cache")
    func coldThenCached() async throws {
        let (h, oracle) = try await Harness.gop250()
        let player = h.player
        // Frame 300 is 50 frames after the keyframe at 250 (ffprobe's table).
        let target = 300
        let cold = await player.seek(to: oracle.middle(target), precision: .exact)
        #expect(cold.frameIndex == target)
        let key = try #require(oracle.keyframes.last { $0 <= target })
        #expect(!cold.servedFromCache)
        #expect((cold.reads?.bytes ?? 0) > 0, "a local file's bytes are counted: \(String(describing: cold.reads))")
        #expect(cold.reads?.requests == nil, "a local file makes no requests")
        // Every frame from the keyframe to the target was demuxed, then decoded or skipped.
        #expect(cold.framesDecoded + cold.framesSkipped >= target - key + 1, "\(cold.framesDecoded) + \(cold.framesSkipped)")
        #expect(cold.packetsRead >= cold.framesDecoded + cold.framesSkipped)
        #expect(cold.decodeTime > .zero && cold.decodeTime <= cold.latency)

        _ = await player.seek(to: oracle.middle(10), precision: .exact)
        let again = await player.seek(to: oracle.middle(target), precision: .exact)
        #expect(again.frameIndex == target)
        #expect(again.servedFromCache && again.framesDecoded == 0 && again.packetsRead == 0)
        #expect(again.reads?.bytes == 0)
    }
}
