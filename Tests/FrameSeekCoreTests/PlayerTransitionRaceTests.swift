// The Player's races on the deterministic fake engine: every seek and step is held inside the
// engine until the test releases it, so a close, a load, a newer seek or a scrub end lands at
// an exact point of another call's life. No decoding, no sleeps; waits end on the event
// awaited and time out only as a deadlock guard.

import Dispatch
import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// A player over fake engines, with a recording listener and delegate on a queue of its own.
struct FakeHarness {
    let gate = EngineGate()
    let player: Player
    let events: TestQueue
    let log: EventLog
    let recorder: Recorder

    init(_ label: String = #function) {
        events = TestQueue("test.fake.\(label)")
        player = Player(
            engineFactory: FakePlaybackEngine.factory(gate: gate), callbackQueue: events.queue,
            clock: ManualPlayerClock())
        log = EventLog(expectedQueue: events)
        recorder = Recorder(log)
        player.addSeekPrecisionListener(recorder)
        player.seekDelegate = recorder
    }

    /// The URL of a fake file of `frames` frames (30 fps, a keyframe every 10).
    static func media(_ frames: Int) -> URL { URL(fileURLWithPath: "/fake/\(frames).fake") }

    /// A harness with a fake file of `frames` frames loaded. Pair it with
    /// `defer { h.gate.open() }`, so a failing test never leaves a call held in the engine.
    static func loaded(_ frames: Int = 300, _ label: String = #function) async throws -> FakeHarness {
        let h = FakeHarness(label)
        try await h.player.load(media(frames))
        return h
    }

    /// Returns once everything queued on the engine, then on the callback queue, has run.
    func settle() async {
        _ = await player.host.perform { _ in 0 }
        await events.drain()
    }

    func events(since mark: Int) -> [PlayerEvent] { Array(log.events.dropFirst(mark)) }
}

/// Frame `n`'s time on the fake media (1/30 s per frame).
private func frame(_ n: Int64) -> MediaTime { MediaTime(value: n, timescale: 30) }

/// Where the other call stands when `close()` runs.
enum RacePhase: String, CaseIterable, Sendable {
    /// Registered, queued on the engine behind a held call: the engine has not seen it.
    case queued
    /// Inside the engine, held there.
    case insideEngine
    /// Finished in the engine before close() (the ordinary case, for contrast).
    case finished
}

@Suite("Player transitions: races forced on the fake engine")
struct PlayerTransitionRaceTests {
    @Test(
        "close() during a seek: the seek ends cancelled at close, and nothing of the old item is heard after",
        arguments: RacePhase.allCases)
    func closeDuringSeek(phase: RacePhase) async throws {
        let h = try await FakeHarness.loaded()
        defer { h.gate.open() }
        let box = OutcomeBox<SeekOutcome>()
        h.gate.hold()
        switch phase {
        case .queued:
            // A step holds the engine; the seek waits behind it.
            let stepping = Task { await h.player.stepFrame(.forward) }
            try await h.gate.waitForEntries(1)
            h.player.seek(to: frame(150), precision: .exact) { box.put(0, $0) }
            _ = stepping
        case .insideEngine:
            h.player.seek(to: frame(150), precision: .exact) { box.put(0, $0) }
            try await h.gate.waitForEntries(1)
        case .finished:
            h.gate.open()
            h.player.seek(to: frame(150), precision: .exact) { box.put(0, $0) }
            _ = try await box.wait(forCount: 1)
        }

        let closing = Task { await h.player.close() }
        let outcome = try #require(try await box.wait(forCount: 1)[0])
        await h.events.drain()
        let mark = h.log.events.count
        h.gate.open()
        try await withDeadline("close() to return") { await closing.value }
        await h.settle()

        let late = h.events(since: mark)
        #expect(late.isEmpty, "events after close() ended the item: \(late)")
        #expect(h.player.currentTime == .zero)
        #expect(h.player.media == nil)
        switch phase {
        case .queued:
            #expect(outcome.interruption == .cancelled)
            #expect(h.gate.entered == [.step(.forward)], "the cancelled seek never reached the engine")
        case .insideEngine:
            #expect(outcome.interruption == .cancelled, "the landing that came out after close() is dropped")
            #expect(h.gate.entered == [.seek(frame(150))])
        case .finished:
            #expect(outcome.finished && outcome.landedMediaTime == frame(150))
        }
        let kinds = h.log.events.map(\.kind)
        #expect(kinds.filter { $0 == "start" }.count == kinds.filter { $0 == "end" }.count, "every start has its end: \(kinds)")
        #expect(kinds.contains("accuracy") == (phase == .finished), "accuracy only for a seek that landed: \(kinds)")
        #expect(h.log.allOnExpectedQueue)
    }

