// Listeners and the delegate: held weakly, told about every seek, told about a clamp only when
// the target really moved, and called on the chosen queue in the order things happened.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: listeners are held weakly", .ffmpegLog)
struct PlayerWeakListenerTests {
    @Test("A released listener and delegate receive nothing and are not kept alive")
    func releasedListener() async throws {
        let (h, oracle) = try await Harness.gop250()
        let log = EventLog()
        var listener: Recorder? = Recorder(log)
        weak let weakListener = listener
        h.player.addSeekPrecisionListener(try #require(listener))
        h.player.seekDelegate = listener
        listener = nil
        #expect(weakListener == nil, "the player kept the listener alive")

        _ = await h.player.seek(to: oracle.middle(30), precision: .exact)
        _ = await h.player.seek(to: seconds(-5), precision: .exact)
        _ = await h.player.stepFrame(.forward)
        h.player.scrub.beginScrubbing(at: h.player.currentTime)
        h.player.scrub.cancelScrubbing()
        await h.drainEvents()
        #expect(log.events.isEmpty)
        #expect(h.player.seekDelegate == nil)
        // The harness's own listener, still alive, heard everything.
        #expect(h.log.events.filter(\.isAccuracy).count == 2)
    }

    @Test("A listener released after an event was queued, before it was delivered, receives nothing")
    func releasedBeforeDelivery() async throws {
        let (h, oracle) = try await Harness.gop250()
        let log = EventLog()
        var listener: Recorder? = Recorder(log)
        weak let weakListener = listener
        h.player.addSeekPrecisionListener(try #require(listener))

        let callbacks = Suspension(h.events.queue)
        callbacks.suspend()
        defer { callbacks.resume() }
        _ = await h.player.seek(to: oracle.middle(30), precision: .exact)  // its events are queued now
        listener = nil
        callbacks.resume()
        await h.drainEvents()
        #expect(weakListener == nil, "a queued event kept the listener alive")
        #expect(log.events.isEmpty)
        #expect(h.log.events.filter(\.isAccuracy).count == 1)
    }

    @Test("A live listener receives onSeekAccuracy once for each seek, with that seek's outcome")
    func liveListener() async throws {
        let (h, oracle) = try await Harness.gop250()
        let log = EventLog()
        let listener = Recorder(log)
        h.player.addSeekPrecisionListener(listener)
        h.player.addSeekPrecisionListener(listener)  // twice: still one delivery per event
        var outcomes: [SeekOutcome] = []
        var expected: [Int] = []
        for (i, precision) in [
            (12, SeekPrecision.exact), (200, .previousKeyframe), (240, .nextKeyframe),
            (100, .nearestKeyframe(tolerance: 0.5)), (359, .exact)
        ] {
            outcomes.append(await h.player.seek(to: oracle.middle(i), precision: precision))
            let window = precision.window
            expected.append(
                oracle.expectedLanding(
                    at: oracle.middle(i), before: window.before.isNumeric ? window.before : nil,
                    after: window.after.isNumeric ? window.after : nil))
        }
        await h.drainEvents()
        let heard = log.events.compactMap { if case .accuracy(let o) = $0 { o } else { nil } }
        #expect(heard == outcomes)
        #expect(heard.map(\.accuracy) == outcomes.map(\.accuracy))
        #expect(outcomes.allSatisfy { $0.finished })
        #expect(outcomes.map(\.frameIndex) == expected)
        #expect(expected == [12, 0, 250, 85, 359])

        h.player.removeSeekPrecisionListener(listener)
        _ = await h.player.seek(to: oracle.middle(5), precision: .exact)
        await h.drainEvents()
        #expect(log.events.filter(\.isAccuracy).count == 5, "a removed listener hears nothing more")
        withExtendedLifetime(listener) {}
    }
}

@Suite("Player: clamp events", .ffmpegLog)
struct PlayerClampTests {
    @Test("Only targets that moved are clamped: -5 s and past the end, one onSeekClamped each")
    func clampEvents() async throws {
        let (h, oracle) = try await Harness.gop250()
        let last = oracle.lastIndex
        let minusFive = seconds(-5)
        let pastEnd = oracle.end(last) + seconds(5)
        let oneTickBeforeEnd = oracle.time(ticks: oracle.frames[last].pts - oracle.originPTS + oracle.span(last) - 1)

        let before = await h.player.seek(to: minusFive, precision: .exact)
        #expect(before.finished)
        #expect(before.clamp == .clampedToStart(oracle.time(0)))
        #expect(before.clamp.didClamp)
        #expect(before.requestedMediaTime == minusFive, "the requested time stays the original target")
        #expect(before.landedMediaTime == oracle.time(0))
        #expect(before.frameIndex == 0)
        #expect(before.deltaMediaTime == oracle.time(0) + seconds(5), "delta is exactly +5 s past the first frame")
        #expect(before.delta == (oracle.time(0) + seconds(5)).seconds)
        #expect(h.player.currentTime == oracle.time(0))

        let after = await h.player.seek(to: pastEnd, precision: .exact)
        #expect(after.finished)
        #expect(after.clamp == .clampedToEnd(oracle.time(last)))
        #expect(after.requestedMediaTime == pastEnd)
        #expect(after.landedMediaTime == oracle.time(last))
        #expect(after.frameIndex == last)
        #expect(after.deltaMediaTime == oracle.time(last) - pastEnd)

        await h.drainEvents()
        let mark = h.log.events.count
        // Inside the range, including both edges of it: no clamp.
        for target in [oracle.time(0), oracle.middle(17), oracle.time(250), oracle.time(last), oneTickBeforeEnd] {
            let inside = await h.player.seek(to: target, precision: .exact)
            #expect(inside.finished)
            #expect(inside.clamp == SeekClamp.none, "\(target)")
            #expect(!inside.clamp.didClamp)
        }
        await h.drainEvents()
        #expect(h.events(since: mark).filter(\.isClamp).isEmpty)

        let clamps = h.log.events.compactMap { if case .clamped(let c) = $0 { c } else { nil } }
        #expect(clamps == [.clampedToStart(oracle.time(0)), .clampedToEnd(oracle.time(last))])
    }
}

@Suite("Player: events arrive in order on the chosen queue", .ffmpegLog)
struct PlayerEventOrderTests {
    /// Runs a completion-form seek and returns the kinds of the events it caused, the
    /// completion included.
    private func kinds(of target: MediaTime, precision: SeekPrecision = .exact, in h: Harness) async throws -> [String] {
        let mark = h.log.events.count
        let box = OutcomeBox<SeekOutcome>()
        let log = h.log
        h.player.seek(to: target, precision: precision) { outcome in
            log.record(.completion("seek"))
            box.put(0, outcome)
        }
        _ = try await box.wait(forCount: 1)
        await h.drainEvents()
        return h.events(since: mark).map(\.kind)
    }

    @Test("A seek's events: start, clamped (only when clamped), accuracy, end, time, then the completion")
    func seekEventOrder() async throws {
        let (h, oracle) = try await Harness.gop250()
        #expect(h.player.callbackQueue === h.events.queue)

        #expect(try await kinds(of: oracle.middle(40), in: h) == ["start", "accuracy", "end", "time", "completion.seek"])
        #expect(try await kinds(of: seconds(-5), in: h) == ["start", "clamped", "accuracy", "end", "time", "completion.seek"])
        #expect(
            try await kinds(of: seconds(10_000), precision: .previousKeyframe, in: h)
                == ["start", "clamped", "accuracy", "end", "time", "completion.seek"])
        #expect(h.log.allOnExpectedQueue, "every callback ran on the player's callback queue")

        // The payloads: start names the target, end and time name the new playhead.
        let mark = h.log.events.count
        _ = await h.player.seek(to: oracle.middle(77), precision: .exact)
        await h.drainEvents()
        let events = h.events(since: mark)
        #expect(events.first == .seekStart(oracle.middle(77)))
        #expect(Array(events.suffix(2)) == [.seekEnd(oracle.time(77)), .timeUpdate(oracle.time(77))])
    }

    @Test("An interrupted seek ends where the playhead stayed and sends no time update")
    func interruptedEventOrder() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 60)
        await h.drainEvents()
        let mark = h.log.events.count
        let box = OutcomeBox<SeekOutcome>()
        let log = h.log
        h.suspendEngine()
        defer { h.resumeEngine() }
        h.player.seek(to: oracle.middle(300), precision: .exact) {
            log.record(.completion("seek")); box.put(0, $0)
        }
        h.player.cancelPendingSeeks()
        h.resumeEngine()
        let outcome = try #require(try await box.wait(forCount: 1)[0])
        // As the SDK's: accuracy is there, measuring the playhead where it stayed from the request.
        #expect(outcome.interruption == .cancelled && !outcome.finished && outcome.frameIndex == nil)
        #expect(outcome.accuracy.landedMediaTime == oracle.time(60) && outcome.landedMediaTime == oracle.time(60))
        #expect(outcome.accuracy.deltaMediaTime == oracle.time(60) - oracle.middle(300))
        #expect(!outcome.accuracy.withinRequestedTolerance && !outcome.withinRequestedTolerance)
        await h.drainEvents()
        let events = h.events(since: mark)
        #expect(events.map(\.kind) == ["start", "end", "completion.seek"], "no accuracy for a seek that did not land")
        #expect(events == [.seekStart(oracle.middle(300)), .seekEnd(oracle.time(60)), .completion("seek")])
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("Step events run on the callback queue: onFrameStep, then the time update")
    func stepEventOrder() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 60)
        await h.drainEvents()
        let mark = h.log.events.count
        let result = await h.player.stepFrame(.forward)
        await h.drainEvents()
        #expect(h.events(since: mark) == [.frameStep(result), .timeUpdate(oracle.time(61))])
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("A delegate with only the SDK's TimeInterval methods hears seek ends and time updates, in seconds")
    func sdkShapedDelegate() async throws {
        let (h, oracle) = try await Harness.gop250()
        let delegate = SDKShapedDelegate()
        h.player.setupSeekManager(delegate: delegate)
        #expect(h.player.seekDelegate === delegate)
        _ = await h.player.seek(to: oracle.middle(77), precision: .exact)
        _ = await h.player.stepFrame(.forward)
        await h.drainEvents()
        // Before the SDK's requirements existed, these methods were overloads nothing called.
        #expect(delegate.seekEnds.withLock { $0 } == [oracle.time(77).seconds])
        #expect(delegate.timeUpdates.withLock { $0 } == [oracle.time(77).seconds, oracle.time(78).seconds])
        #expect(delegate.durations.withLock { $0 } == [oracle.end(oracle.lastIndex).seconds, oracle.end(oracle.lastIndex).seconds])
        #expect(h.player.getCurrentTime() == oracle.time(78).seconds && h.player.getDuration() == oracle.end(oracle.lastIndex).seconds)
    }

    @Test("Player() delivers on the main queue by default")
    func mainQueueByDefault() {
        #expect(Player().callbackQueue.label == DispatchQueue.main.label)
    }
}

/// A delegate as the SDK's documents write one: only the `TimeInterval` requirements.
private final class SDKShapedDelegate: SeekDelegate, Sendable {
    let seekEnds = Locked<[TimeInterval]>([])
    let timeUpdates = Locked<[TimeInterval]>([])
    let durations = Locked<[TimeInterval]>([])

    func onSeekEnd(at time: TimeInterval) { seekEnds.withLock { $0.append(time) } }
    func onTimeUpdate(currentTime: TimeInterval, duration: TimeInterval) {
        timeUpdates.withLock { $0.append(currentTime) }
        durations.withLock { $0.append(duration) }
    }
}
