// The README's "The Player API" example, call for call, run on a fixture instead of talk.mp4.
// If the API drifts from the README, this stops compiling. (Examples/PlayerExample is the same
// example as a program; `swift build --product frameseek-player-example` builds it.)

import Dispatch
import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// The README's `listener`.
private final class ReadmeListener: SeekPrecisionListener {
    let log = EventLog()
    func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) { log.record(.accuracy(outcome)) }
}

@Suite("README: the Player API example")
struct ReadmeExampleTests {
    @Test("The README example compiles against `import FrameSeek` alone and behaves as it says")
    func readmeExample() async throws {
        let fixture = try Fixtures.gop250
        let oracle = try Oracle(fixture)
        let listener = ReadmeListener()
        let result = try await withDeadline("the README example") { () -> [String] in
            var lines: [String] = []
            do {
                let player = Player()                                  // decodes with FFmpeg
                try await player.load(URL(fileURLWithPath: fixture.path))
                let outcome = await player.seek(to: 4.2, precision: .exact)
                lines.append("\(outcome.requestedTime) \(outcome.landedTime) \(outcome.delta) "
                             + "\(outcome.withinRequestedTolerance) \(outcome.finished) \(outcome.latency)")
                if outcome.clamp.didClamp { lines.append(outcome.clamp.explanation) }
                let keyframe = await withCheckedContinuation { continuation in
                    player.seek(to: 4.2, precision: .nearestKeyframe(tolerance: 0.5)) { outcome in
                        continuation.resume(returning: outcome)
                    }
                }
                lines.append("keyframe \(keyframe.frameIndex ?? -1)")

                player.addSeekPrecisionListener(listener)      // held weakly
                let scrub = player.scrubSession
                scrub.positionThrottle = ScrubSession.defaultPositionThrottle   // 0.1 s
                scrub.beginScrubbing(at: player.currentTime)
                let proposed = 8.0
                scrub.updateScrubbing(to: proposed)            // no seek, ever
                let scrubbed = await withCheckedContinuation { continuation in
                    scrub.endScrubbing(at: proposed, precision: .exact) { result in
                        continuation.resume(returning: result)
                    }
                }
                lines.append("scrub \(scrubbed.sampleCount) \(scrubbed.wasCancelled) \(scrubbed.outcome?.frameIndex ?? -1)")
                scrub.cancelScrubbing()

                switch await player.stepFrame(.forward, count: 1) {
                case .stepped(let direction, let landedMediaTime): lines.append("stepped \(direction) \(landedMediaTime.value)/\(landedMediaTime.timescale)")
                case .unavailable(let reason): lines.append(reason.explanation)
                }
            } catch {
                lines.append("error \(error)")
            }
            return lines
        }
        let exact = try #require(oracle.covering(4.2))
        let scrubbed = try #require(oracle.covering(8.0))
        try #require(result.count == 4, "\(result)")
        #expect(result[0].hasPrefix("4.2 \(oracle.time(exact).seconds) "), "\(result[0])")
        #expect(result[0].contains(" true true "))
        let nearest = oracle.expectedLanding(at: 4.2, before: 0.5, after: 0.5)
        #expect(nearest == oracle.covering(3.7), "no keyframe within 0.5 s of 4.2 s: the frame covering 3.7 s")
        #expect(result[1] == "keyframe \(nearest)")
        #expect(result[2] == "scrub 1 false \(scrubbed)")
        let next = oracle.time(scrubbed + 1)
        #expect(result[3] == "stepped forward \(next.value)/\(next.timescale)")
        // The listener, added before the scrub's seek, heard it on the main queue.
        try await listener.log.wait(for: "the listener's accuracy event") { $0.contains(where: \.isAccuracy) }
    }
}
