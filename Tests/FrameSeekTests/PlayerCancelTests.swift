// Seeks that do not land: cancelled (cancelPendingSeeks, a cancelled task, close) leave the
// playhead where it was; before anything is loaded a seek still completes, with notReady.
// The engine's queue is suspended to hold a seek "queued", and a hook in the counting engine
// cancels while the FFmpeg engine is running it.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: cancelled seeks", .ffmpegLog)
struct PlayerCancelTests {
    @Test("cancelPendingSeeks() on a queued seek gives .cancelled and leaves the playhead")
    func cancelQueued() async throws {
        let (h, oracle) = try await Harness.gop250()
        let first = await h.player.seek(to: oracle.middle(100), precision: .exact)
        #expect(first.finished && first.frameIndex == 100)
        let box = OutcomeBox<SeekOutcome>()

        h.suspendEngine()
        defer { h.resumeEngine() }
        h.player.seek(to: oracle.middle(200), precision: .exact) { box.put(0, $0) }
        h.player.cancelPendingSeeks()
        h.resumeEngine()

        let outcome = try #require(try await box.wait(forCount: 1)[0])
        #expect(!outcome.finished)
        #expect(outcome.interruption == .cancelled)
        // As the SDK reports it: where the playhead stayed, measured from the request.
        #expect(outcome.landedMediaTime == oracle.time(100) && !outcome.withinRequestedTolerance)
        #expect(outcome.accuracy.deltaMediaTime == oracle.time(100) - oracle.middle(200))
        #expect(h.player.currentTime == oracle.time(100))
        #expect(h.probe.seekCount == 1, "the cancelled seek never reached the engine")
        await h.drainEvents()
        #expect(h.log.events.last == .seekEnd(oracle.time(100)), "the seek ends with the playhead where it was")
        // Nothing is left in flight: a step works at once, from the frame the playhead is on.
        #expect(await h.player.stepFrame(.forward) == .stepped(.forward, landedMediaTime: oracle.time(101)))
    }

    @Test("cancelPendingSeeks() while the engine decodes gives .cancelled and stops the decode")
    func cancelInEngine() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        let player = h.player
        h.probe.setBeforeSeek { [weak player] number in if number == 2 { player?.cancelPendingSeeks() } }
        defer { h.probe.setBeforeSeek(nil) }

        let outcome = try await withDeadline("the cancelled seek") { await player.seek(to: oracle.middle(240), precision: .exact) }
        #expect(outcome.interruption == .cancelled)
        #expect(outcome.error == nil, "an interruption is not an error")
        #expect(player.currentTime == oracle.time(100))
        // The outcome is delivered at the cancel, while the engine's seek may still be unwinding:
        // its record is read once the engine's queue has run.
        await h.drainEngine()
        guard case .threw(let error)? = h.probe.innerSeeks.last else {
            Issue.record("the cancelled seek landed in the engine: \(h.probe.innerSeeks)")
            return
        }
        #expect(error.framesBeforeInterruption == 0, "\(error.cause)")
        #expect(await player.stepFrame(.forward) == .stepped(.forward, landedMediaTime: oracle.time(101)))
    }

    @Test("Cancelling the awaiting task gives .cancelled and leaves the playhead")
    func cancelTask() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        let player = h.player
        let mark = h.log.events.count

        h.suspendEngine()
        defer { h.resumeEngine() }
        let task = Task { await player.seek(to: oracle.middle(200), precision: .exact) }
        try await h.log.wait(for: "the seek to start") { $0.dropFirst(mark).contains(where: \.isSeekStart) }
        task.cancel()
        h.resumeEngine()

        let outcome = try await withDeadline("the cancelled task's seek") { await task.value }
        #expect(outcome.interruption == .cancelled)
        #expect(!outcome.finished)
        #expect(player.currentTime == oracle.time(100))
        #expect(h.probe.seekCount == 1)
    }

    @Test("A seek issued from an already-cancelled task gives .cancelled")
    func alreadyCancelledTask() async throws {
        let (h, oracle) = try await Harness.gop250()
        let player = h.player
        h.suspendEngine()
        defer { h.resumeEngine() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await player.seek(to: oracle.middle(200), precision: .exact)
        }
        h.resumeEngine()
        let outcome = try await withDeadline("the seek") { await task.value }
        #expect(outcome.interruption == .cancelled)
        #expect(player.currentTime == oracle.time(0))
    }

    @Test("close() cancels the seek in flight; later seeks give .notReady")
    func close() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        let player = h.player
        let box = OutcomeBox<SeekOutcome>()
        let closing = OutcomeBox<Bool>()
        // As the seek enters the FFmpeg engine, close() starts on another task; the engine's
        // queue waits until close() has cancelled and unloaded the item (its synchronous part,
        // which needs no engine), then the FFmpeg engine runs with the flag set.
        h.probe.setBeforeSeek { [weak player] number in
            guard number == 2, let player else { return }
            Task {
                await player.close(); closing.put(0, true)
            }
            let deadline = ContinuousClock.now + deadlockGuard
            while player.seekableRange != nil, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.000_5) }
        }
        defer { h.probe.setBeforeSeek(nil) }
        player.seek(to: oracle.middle(240), precision: .exact) { box.put(0, $0) }

        let outcome = try #require(try await box.wait(forCount: 1)[0])
        #expect(outcome.interruption == .cancelled)
        _ = try await closing.wait(forCount: 1)
        guard case .threw(let error)? = h.probe.innerSeeks.last else {
            Issue.record("the seek landed although close() cancelled it: \(h.probe.innerSeeks)")
            return
        }
        #expect(error.reason == .interrupted)
        #expect(h.probe.seekCount == 2)
        #expect(player.duration == .indefinite)
        #expect(player.seekableRange == nil)
        #expect(player.media == nil)

        let later = try await withDeadline("a seek after close") { await player.seek(to: 1.0, precision: .exact) }
        #expect(!later.finished)
        #expect(later.interruption == .notReady)
        #expect(later.clamp == .seekableRangeUnknown)
        #expect(!later.clamp.didClamp)
        #expect(h.probe.seekCount == 2)
        #expect(await player.stepFrame(.forward) == .unavailable(.noCurrentItem))
    }

    // A seek registered before close() whose engine work has not run yet is ended by close()
    // itself, as cancelled: the engine never sees it. The engine queue is held so that the
    // seek is still queued when close() begins.
    @Test("close() right after a completion-form seek gives .cancelled, not .notReady")
    func closeBeforeTheSeekRuns() async throws {
        let (h, oracle) = try await Harness.gop250()
        let player = h.player
        defer { h.resumeEngine() }
        h.suspendEngine()
        let box = OutcomeBox<SeekOutcome>()
        player.seek(to: oracle.middle(200), precision: .exact) { box.put(0, $0) }
        let closing = Task { await player.close() }
        let outcome = try #require(try await box.wait(forCount: 1)[0], "close() answers the seek before its engine work runs")
        h.resumeEngine()
        await closing.value
        #expect(!outcome.finished)
        #expect(outcome.interruption == .cancelled)
        #expect(h.probe.seekCount == 0)
    }
}

