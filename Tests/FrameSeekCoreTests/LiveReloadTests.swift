// Reloads of a live playlist on the Player, driven by the manual scheduler: the window slides,
// listeners hear it in transition order, seeks clamp to the new window; a reload of a closed or
// replaced item touches nothing. Reloads are held inside the fake engine where a race needs an
// exact point; nothing sleeps.

import Dispatch
import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// Seconds and thousandths as an exact time.
private func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

@Suite("Live: reloads")
struct LiveReloadTests {
    @Test("Reloads follow the engine's delay: the target duration after a change, half of it after none")
    func timing() async throws {
        let h = try await LiveHarness.loaded()
        #expect(h.scheduler.pendingDelays == [ms(2000)], "first reload one target duration after the load")
        await h.fireReload()
        #expect(h.stream.reloadsEntered == 1)
        #expect(h.scheduler.pendingDelays == [ms(1000)], "unchanged: half the target duration")
        #expect(h.live.windows.isEmpty, "an unchanged playlist announces nothing")
        h.stream.publish(0..<7)
        await h.fireReload()
        #expect(h.scheduler.pendingDelays == [ms(2000)])
        #expect(h.live.windows.count == 1)
    }

    @Test("A reload slides the window in one transition: window, range and clamps; a seek before it clamps to its start")
    func slides() async throws {
        let h = try await LiveHarness.loaded()
        #expect(await h.player.seek(toDate: LiveTable.date(ms: 1000)).outcome?.finished == true)
        await h.settle()
        let mark = h.log.events.count

        h.stream.publish(2..<8)
        await h.fireReload()
        // Segment 2 starts at frame 105 (3.5 s); segment 8 at frame 420 (14 s).
        let window = h.player.liveSeekWindow
        #expect(window.seekableRange == LiveTable.time(105)..<LiveTable.time(420))
        #expect(window.startProgramDate == LiveTable.date(ms: 3500) && window.endProgramDate == LiveTable.date(ms: 14500))
        #expect(h.player.seekableRange == LiveTable.time(105)..<LiveTable.time(420))
        #expect(h.live.windows == [window])

        let clamped = await h.player.seek(to: .zero)
        #expect(clamped.clamp == .clampedToStart(LiveTable.time(105)))
        #expect(clamped.landedMediaTime == LiveTable.time(105) && clamped.frameIndex == 0)
        #expect(clamped.landedDate == LiveTable.date(ms: 3500))
        let gone = await h.player.seek(toDate: LiveTable.date(ms: 1000))
        #expect(
            gone.unavailableReason
                == .dateBeforeWindow(
                    requested: LiveTable.date(ms: 1000),
                    windowStart: LiveTable.date(ms: 3500),
                    windowEnd: LiveTable.date(ms: 14500)),
            "the same date that landed before the reload has left the window")
        await h.settle()
        #expect(h.kinds(since: mark) == ["completion.window", "start", "clamped", "accuracy", "end", "time"])
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("A reload that lands while a seek is in the engine is heard in transition order")
    func orderWithASeek() async throws {
        let h = try await LiveHarness.loaded()
        let suspension = Suspension(h.player.host.queue)
        suspension.suspend()
        let box = OutcomeBox<SeekOutcome>()
        h.player.seek(to: LiveTable.time(200)) { box.put(0, $0) }  // queued first
        h.stream.publish(0..<8)
        h.scheduler.fireNext()  // queued behind the seek
        suspension.resume()
        _ = try await box.wait(forCount: 1)
        await h.settle()
        #expect(h.kinds() == ["start", "accuracy", "end", "time", "completion.window"], "\(h.kinds())")
    }

    @Test("close() while a reload is held in the engine: nothing is heard after close, and reloading stops")
    func closeDuringReload() async throws {
        let h = try await LiveHarness.loaded()
        defer { h.stream.openReloads() }
        try await h.holdReload(publishing: 0..<8)

        let closing = Task { await h.player.close() }
        try await waitUntil("close() to end the item") { h.player.media == nil }
        await h.events.drain()
        let mark = h.log.events.count
        h.stream.openReloads()
        try await withDeadline("close() to return") { await closing.value }
        await h.settle()

        #expect(h.kinds(since: mark).isEmpty, "heard after close(): \(h.kinds(since: mark))")
        #expect(h.live.windows.isEmpty)
        #expect(h.player.liveSeekWindow == .notLive && h.player.seekableRange == nil)
        #expect(h.scheduler.pendingDelays.isEmpty, "the reload of a closed item schedules no other")
    }

