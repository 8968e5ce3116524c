import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// `import FrameSeek` alone gives a player that decodes with FFmpeg.
struct UmbrellaTests {
    @Test("Player() opens a fixture with the FFmpeg engine and lands where ffprobe says")
    func defaultEngine() async throws {
        let fixture = try #require(FixtureCatalog.all.first { $0.id == "h264_bframes_gop250.s0" })
        let oracle = try Oracle(fixture)
        let player = Player(callbackQueue: DispatchQueue(label: "umbrella.events"))
        try await player.load(URL(fileURLWithPath: fixture.path))
        let outcome = await player.seek(to: oracle.middle(125), precision: .exact)
        #expect(outcome.finished)
        #expect(outcome.frameIndex == 125)
        #expect(outcome.landedMediaTime == oracle.time(125))
        #expect(outcome.withinRequestedTolerance)
    }
}
