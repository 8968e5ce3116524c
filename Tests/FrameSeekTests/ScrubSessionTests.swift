// Scrub sessions over the real engine: many updates, no seek; one seek at the end; throttled
// position events read from a hand-advanced clock; states idle -> scrubbing -> seeking -> idle.
// Seeks are counted by the decorator engine, so "no seek" means none reached FFmpeg.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: scrub sessions", .ffmpegLog)
struct ScrubSessionTests {
    /// Update `i`'s proposed time: hundredths of a second, inside the fixture.
    static func proposed(_ i: Int) -> MediaTime { MediaTime(value: Int64(i % 1_100), timescale: 100) }

    @Test("1,000 updates issue no seek; endScrubbing issues exactly one, with sampleCount 1,000")
    func oneSeekPerScrub() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 20)
        let scrub = h.player.scrub
        #expect(h.probe.seekCount == 1)

        scrub.beginScrubbing(at: h.player.currentTime)
        for i in 0..<1_000 { scrub.updateScrubbing(to: Self.proposed(i)) }
        await h.drainEngine()
        #expect(h.probe.seekCount == 1, "updateScrubbing issued a seek")
        #expect(scrub.sampleCount == 1_000)
        #expect(h.player.currentTime == oracle.time(20), "updates do not move the playhead")

        let target = Self.proposed(999)
        let result = try await withDeadline("endScrubbing") { await scrub.endScrubbing(at: target, precision: .exact) }
        #expect(result.sampleCount == 1_000)
        #expect(!result.wasCancelled)
        let outcome = try #require(result.outcome)
        let expected = try #require(oracle.covering(target))
        #expect(outcome.finished)
        #expect(outcome.requestedMediaTime == target)
        #expect(outcome.frameIndex == expected)
        #expect(outcome.landedMediaTime == oracle.time(expected))
        #expect(h.player.currentTime == oracle.time(expected))
        #expect(h.probe.seekCount == 2, "endScrubbing issues exactly one seek")
        #expect(scrub.scrubState == .idle)
    }

    @Test("cancelScrubbing issues no seek and leaves the playhead where it was")
    func cancelIssuesNothing() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 20)
        let scrub = h.player.scrub
        scrub.beginScrubbing(at: h.player.currentTime)
        for i in 0..<1_000 { scrub.updateScrubbing(to: Self.proposed(i * 3)) }
        scrub.cancelScrubbing()
        await h.drainEngine()
        #expect(h.probe.seekCount == 1)
        #expect(h.player.currentTime == oracle.time(20))
        #expect(scrub.scrubState == .idle)
        #expect(!scrub.isActive)
        // Outside a session, ending issues nothing and completes with no outcome.
        let late = try await withDeadline("endScrubbing outside a session") { await scrub.endScrubbing(at: seconds(3), precision: .exact) }
        #expect(late.outcome == nil)
        #expect(late.wasCancelled)
        await h.drainEngine()
        #expect(h.probe.seekCount == 1)
        await h.drainEvents()
        #expect(h.log.events.compactMap(\.scrubState) == [.scrubbing, .idle])
    }

    @Test("Position events are throttled by the player's clock, and sampleCount shows the coalescing")
    func throttledPositions() async throws {
        let h = Harness()
        try await h.load(Fixtures.gop250)
        let scrub = h.player.scrub
        scrub.positionThrottle = ScrubSession.defaultPositionThrottle
        #expect(scrub.positionThrottle == .milliseconds(100))

        scrub.beginScrubbing(at: h.player.currentTime)
        for i in 1...10 { scrub.updateScrubbing(to: Self.proposed(i)) }  // the clock stands still
        h.clock.advance(by: .milliseconds(100))
        scrub.updateScrubbing(to: Self.proposed(11))  // one throttle later
        h.clock.advance(by: .milliseconds(50))
        scrub.updateScrubbing(to: Self.proposed(12))  // half a throttle: none
        h.clock.advance(by: .milliseconds(50))
        scrub.updateScrubbing(to: Self.proposed(13))  // a full one since 11
        for i in 14...500 { scrub.updateScrubbing(to: Self.proposed(i)) }
        scrub.positionThrottle = .milliseconds(250)
        h.clock.advance(by: .milliseconds(200))
        scrub.updateScrubbing(to: Self.proposed(501))  // under the new throttle
        h.clock.advance(by: .milliseconds(50))
        scrub.updateScrubbing(to: Self.proposed(502))
        await h.drainEvents()

        let positions = h.log.events.compactMap(\.scrubPosition)
        #expect(
            positions == [
                ScrubPosition(time: Self.proposed(1), sampleCount: 1),
                ScrubPosition(time: Self.proposed(11), sampleCount: 11),
                ScrubPosition(time: Self.proposed(13), sampleCount: 13),
                ScrubPosition(time: Self.proposed(502), sampleCount: 502)
            ])
        #expect(scrub.sampleCount == 502)
        scrub.cancelScrubbing()
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("States go idle -> scrubbing -> seeking -> idle; isActive follows; events on the callback queue")
    func states() async throws {
        let (h, oracle) = try await Harness.gop250()
        let scrub = h.player.scrub
        let log = h.log
        let events = h.events
        #expect(scrub.scrubState == .idle && !scrub.isActive)

        scrub.beginScrubbing(at: h.player.currentTime)
        #expect(scrub.scrubState == .scrubbing && scrub.isActive)
        scrub.updateScrubbing(to: oracle.middle(5))

        h.suspendEngine()
        defer { h.resumeEngine() }
        let box = OutcomeBox<ScrubSessionResult>()
        let onQueue = OutcomeBox<Bool>()
        scrub.endScrubbing(at: oracle.middle(50), precision: .exact) { result in
            onQueue.put(0, events.isCurrent)
            log.record(.completion("scrub"))
            box.put(0, result)
        }
        try await log.wait(for: "the seeking state") { $0.contains(.scrubState(.seeking)) }
        #expect(scrub.scrubState == .seeking && scrub.isActive)
        h.resumeEngine()

        let result = try #require(try await box.wait(forCount: 1)[0])
        #expect(result.outcome?.frameIndex == 50)
        #expect(result.sampleCount == 1)
        #expect(scrub.scrubState == .idle && !scrub.isActive)
        #expect(onQueue.all[0] == true, "the endScrubbing completion runs on the callback queue")
        await h.drainEvents()
        let kinds = h.log.events.map(\.kind)
        #expect(h.log.events.compactMap(\.scrubState) == [.scrubbing, .seeking, .idle])
        #expect(
            kinds == [
                "scrub.scrubbing", "position", "start", "scrub.seeking", "accuracy", "end", "time",
                "scrub.idle", "completion.scrub"
            ])
        #expect(h.log.allOnExpectedQueue)
        #expect([ScrubState.idle, .scrubbing, .seeking].map(\.isActive) == [false, true, true])
    }

    @Test("Beginning a new scrub while the end seek is in flight supersedes it")
    func newScrubSupersedesEndSeek() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 20)
        let scrub = h.player.scrub
        scrub.beginScrubbing(at: h.player.currentTime)
        for i in 0..<7 { scrub.updateScrubbing(to: oracle.middle(100 + i)) }

        h.suspendEngine()
        defer { h.resumeEngine() }
        let box = OutcomeBox<ScrubSessionResult>()
        scrub.endScrubbing(at: oracle.middle(106), precision: .exact) { box.put(0, $0) }
        try await h.log.wait(for: "the seeking state") { $0.contains(.scrubState(.seeking)) }
        scrub.beginScrubbing(at: oracle.middle(106))
        h.resumeEngine()

        let result = try #require(try await box.wait(forCount: 1)[0])
        let outcome = try #require(result.outcome)
        #expect(outcome.interruption == .superseded)
        #expect(!result.wasCancelled, "superseded is not cancelled")
        #expect(result.sampleCount == 7)
        #expect(scrub.scrubState == .scrubbing, "the old session's seek does not end the new session")
        #expect(scrub.sampleCount == 0)
        #expect(h.player.currentTime == oracle.time(20))
        await h.drainEngine()
        #expect(h.probe.seekCount == 1, "the superseded end seek never reached the engine")

        scrub.cancelScrubbing()
        await h.drainEvents()
        #expect(h.log.events.compactMap(\.scrubState) == [.scrubbing, .seeking, .scrubbing, .idle])
    }

    @Test("cancelScrubbing while the end seek is in flight cancels it; the playhead stays")
    func cancelDuringEndSeek() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 20)
        let scrub = h.player.scrub
        scrub.beginScrubbing(at: h.player.currentTime)
        scrub.updateScrubbing(to: oracle.middle(300))

        h.suspendEngine()
        defer { h.resumeEngine() }
        let box = OutcomeBox<ScrubSessionResult>()
        scrub.endScrubbing(at: oracle.middle(300), precision: .exact) { box.put(0, $0) }
        try await h.log.wait(for: "the seeking state") { $0.contains(.scrubState(.seeking)) }
        scrub.cancelScrubbing()
        #expect(scrub.scrubState == .idle)
        h.resumeEngine()

        let result = try #require(try await box.wait(forCount: 1)[0])
        #expect(result.outcome?.interruption == .cancelled)
        #expect(result.wasCancelled)
        #expect(h.player.currentTime == oracle.time(20))
        #expect(await h.player.stepFrame(.forward) == .stepped(.forward, landedMediaTime: oracle.time(21)))
    }
}