    @Test(
        "load(B) during a seek on A: the seek ends cancelled with A's clamp; B loads; nothing of A is heard after",
        arguments: [RacePhase.queued, .insideEngine])
    func loadDuringSeek(phase: RacePhase) async throws {
        let h = try await FakeHarness.loaded(30)  // A: 1 s
        defer { h.gate.open() }
        let box = OutcomeBox<SeekOutcome>()
        let pastEndOfA = frame(150)  // inside B, past A's end
        h.gate.hold()
        if phase == .queued {
            let stepping = Task { await h.player.stepFrame(.forward) }
            try await h.gate.waitForEntries(1)
            _ = stepping
        }
        h.player.seek(to: pastEndOfA, precision: .exact) { box.put(0, $0) }
        if phase == .insideEngine { try await h.gate.waitForEntries(1) }

        let loading = Task { try await h.player.load(FakeHarness.media(300)) }  // B: 10 s
        let outcome = try #require(try await box.wait(forCount: 1)[0])
        await h.events.drain()
        let mark = h.log.events.count
        h.gate.open()
        try await withDeadline("load() to return") { try? await loading.value }
        await h.settle()

        #expect(outcome.interruption == .cancelled)
        #expect(outcome.clamp == .clampedToEnd(frame(29)), "A's clamp, never B's (.none): \(outcome.clamp)")
        #expect(h.events(since: mark).isEmpty, "events of A after load(B) began: \(h.events(since: mark))")
        #expect(h.player.media?.path == FakeHarness.media(300).path)
        #expect(h.player.currentTime == .zero)
        // B works: a seek lands on it.
        let onB = await h.player.seek(to: pastEndOfA)
        #expect(onB.finished && onB.landedMediaTime == pastEndOfA && onB.clamp == .none)
    }

    @Test("Two seeks registered at once from two threads: one supersedes the other, and their events never interleave")
    func twoSeeksAtOnce() async throws {
        let h = try await FakeHarness.loaded()
        defer { h.gate.open() }
        let rounds = 100
        for round in 0..<rounds {
            let targets = [frame(Int64(10 + round)), frame(Int64(200 + round % 50))]
            let box = OutcomeBox<SeekOutcome>()
            await h.events.drain()
            let mark = h.log.events.count
            h.gate.hold()
            let player = h.player
            DispatchQueue.concurrentPerform(iterations: 2) { n in
                player.seek(to: targets[n], precision: .exact) { box.put(n, $0) }
            }
            h.gate.open()
            let outcomes = try await box.wait(forCount: 2)
            await h.settle()
            let (first, second) = (try #require(outcomes[0]), try #require(outcomes[1]))
            #expect([first, second].filter(\.finished).count == 1, "round \(round): \(first.summary), \(second.summary)")
            let (loser, landed) = first.finished ? (second, first) : (first, second)
            #expect(loser.interruption == .superseded)
            let events = h.events(since: mark)
            // The seek registered first is the one superseded: its start, its end, then the
            // other's start and landing.
            #expect(
                events == [
                    .seekStart(loser.requestedMediaTime), .seekEnd(.zero),
                    .seekStart(landed.requestedMediaTime), .accuracy(landed),
                    .seekEnd(landed.landedMediaTime), .timeUpdate(landed.landedMediaTime)
                ],
                "round \(round): \(events.map(\.kind))")
            #expect(h.player.currentTime == landed.landedMediaTime)
            // Back to the start for the next round.
            _ = await h.player.seek(to: .zero)
            await h.settle()
        }
    }