    @Test("A reload that fires after close() does not reach the engine")
    func firesAfterClose() async throws {
        let h = try await LiveHarness.loaded()
        await h.player.close()
        await h.fireReload()
        #expect(h.stream.reloadsEntered == 0)
        #expect(h.scheduler.pendingDelays.isEmpty)
        #expect(h.log.events.isEmpty)
    }

    @Test("load(B) while A's reload is held: A's reload changes nothing of B and is not heard")
    func loadDuringReload() async throws {
        let h = try await LiveHarness.loaded()
        defer { h.stream.openReloads() }
        try await h.holdReload(publishing: 3..<9)

        let loading = Task { try await h.player.load(LiveHarness.url("other.m3u8")) }
        try await waitUntil("load() to begin") { h.player.machine.read(\.loading) }
        #expect(h.player.liveSeekWindow == .notLive, "no window while the next item opens")
        h.stream.openReloads()
        try await withDeadline("load() to return") { try? await loading.value }
        await h.settle()

        // B lists segments 0 to 3: 0 ..< 7 s (frames 0 ..< 210).
        let window = h.player.liveSeekWindow
        #expect(window.seekableRange == LiveTable.time(0)..<LiveTable.time(210))
        #expect(h.player.seekableRange == LiveTable.time(0)..<LiveTable.time(210))
        #expect(h.live.windows.isEmpty, "A's reload was not announced")
        // A's reload, committed silently while B opened, scheduled one more tick; B's install
        // scheduled B's first. A's ends its loop without touching an engine; B's reloads B.
        #expect(h.scheduler.pendingDelays.count == 2)
        await h.fireReload()
        await h.fireReload()
        #expect(h.stream.reloadsEntered == 1, "A's engine was reloaded once, before B replaced it")
        #expect(h.streams["other.m3u8"]!.reloadsEntered == 1, "B was reloaded by its own loop only")
        #expect(h.scheduler.pendingDelays.count == 1)
        #expect(h.player.liveSeekWindow == window)
        #expect(h.live.windows.isEmpty)
    }

    @Test("A reload of A scheduled before load(B) and fired after it does nothing to B")
    func oldReloadAfterLoad() async throws {
        let h = try await LiveHarness.loaded()
        try await h.player.load(LiveHarness.url("other.m3u8"))
        #expect(h.scheduler.pendingDelays == [ms(2000), ms(2000)], "A's tick, then B's")
        h.stream.publish(3..<9)
        await h.fireReload()  // A's
        #expect(h.stream.reloadsEntered == 0, "A's engine is gone; B's was not reloaded for A")
        #expect(h.scheduler.pendingDelays == [.zero], "only B's loop remains, due now as A's was")
        #expect(h.player.liveSeekWindow.seekableRange == LiveTable.time(0)..<LiveTable.time(210))
        #expect(h.log.events.isEmpty)
    }

    @Test("A failed reload keeps the window, is heard and thrown, and reloading goes on")
    func failedReload() async throws {
        let h = try await LiveHarness.loaded()
        let before = h.player.liveSeekWindow
        let error = MediaError(path: "https://example.com/live.m3u8", reason: .readFailed, cause: "HTTP 503")
        h.stream.failNextReload(with: error)
        h.stream.publish(0..<8)
        await h.fireReload()
        #expect(h.live.errors == [error])
        #expect(h.player.liveSeekWindow == before)
        #expect(h.scheduler.pendingDelays.count == 1, "the next reload is still scheduled")

        h.stream.failNextReload(with: error)
        await #expect(throws: error) { try await h.player.reloadLiveWindow() }
        #expect(try await h.player.reloadLiveWindow(), "the next reload reads the grown playlist")
        await h.settle()
        #expect(h.kinds() == ["completion.reloadFailed", "completion.reloadFailed", "completion.window"])
    }

    @Test("The next reload is due a delay after the last one began (RFC 8216 6.3.4), so its request time is not waited twice")
    func timedFromTheStart() async throws {
        let h = try await LiveHarness.loaded()
        let scheduler = h.scheduler
        h.stream.duringReloads { scheduler.advance(by: ms(1500)) }
        h.stream.publish(0..<7)
        await h.fireReload()
        #expect(h.scheduler.pendingDelays == [ms(500)], "changed: a target duration (2 s) from the start, 1.5 s of it spent")
        await h.fireReload()
        #expect(h.scheduler.pendingDelays == [.zero], "unchanged: half of it (1 s) was over before the reload ended")
        let error = MediaError(path: "https://example.com/live.m3u8", reason: .readFailed, cause: "HTTP 503")
        h.stream.failNextReload(with: error)
        await h.fireReload()
        // Backed off from the last successful load's target duration, unchanged: 2 x 1 s.
        #expect(h.scheduler.pendingDelays == [ms(500)], "a failure backs off from the start too")
    }

