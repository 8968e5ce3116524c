// The example of the Player article (FrameSeek.docc/ThePlayer.md), call for call, run on a fixture instead of talk.mp4.
// If the API drifts from the article, this stops compiling. (Examples/PlayerExample is the same
// example as a program; `swift build --product frameseek-player-example` builds it.)

import Dispatch
import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// The article's `listener`.
private final class ReadmeListener: SeekPrecisionListener, Sendable {
    let log = EventLog()
    func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) { log.record(.accuracy(outcome)) }
}

/// The article's `coordinator`: a delegate with the SDK's `TimeInterval` requirement.
private final class ReadmeCoordinator: SeekDelegate, Sendable {
    let seekEnds = Locked<[TimeInterval]>([])
    func onSeekEnd(at time: TimeInterval) { seekEnds.withLock { $0.append(time) } }
}

/// What a completion handler hands back, for the test to wait on.
private final class Completions<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])
    func put(_ value: Value) { values.withLock { $0.append(value) } }
    func wait(_ label: String) async throws -> Value {
        try await withDeadline(label) {
            while true {
                if let value = self.values.withLock({ $0.first }) { return value }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }
}

/// The article's synchronous step, in a synchronous function as an app's UI code makes it.
private func readmeStep(_ player: Player) -> FrameStepResult {
    player.stepFrame(.forward, count: 1)
}

/// The article's completion-less seek, in a synchronous function.
private func readmeSeek(_ player: Player, to seconds: Double) {
    player.seek(to: seconds, precision: .nearestKeyframe(tolerance: 0.5))  // no completion needed
}

@Suite("Docs: the Player article's example", .ffmpegLog)
struct ReadmeExampleTests {
    @Test("The article's example compiles against `import FrameSeek` alone and behaves as it says")
    func readmeExample() async throws {
        let fixture = try Fixtures.gop250
        let oracle = try Oracle(fixture)
        let listener = ReadmeListener()
        let coordinator = ReadmeCoordinator()
        let result = try await withDeadline("the Player article's example") { () -> [String] in
            var lines: [String] = []
            do {
                let player = Player()  // decodes with FFmpeg
                player.setupSeekManager(delegate: coordinator)
                try await player.load(URL(fileURLWithPath: fixture.path))
                let exact = Completions<SeekOutcome>()
                player.seek(to: 4.2, precision: .exact) { outcome in exact.put(outcome) }
                let first = try await exact.wait("the completion-handler seek")
                lines.append(
                    "\(first.requestedTime) \(first.landedTime) \(first.accuracy.delta) "
                        + "\(first.accuracy.withinRequestedTolerance) \(first.finished) \(first.latency)")
                if first.clamp.didClamp { lines.append(first.clamp.explanation) }
                let outcome = await player.seek(to: 4.2, precision: .nearestKeyframe(tolerance: 0.5))
                lines.append("keyframe \(outcome.frameIndex ?? -1) \(outcome.accuracy.deltaMediaTime == outcome.landedMediaTime - 4.2)")

                player.addSeekPrecisionListener(listener)  // held weakly
                guard let scrub = player.scrubSession else { return ["no scrub session"] }
                scrub.positionThrottle = ScrubSessionCoordinator.defaultPositionThrottle  // 0.1 s
                scrub.beginScrubbing(at: player.getCurrentTime())
                let proposedTime = 8.0
                scrub.updateScrubbing(to: proposedTime)  // no seek, ever
                let scrubbed = Completions<ScrubSessionResult>()
                scrub.endScrubbing(at: proposedTime, precision: .exact) { result in scrubbed.put(result) }
                let ended = try await scrubbed.wait("the scrub's seek")
                lines.append("scrub \(ended.sampleCount) \(ended.wasCancelled) \(ended.outcome?.frameIndex ?? -1)")
                scrub.cancelScrubbing()

                switch readmeStep(player) {
                case .stepped(let direction, let landedMediaTime):
                    lines.append("stepped \(direction) \(landedMediaTime.value)/\(landedMediaTime.timescale)")
                case .unavailable(let reason): lines.append(reason.explanation)
                }
                _ = await player.stepFrame(.backward)  // waits for the decode, back on the scrub's frame
                readmeSeek(player, to: 4.2)
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
        #expect(result[1] == "keyframe \(nearest) true")
        #expect(result[2] == "scrub 1 false \(scrubbed)")
        // The step returned at once with the next frame of ffprobe's table.
        let next = oracle.time(scrubbed + 1)
        #expect(result[3] == "stepped forward \(next.value)/\(next.timescale)")
        // The listener, added before the scrub's seek, heard it on the main queue; the delegate
        // heard every seek end in seconds, through the SDK's requirement: the exact seek, the
        // keyframe seek, the scrub's seek and the completion-less one, in that order.
        try await listener.log.wait(for: "the listener's accuracy event") { $0.contains(where: \.isAccuracy) }
        try await withDeadline("the delegate's seek ends") {
            while coordinator.seekEnds.withLock({ $0.count }) < 4 { try? await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(
            coordinator.seekEnds.withLock { $0 }
                == [oracle.time(exact), oracle.time(nearest), oracle.time(scrubbed), oracle.time(nearest)].map(\.seconds))
    }
}
