// The playhead and the engine's current frame must agree: a step moves from the frame the
// playhead is on. A seek that the engine finished but the player reports as cancelled or
// superseded must therefore not leave the engine sitting on that seek's frame.
//
// The window is between the FFmpeg engine returning a landing and the player checking the
// seek's flag; the counting engine's after-seek hook, which runs in that window on the
// engine's queue, makes it deterministic.
//
// The player decides a landing on the engine queue under its lock, and a step first puts the
// engine back on the playhead's frame, so the step below starts from frame 100.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: the playhead and the engine agree", .ffmpegLog)
struct PlayerPlayheadTests {
    @Test("A seek cancelled after the engine landed leaves the playhead, and the next step starts from it")
    func cancelledAfterLanding() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        let player = h.player
        h.probe.setAfterSeek { [weak player] number in if number == 2 { player?.cancelPendingSeeks() } }
        defer { h.probe.setAfterSeek(nil) }

        let outcome = try await withDeadline("the seek") { await player.seek(to: oracle.middle(200), precision: .exact) }
        #expect(outcome.interruption == .cancelled)
        #expect(player.currentTime == oracle.time(100), "a cancelled seek leaves the playhead where it was")
        guard case .landed(200, _, _)? = h.probe.innerSeeks.last else {
            Issue.record("the engine did not land on 200: \(h.probe.innerSeeks)")
            return
        }

        let step = await player.stepFrame(.forward)
        #expect(
            step == .stepped(.forward, landedMediaTime: oracle.time(101)),
            "the step starts from the playhead (frame 100), not from the cancelled seek's frame 200")
    }

    @Test("A seek superseded after the engine landed, by a seek then cancelled, leaves the playhead")
    func supersededThenCancelled() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        let player = h.player
        let box = OutcomeBox<SeekOutcome>()
        h.probe.setAfterSeek { [weak player] number in
            guard number == 2, let player else { return }
            player.seek(to: oracle.middle(300), precision: .exact) { box.put(1, $0) }
            player.cancelPendingSeeks()
        }
        defer { h.probe.setAfterSeek(nil) }
        player.seek(to: oracle.middle(200), precision: .exact) { box.put(0, $0) }
        let outcomes = try await box.wait(forCount: 2)
        #expect(outcomes[0]?.interruption == .superseded)
        #expect(outcomes[1]?.interruption == .cancelled)
        #expect(player.currentTime == oracle.time(100))

        let step = await player.stepFrame(.forward)
        #expect(
            step == .stepped(.forward, landedMediaTime: oracle.time(101)),
            "the step starts from the playhead (frame 100), not from the superseded seek's frame 200")
    }
}