    @Test("A seek issued while the scrub's end seek is inside the engine supersedes it; the session is idle at once")
    func seekSupersedesScrubEnd() async throws {
        let h = try await FakeHarness.loaded()
        defer { h.gate.open() }
        let scrub = h.player.scrub
        let ended = OutcomeBox<ScrubSessionResult>(), seeked = OutcomeBox<SeekOutcome>()
        h.gate.hold()
        scrub.beginScrubbing(at: .zero)
        scrub.updateScrubbing(to: frame(100))
        scrub.endScrubbing(at: frame(100)) { ended.put(0, $0) }
        try await h.gate.waitForEntries(1)
        #expect(scrub.scrubState == .seeking)

        h.player.seek(to: frame(250), precision: .exact) { seeked.put(0, $0) }
        let result = try #require(try await ended.wait(forCount: 1)[0])
        #expect(result.outcome?.interruption == .superseded)
        #expect(result.sampleCount == 1)
        #expect(scrub.scrubState == .idle, "the transition that ended the end seek ended the session")

        h.gate.open()
        let outcome = try #require(try await seeked.wait(forCount: 1)[0])
        await h.settle()
        #expect(outcome.finished && outcome.landedMediaTime == frame(250))
        #expect(h.player.currentTime == frame(250))
        #expect(h.log.events.compactMap(\.scrubState) == [.scrubbing, .seeking, .idle])
        #expect(h.log.events.filter(\.isAccuracy).count == 1, "the superseded end seek fired no accuracy")
    }

    @Test("A scrub ended while a seek is inside the engine supersedes that seek; its one seek lands, then the session is idle")
    func scrubEndSupersedesSeek() async throws {
        let h = try await FakeHarness.loaded()
        defer { h.gate.open() }
        let scrub = h.player.scrub
        let ended = OutcomeBox<ScrubSessionResult>(), seeked = OutcomeBox<SeekOutcome>()
        h.gate.hold()
        h.player.seek(to: frame(250), precision: .exact) { seeked.put(0, $0) }
        try await h.gate.waitForEntries(1)
        scrub.beginScrubbing(at: .zero)
        scrub.endScrubbing(at: frame(100)) { ended.put(0, $0) }
        let superseded = try #require(try await seeked.wait(forCount: 1)[0])
        #expect(superseded.interruption == .superseded)
        #expect(scrub.scrubState == .seeking)

        h.gate.open()
        let result = try #require(try await ended.wait(forCount: 1)[0])
        await h.settle()
        #expect(result.outcome?.finished == true && result.outcome?.landedMediaTime == frame(100))
        #expect(scrub.scrubState == .idle)
        #expect(h.player.currentTime == frame(100), "the engine's late landing of the superseded seek moved nothing")
        let kinds = h.log.events.map(\.kind)
        #expect(
            kinds == ["start", "scrub.scrubbing", "end", "start", "scrub.seeking", "accuracy", "end", "time", "scrub.idle"],
            "\(kinds)")
    }

    @Test(
        "close() during a step: the step ends noCurrentItem at close, and the playhead never moves after",
        arguments: [RacePhase.queued, .insideEngine])
    func closeDuringStep(phase: RacePhase) async throws {
        let h = try await FakeHarness.loaded()
        defer { h.gate.open() }
        _ = await h.player.seek(to: frame(100))
        await h.settle()
        h.gate.hold()
        let first = Task { await h.player.stepFrame(.forward) }
        try await h.gate.waitForEntries(2)  // the seek above, and this step
        let second: Task<FrameStepResult, Never>? = phase == .queued ? Task { await h.player.stepFrame(.forward) } : nil
        if phase == .queued {
            try await waitUntil("the second step to register") { h.player.machine.read { $0.pendingSteps.count == 2 } }
        }

        let closing = Task { await h.player.close() }
        var results = [await first.value]
        if let second { results.append(await second.value) }
        await h.events.drain()
        let mark = h.log.events.count
        h.gate.open()
        try await withDeadline("close() to return") { await closing.value }
        await h.settle()

        #expect(results.allSatisfy { $0 == .unavailable(.noCurrentItem) }, "\(results)")
        #expect(h.events(since: mark).isEmpty, "events after close(): \(h.events(since: mark))")
        #expect(h.player.currentTime == .zero)
        #expect(!h.log.events.contains(.timeUpdate(frame(101))), "the step's landing was never announced")
        #expect(h.gate.entered.count == 2, "a step queued behind never reached the engine: \(h.gate.entered)")
    }

    @Test("A step asked for while a seek is pending is unavailable with seekInProgress, and does not reach the engine")
    func stepDuringSeek() async throws {
        let h = try await FakeHarness.loaded()
        defer { h.gate.open() }
        h.gate.hold()
        h.player.seek(to: frame(40), precision: .exact) { _ in }
        try await h.gate.waitForEntries(1)
        #expect(await h.player.stepFrame(.forward) == .unavailable(.seekInProgress))
        #expect(h.gate.entered == [.seek(frame(40))])
    }
}