    @Test("Failed reloads in a row back off: the delay doubles for each, four times at most, and one that succeeds returns to the engine's")
    func failedReloadsBackOff() async throws {
        let h = try await LiveHarness.loaded()
        let error = MediaError(path: "https://example.com/live.m3u8", reason: .readFailed, cause: "HTTP 503")
        #expect(h.scheduler.pendingDelays == [ms(2000)])
        var delays: [MediaTime] = []
        for _ in 0..<3 {
            h.stream.failNextReload(with: error)
            await h.fireReload()
            delays += h.scheduler.pendingDelays
        }
        // The engine's delay is still the last successful load's, one target duration.
        #expect(delays == [ms(4000), ms(8000), ms(8000)])
        #expect(h.live.errors == [error, error, error])
        h.stream.publish(0..<8)
        await h.fireReload()
        #expect(h.scheduler.pendingDelays == [ms(2000)], "a reload that succeeds is timed by the engine again")
        await h.fireReload()
        #expect(h.scheduler.pendingDelays == [ms(1000)], "and one that finds nothing new waits half a target duration")
    }

    @Test("EXT-X-TARGETDURATION:0 cannot make reloads spin: every wait is at least half a second, and failures back off from it")
    func zeroTargetDuration() async throws {
        let h = try await LiveHarness.loaded(targetDuration: 0)
        var delays = h.scheduler.pendingDelays
        await h.fireReload()
        delays += h.scheduler.pendingDelays
        h.stream.publish(0..<7)
        await h.fireReload()
        delays += h.scheduler.pendingDelays
        let error = MediaError(path: "https://example.com/live.m3u8", reason: .readFailed, cause: "HTTP 503")
        for _ in 0..<2 {
            h.stream.failNextReload(with: error)
            await h.fireReload()
            delays += h.scheduler.pendingDelays
        }
        // The RFC's waits are all 0 s here: after the load, unchanged, changed, then backed off.
        #expect(delays == [ms(500), ms(500), ms(500), ms(1000), ms(2000)])
        #expect(h.stream.reloadsEntered == 4)
    }

    @Test("reloadLiveWindow(): false with nothing loaded, for a file, and when the playlist did not change")
    func reloadNow() async throws {
        let h = LiveHarness()
        #expect(try await h.player.reloadLiveWindow() == false)
        try await h.player.load(LiveHarness.file)
        #expect(try await h.player.reloadLiveWindow() == false)
        #expect(h.scheduler.scheduledCount == 0, "a file is never reloaded")
        try await h.player.load(LiveHarness.url("live.m3u8"))
        #expect(try await h.player.reloadLiveWindow() == false)
        h.stream.publish(0..<7)
        #expect(try await h.player.reloadLiveWindow())
    }

    @Test("A playlist that ends stops the reloads, and its edge with them")
    func ends() async throws {
        let h = try await LiveHarness.loaded()
        h.stream.publish(0..<8)
        h.stream.end()
        await h.fireReload()
        let window = h.player.liveSeekWindow
        #expect(!window.isLive && h.live.windows == [window])
        #expect(h.scheduler.pendingDelays.isEmpty)
        #expect(await h.player.seekToLiveEdge() == nil)
    }

    @Test("A player released without close() stops reloading at the next tick")
    func releasedPlayer() async throws {
        let scheduler: ManualReloadScheduler
        let stream: FakeLiveStream
        do {
            let h = try await LiveHarness.loaded()
            await h.settle()
            (scheduler, stream) = (h.scheduler, h.stream)
        }
        scheduler.fireNext()
        #expect(scheduler.pendingDelays.isEmpty)
        #expect(stream.reloadsEntered == 0)
    }

    @Test("The real timer's delay: exact nanoseconds, never negative, a day at most")
    func dispatchIntervals() {
        #expect(DispatchPlayerScheduler.interval(ms(2000)) == .nanoseconds(2_000_000_000))
        #expect(DispatchPlayerScheduler.interval(MediaTime(value: 1, timescale: 3)) == .nanoseconds(333_333_333))
        #expect(DispatchPlayerScheduler.interval(ms(-5)) == .nanoseconds(0))
        #expect(DispatchPlayerScheduler.interval(.negativeInfinity) == .nanoseconds(0))
        #expect(DispatchPlayerScheduler.interval(.positiveInfinity) == .nanoseconds(86_400_000_000_000))
        #expect(DispatchPlayerScheduler.interval(.invalid) == .nanoseconds(86_400_000_000_000))
        #expect(DispatchPlayerScheduler.interval(MediaTime(value: 90_000, timescale: 1)) == .nanoseconds(86_400_000_000_000))
    }
}
