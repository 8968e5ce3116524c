// seekToLiveEdge() on the Player over the fake live engine. The edge is computed here from the
// table: the window's end (the first frame after its last segment) minus the hold-back of three
// target durations, 3 x 2 s = 180 frames.

import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Live: seek to the live edge")
struct LiveEdgeTests {
    /// The frame at the live edge of a window listing `published`.
    static func edgeFrame(_ published: Range<Int>) -> Int {
        max(LiveTable.firstFrame(ofSegment: published.lowerBound), LiveTable.firstFrame(ofSegment: published.upperBound) - 180)
    }

    @Test("Hand-checked edges: 10.5 - 6 = 4.5 s, 14 - 6 = 8 s, 17.5 - 6 = 11.5 s")
    func anchors() {
        #expect(Self.edgeFrame(0..<6) == 135 && Self.edgeFrame(0..<8) == 240 && Self.edgeFrame(3..<10) == 345)
    }

    @Test("The edge lands exactly, with its date, and moves as the window grows and slides")
    func landsAtTheEdge() async throws {
        let h = try await LiveHarness.loaded()
        for published in [0..<6, 0..<8, 3..<10] {
            if published != 0..<6 {
                h.stream.publish(published)
                #expect(try await h.player.reloadLiveWindow())
            }
            let frame = Self.edgeFrame(published)
            let window = h.player.liveSeekWindow
            #expect(window.liveEdge == LiveTable.time(frame))
            let outcome = try #require(await h.player.seekToLiveEdge())
            #expect(outcome.finished && outcome.precision == .exact)
            #expect(outcome.requestedMediaTime == LiveTable.time(frame))
            #expect(outcome.landedMediaTime == LiveTable.time(frame), "\(published): \(outcome.landedMediaTime)")
            #expect(
                outcome.frameIndex == frame - LiveTable.firstFrame(ofSegment: published.lowerBound),
                "indices count from the window's first frame")
            #expect(outcome.landedDate == LiveTable.dateOfFrame(frame))
            #expect(h.player.currentTime == LiveTable.time(frame))
        }
    }

    @Test("Not live: nothing loaded, a file, an ended playlist give nil and start no seek")
    func notLive() async throws {
        let empty = LiveHarness()
        #expect(await empty.player.seekToLiveEdge() == nil)

        let file = LiveHarness()
        try await file.player.load(LiveHarness.file)
        #expect(await file.player.seekToLiveEdge() == nil)

        let ended = LiveHarness()
        ended.stream.end()
        try await ended.player.load(LiveHarness.url("live.m3u8"))
        let window = ended.player.liveSeekWindow
        #expect(!window.isLive && window.isDateAddressable)
        #expect(await ended.player.seekToLiveEdge() == nil)
        #expect(ended.scheduler.scheduledCount == 0, "an ended playlist is never reloaded")

        for h in [empty, file, ended] {
            await h.settle()
            #expect(!h.kinds().contains("start"), "\(h.kinds())")
        }
        // The ended playlist's dates still work.
        #expect(await ended.player.seek(toDate: LiveTable.date(ms: 2000)).outcome?.landedMediaTime == LiveTable.time(60))
    }

    @Test("The completion form calls back on the callback queue, with nil when not live")
    func completionForm() async throws {
        let h = try await LiveHarness.loaded()
        let file = LiveHarness()
        try await file.player.load(LiveHarness.file)
        let box = OutcomeBox<SeekOutcome?>()
        let onQueue = Locked<[Bool]>([])
        for (n, harness) in [h, file].enumerated() {
            let queue = harness.events
            harness.player.seekToLiveEdge { outcome in
                onQueue.withLock { $0.append(queue.isCurrent) }
                box.put(n, outcome)
            }
        }
        let results = try await box.wait(forCount: 2)
        #expect(results[0]??.landedMediaTime == LiveTable.time(135))
        #expect(results[1].map { $0 == nil } == true)
        #expect(onQueue.withLock { $0 } == [true, true])
    }
}
