// The Player article's example (FrameSeek.docc/ThePlayer.md), as a program: it must compile against `import FrameSeek` alone
// and behave as the comments say. `make demo` runs it on a fixture. It is written in the SDK's
// spelling (setupSeekManager, `guard let` on scrubSession, accuracy on every outcome, a step
// that returns at once); Examples/SDKConformance ports the SDK's documents whole.
import FrameSeek
import Foundation

final class PrintingListener: SeekPrecisionListener, SeekDelegate, Sendable {
    func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) {
        print("  listener: off by \(accuracy.absoluteDelta) s; ok: \(accuracy.withinRequestedTolerance)")
    }
    func onSeekClamped(_ clamp: SeekClamp) { print("  listener: clamped: \(clamp.explanation)") }
    func onScrubStateChanged(_ state: ScrubState) { print("  listener: scrub state \(state)") }
    func onFrameStep(_ result: FrameStepResult) { print("  listener: step, didStep \(result.didStep)") }
    // The SDK's delegate requirement, in seconds; onSeekEnd(atMediaTime:) has the exact time.
    func onSeekEnd(at time: TimeInterval) { print("  delegate: seek ended at \(time) s") }
}

/// A synchronous call site, as an app's UI code makes it: the step returns at once with the
/// frame it will land on, read from the frame table, and decodes it afterwards.
func stepFromUI(_ player: Player) {
    let result = player.stepFrame(.forward, count: 1)
    switch result {
    case .stepped(let direction, let landedMediaTime): print("stepped \(direction) to \(landedMediaTime), at once")
    case .unavailable(let reason): print(reason.explanation)
    }
}

@main
struct PlayerExample {
    static func main() async throws {
        let path = CommandLine.arguments.dropFirst().first ?? "Fixtures/media/h264_bframes_gop250.mp4"
        let events = DispatchQueue(label: "example.events")
        let player = Player(callbackQueue: events)
        let listener = PrintingListener()
        player.setupSeekManager(delegate: listener)     // the SDK's call; the player is its own seek manager
        try await player.load(URL(fileURLWithPath: path))
        let outcome = await player.seek(to: 4.2, precision: .exact)
        // Seconds for display, as the SDK spells them; the …MediaTime members are exact.
        print(outcome.requestedTime, outcome.landedTime, outcome.accuracy.delta,
              outcome.accuracy.withinRequestedTolerance, outcome.finished, outcome.latency)
        print("landed within 50 ms: \(abs(outcome.landedTime - 4.2) < 0.05), exactly at \(outcome.landedMediaTime)")
        if outcome.clamp.didClamp { print(outcome.clamp.explanation) }

        player.addSeekPrecisionListener(listener)      // held weakly
        let keyframe = await withCheckedContinuation { continuation in
            player.seek(to: 8.5, precision: .nearestKeyframe(tolerance: 0.5)) { outcome in continuation.resume(returning: outcome) }
        }
        print("nearest keyframe within 0.5 s of 8.5 s: \(keyframe.landedTime) s (frame \(keyframe.frameIndex ?? -1))")

        let clamped = await player.seek(to: -5, precision: .exact)
        if clamped.clamp.didClamp { print(clamped.clamp.explanation, "delta", clamped.accuracy.deltaMediaTime) }

        guard let scrub = player.scrubSession else { return }
        scrub.positionThrottle = ScrubSessionCoordinator.defaultPositionThrottle   // 0.1 s
        scrub.beginScrubbing(at: player.getCurrentTime())
        var proposed = player.currentTime
        for i in 0..<1_000 {                                              // no seek, ever
            proposed = MediaTime(value: Int64(i), timescale: 100)
            scrub.updateScrubbing(to: proposed)
        }
        let result = await withCheckedContinuation { continuation in
            scrub.endScrubbing(at: proposed, precision: .exact) { result in continuation.resume(returning: result) }
        }
        print("scrub: \(result.sampleCount) samples, cancelled \(result.wasCancelled), landed \(result.outcome?.landedTime as Any)")
        scrub.cancelScrubbing()                                           // nothing to undo now

        events.sync { stepFromUI(player) }
        switch await player.stepFrame(.backward, count: 3) {              // waits for the decode
        case .stepped(let direction, let landedMediaTime): print("stepped \(direction) to \(landedMediaTime)")
        case .unavailable(let reason): print(reason.explanation)
        }
        await player.close()
        let afterClose = await player.seek(to: 1.0)
        print("after close: finished \(afterClose.finished), interruption \(afterClose.interruption?.rawValue ?? "none"), clamp \(afterClose.clamp.name)")
        // Let the listener's queue drain before exiting.
        events.sync {}
    }
}