@Suite("Player: seeks with nothing loaded", .ffmpegLog)
struct PlayerNotReadyTests {
    @Test(
        "A seek before any load returns notReady with an unknown range, and clamps nothing",
        arguments: [
            MediaTime(value: 5, timescale: 2), MediaTime(value: -5, timescale: 1), MediaTime(value: 1_000_000, timescale: 1)
        ])
    func asyncSeek(target: MediaTime) async throws {
        let h = Harness()
        let player = h.player
        let outcome = try await withDeadline("a seek with nothing loaded") { await player.seek(to: target, precision: .exact) }
        #expect(!outcome.finished)
        #expect(outcome.interruption == .notReady)
        #expect(outcome.clamp == .seekableRangeUnknown)
        #expect(outcome.clamp.didClamp == false)
        #expect(outcome.requestedMediaTime == target)
        #expect(!outcome.landedMediaTime.isValid)
        #expect(outcome.frameIndex == nil)
        #expect(player.currentTime == .zero)
        #expect(player.seekableRange == nil)
        #expect(h.probe.seekCount == 0)
        await h.drainEvents()
        #expect(h.log.events.filter(\.isClamp).isEmpty, "no onSeekClamped for a target that did not move")
        #expect(h.log.events.isEmpty, "a seek that never landed fires no onSeekAccuracy: \(h.log.events)")
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("The completion-handler form calls back before any load, on the callback queue")
    func completionSeek() async throws {
        let h = Harness()
        let events = h.events
        let box = OutcomeBox<SeekOutcome>()
        let onQueue = OutcomeBox<Bool>()
        h.player.seek(to: 2.5, precision: .nearestKeyframe(tolerance: 0.5)) { outcome in
            onQueue.put(0, events.isCurrent)
            box.put(0, outcome)
        }
        let outcome = try #require(try await box.wait(forCount: 1)[0])
        #expect(outcome.interruption == .notReady)
        #expect(outcome.clamp == .seekableRangeUnknown)
        #expect(!outcome.clamp.didClamp)
        #expect(outcome.requestedMediaTime == MediaTime(value: 5, timescale: 2))
        #expect(onQueue.all[0] == true)
    }

    @Test("stepFrame before any load is unavailable with .noCurrentItem")
    func stepBeforeLoad() async throws {
        let h = Harness()
        #expect(await h.player.stepFrame(.forward) == .unavailable(.noCurrentItem))
        let report = await h.player.stepFrameReport(.backward, count: 3)
        #expect(report.result == .unavailable(.noCurrentItem))
        #expect(report.framesStepped == 0)
        #expect(h.probe.stepCount == 0)
        await h.drainEvents()
        #expect(h.log.events == [.frameStep(.unavailable(.noCurrentItem)), .frameStep(.unavailable(.noCurrentItem))])
    }
}
