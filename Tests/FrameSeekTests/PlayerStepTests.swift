// Frame steps through the player, on the real engine: by the frame index in presentation
// order, checked against ffprobe's table; typed reasons when a step cannot happen.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: frame steps", .ffmpegLog)
struct PlayerStepTests {
    @Test("stepFrame after a seek lands on the neighbouring oracle frames, forward and backward")
    func stepsAfterSeek() async throws {
        let (h, oracle) = try await Harness.gop250()
        let player = h.player
        for i in [100, 249, 250, 251, 1] {
            let seek = await player.seek(to: oracle.middle(i), precision: .exact)
            #expect(seek.frameIndex == i)
            #expect(await player.stepFrame(.forward) == .stepped(.forward, landedMediaTime: oracle.time(i + 1)), "from \(i)")
            #expect(player.currentTime == oracle.time(i + 1))
            #expect(await player.stepFrame(.backward) == .stepped(.backward, landedMediaTime: oracle.time(i)), "back to \(i)")
            #expect(await player.stepFrame(.backward) == .stepped(.backward, landedMediaTime: oracle.time(i - 1)), "from \(i)")
            #expect(player.currentTime == oracle.time(i - 1))
        }
        // Several frames at once, and across the keyframe at 250.
        _ = await player.seek(to: oracle.middle(247), precision: .exact)
        #expect(await player.stepFrame(.forward, count: 5) == .stepped(.forward, landedMediaTime: oracle.time(252)))
        #expect(await player.stepFrame(.backward, count: 4) == .stepped(.backward, landedMediaTime: oracle.time(248)))
        #expect(player.currentTime == oracle.time(248))
    }

    @Test("Steps at the edges: typed reasons, and a long step goes as far as it can")
    func edges() async throws {
        let (h, oracle) = try await Harness.gop250()
        let player = h.player
        let last = oracle.lastIndex
        _ = await player.seek(to: seconds(-1), precision: .exact)
        #expect(await player.stepFrame(.backward) == .unavailable(.startOfStream))
        #expect(player.currentTime == oracle.time(0))
        _ = await player.seek(to: seconds(1_000), precision: .exact)
        #expect(await player.stepFrame(.forward) == .unavailable(.endOfStream))
        #expect(player.currentTime == oracle.time(last))

        _ = await player.seek(to: oracle.middle(last - 2), precision: .exact)
        let report = await player.stepFrameReport(.forward, count: 5)
        #expect(report.result == .stepped(.forward, landedMediaTime: oracle.time(last)))
        #expect(report.framesStepped == 2)
        #expect(report.requestedCount == 5)
        #expect(player.currentTime == oracle.time(last))
    }

    @Test("onFrameStep is delivered for each step, on the callback queue")
    func stepEvents() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 10)
        var results: [FrameStepResult] = []
        results.append(await h.player.stepFrame(.forward))
        results.append(await h.player.stepFrame(.backward, count: 2))
        _ = await h.player.seek(to: seconds(-1), precision: .exact)
        results.append(await h.player.stepFrame(.backward))
        await h.drainEvents()
        let heard = h.log.events.compactMap { if case .frameStep(let r) = $0 { r } else { nil } }
        #expect(heard == results)
        #expect(
            results == [
                .stepped(.forward, landedMediaTime: oracle.time(11)),
                .stepped(.backward, landedMediaTime: oracle.time(9)), .unavailable(.startOfStream)
            ])
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("A step while a seek is landing is unavailable with .seekInProgress")
    func stepDuringSeek() async throws {
        let (h, oracle) = try await Harness.gop250()
        let box = OutcomeBox<SeekOutcome>()
        h.suspendEngine()
        defer { h.resumeEngine() }
        h.player.seek(to: oracle.middle(120), precision: .exact) { box.put(0, $0) }
        let blocked = try await withDeadline("a step during a seek") { [player = h.player] in await player.stepFrame(.forward) }
        #expect(blocked == .unavailable(.seekInProgress))
        #expect(blocked.unavailableReason?.explanation.isEmpty == false)
        #expect(h.probe.stepCount == 0, "a blocked step never reaches the engine")
        h.resumeEngine()
        let outcome = try #require(try await box.wait(forCount: 1)[0])
        #expect(outcome.frameIndex == 120)
        #expect(await h.player.stepFrame(.forward) == .stepped(.forward, landedMediaTime: oracle.time(121)))
    }

    @Test("Audio-only media: seeks land on the covering audio frame, steps are .audioOnly")
    func audioOnly() async throws {
        let h = Harness()
        let oracle = try await h.load(Fixtures.audio)
        let target = oracle.middle(oracle.count / 2)
        let outcome = await h.player.seek(to: target, precision: .exact)
        #expect(outcome.finished)
        #expect(outcome.frameIndex == oracle.count / 2)
        #expect(outcome.landedMediaTime == oracle.time(oracle.count / 2))
        #expect(await h.player.stepFrame(.forward) == .unavailable(.audioOnly))
        #expect(await h.player.stepFrame(.backward, count: 3) == .unavailable(.audioOnly))
        #expect(h.player.currentTime == oracle.time(oracle.count / 2))
    }
}
