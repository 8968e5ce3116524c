// The Player's races: a seek queued behind a load, an
// end seek followed at once by a new scrub, the order of seek events, a close while a step is
// queued or running, and a seek that follows an interrupted decode in the same GOP.
//
// The races are made deterministic without sleeping: the engine's queue is suspended
// (`player.host.queue`, through `@testable import FrameSeekCore`) so work registers but does
// not run, and the player's own async calls are started on a serial task executor of the
// test's, so the test knows when such a call has run up to its first suspension (it has
// queued its engine work) and can hold its continuation. The one exception is the last test,
// where the point a decode is interrupted at varies; what it checks holds wherever that is.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Synchronization
import Testing

/// A task executor on a serial dispatch queue of its own. A task started with it as its
/// preference runs its synchronous stretches there, so `drain()` returns once such a task has
/// run up to its first suspension (for a player call: its engine work is queued), and
/// `hold()` keeps the task from going on after a suspension until `release()`.
final class SerialTaskExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `queue` is a serial dispatch queue (thread-safe) and `gate` is thread-safe.
    private let queue: DispatchQueue
    private let gate: Suspension

    init(_ label: String) {
        queue = DispatchQueue(label: label)
        gate = Suspension(queue)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Returns once every job enqueued so far has run. Not while held.
    func drain() { queue.sync {} }
    /// Jobs enqueued from now on wait until `release()`.
    func hold() { gate.suspend() }
    /// Lets held jobs run; harmless when not held.
    func release() { gate.resume() }
}

extension PlayerEvent {
    var isTimeUpdate: Bool { if case .timeUpdate = self { true } else { false } }
    var accuracyOutcome: SeekOutcome? { if case .accuracy(let o) = self { o } else { nil } }
    var seekStartTarget: MediaTime? { if case .seekStart(let t) = self { t } else { nil } }
}

@Suite("Player: a seek behind a load, an end seek and a new scrub, event order, close during a step", .ffmpegLog)
struct PlayerRaceTests {
    // MARK: (a) a seek queued behind a load

    @Test(
        "load(B) with a seek queued behind it: the seek lands on B and load() does not reset the playhead",
        arguments: [true, false])
    func seekQueuedBehindLoad(completionForm: Bool) async throws {
        let (h, _) = try await Harness.gop250(seekingTo: 200)
        let fixtureB = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let b = try Oracle(fixtureB)
        let target = 70
        let player = h.player
        let loader = SerialTaskExecutor("test.loader"), seeker = SerialTaskExecutor("test.seeker")
        defer {
            h.resumeEngine()
            loader.release()
        }

        h.suspendEngine()
        let loading = Task(executorPreference: loader) {
            try await player.load(URL(fileURLWithPath: fixtureB.path))
        }
        loader.drain()  // load() has cancelled A's seeks and queued the open of B on the engine
        loader.hold()  // and what it does after the engine work waits until released
        #expect(player.media?.path == Fixtures.gop250Path, "B is not open yet")

        let box = OutcomeBox<SeekOutcome>()
        if completionForm {
            player.seek(to: b.middle(target), precision: .exact) { box.put(0, $0) }
        } else {
            let seeking = Task(executorPreference: seeker) { await player.seek(to: b.middle(target), precision: .exact) }
            seeker.drain()  // the seek is registered and queued behind the load
            Task { box.put(0, await seeking.value) }
        }
        h.resumeEngine()

        let outcome = try #require(try await box.wait(forCount: 1)[0])
        #expect(outcome.finished, "the seek queued behind the load lands: \(outcome.summary)")
        #expect(outcome.frameIndex == target)
        #expect(outcome.landedMediaTime == b.time(target))
        #expect(player.currentTime == b.time(target), "the playhead is where the seek landed, on B")
        #expect(player.media?.path == fixtureB.path)

        loader.release()  // load() returns only now: it must not move the playhead back to B's start
        let loaded = try await withDeadline("load() to return") { await loading.result }
        #expect((try? loaded.get()) != nil, "load(B) succeeded: \(loaded)")
        #expect(player.currentTime == b.time(target), "load() returned after the seek landed and reset nothing")
        #expect(player.currentTime == outcome.landedMediaTime)
        #expect(player.seekableRange?.lowerBound == b.time(0))
        await h.drainEvents()
        let updates = h.log.events.compactMap { if case .timeUpdate(let t) = $0 { t } else { nil } }
        #expect(updates.last == b.time(target), "the last time update is the seek's landing")
        #expect(h.log.events.last == .timeUpdate(b.time(target)))
        // The playhead and the engine agree: a step goes on from the seek's frame on B.
        #expect(await player.stepFrame(.forward) == .stepped(.forward, landedMediaTime: b.time(target + 1)))
    }

    // MARK: (b) endScrubbing immediately followed by beginScrubbing

    @Test("endScrubbing(completion:) then beginScrubbing at once: the new session keeps scrubbing, the old end seek is superseded")
    func beginRightAfterEnd() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 20)
        let player = h.player
        let scrub = player.scrub
        scrub.beginScrubbing(at: player.currentTime)
        for i in 0..<5 { scrub.updateScrubbing(to: oracle.middle(100 + i)) }
        await h.drainEngine()
        // The old session's position events are delivered asynchronously: taken before they
        // all arrive, the mark let one in among the new session's (seen under ThreadSanitizer).
        await h.drainEvents()
        let seeksBefore = h.probe.seekCount
        let mark = h.log.events.count

        h.suspendEngine()
        defer { h.resumeEngine() }
        let box = OutcomeBox<ScrubSessionResult>()
        scrub.endScrubbing(at: oracle.middle(104), precision: .exact) { box.put(0, $0) }
        // No waiting for the seeking state: the end seek was registered before endScrubbing returned.
        scrub.beginScrubbing(at: oracle.middle(104))
        #expect(scrub.scrubState == .scrubbing)
        for i in 0..<9 { scrub.updateScrubbing(to: oracle.middle(200 + i)) }
        h.resumeEngine()

        let result = try #require(try await box.wait(forCount: 1)[0])
        let outcome = try #require(result.outcome, "the old session had a session and issued its seek")
        #expect(outcome.interruption == .superseded, "\(outcome.summary)")
        #expect(!result.wasCancelled)
        #expect(result.sampleCount == 5, "the old session's count")
        await h.drainEngine()
        await h.drainEvents()
        #expect(scrub.scrubState == .scrubbing, "the old end seek does not end the new session")
        #expect(scrub.isActive)
        #expect(scrub.sampleCount == 9, "the new session counts its own updates")
        #expect(h.probe.seekCount == seeksBefore, "the superseded end seek never reached the engine")
        #expect(player.currentTime == oracle.time(20))
        let events = h.events(since: mark)
        #expect(events.compactMap(\.scrubState) == [.seeking, .scrubbing], "no idle from the old session: \(events.map(\.kind))")
        let positions = events.compactMap(\.scrubPosition)
        #expect(
            positions.first?.sampleCount == 1 && positions.first?.time == oracle.middle(200),
            "the new session's first update is its own position event: \(positions)")
        #expect(h.log.allOnExpectedQueue)

        // The new session ends with its own seek, normally.
        let second = try await withDeadline("the new session's end") {
            await scrub.endScrubbing(at: oracle.middle(208), precision: .exact)
        }
        #expect(second.outcome?.frameIndex == 208)
        #expect(second.sampleCount == 9)
        #expect(scrub.scrubState == .idle)
        #expect(player.currentTime == oracle.time(208))
    }

    // MARK: (c) event order

    @Test(
        "Back-to-back completion-form seeks: seek-start, accuracy and seek-end events follow the order the seeks were issued",
        arguments: [false, true])
    func eventOrder(engineSuspended: Bool) async throws {
        let (h, oracle) = try await Harness.gop250()
        let player = h.player
        // Many rounds of many seeks: a reordering shows in most runs within a second.
        let total = 100, rounds = 40
        var outOfOrder: [String] = []
        defer { h.resumeEngine() }
        for round in 0..<rounds {
            // Distinct frames all over the file (37 is prime to 360), different each round.
            let frames = (0..<total).map { (($0 + round * total) * 37 + 11) % oracle.count }
            let targets = frames.map { oracle.middle($0) }
            await h.drainEvents()
            let mark = h.log.events.count
            let box = OutcomeBox<SeekOutcome>()
            if engineSuspended { h.suspendEngine() }
            for (n, target) in targets.enumerated() {
                player.seek(to: target, precision: .exact) { box.put(n, $0) }
            }
            h.resumeEngine()
            let outcomes = try await box.wait(forCount: total)
            await h.drainEvents()
            let events = h.events(since: mark)
            let context = "round \(round)"

            #expect(events.compactMap(\.seekStartTarget) == targets, "\(context): seek starts in issue order")
            // Each seek's events sit between its start and the next seek's start: a seek is
            // reported by the transition that ends it, which comes before the next start at
            // the latest. Accuracy only for a seek that landed.
            var groups: [[PlayerEvent]] = []
            for event in events {
                if event.isSeekStart { groups.append([event]) } else if !groups.isEmpty { groups[groups.count - 1].append(event) }
            }
            #expect(groups.count == total, "\(context)")
            for (n, group) in groups.enumerated() {
                let outcome = try #require(outcomes[n], "\(context): seek \(n) completed")
                let expected = outcome.finished ? ["start", "accuracy", "end", "time"] : ["start", "end"]
                if group.map(\.kind) != expected {
                    outOfOrder.append("\(context): seek \(n) (\(outcome.summary)) reported \(group.map(\.kind))")
                }
                if outcome.finished { #expect(group[1].accuracyOutcome == outcome, "\(context): seek \(n)") }
                #expect(outcome.finished || outcome.interruption == .superseded, "\(context): seek \(n): \(outcome.summary)")
            }
            // The last issued seek is never superseded; it lands and moves the playhead.
            let last = try #require(outcomes[total - 1])
            #expect(last.finished && last.frameIndex == frames[total - 1], "\(context): \(last.summary)")
            #expect(player.currentTime == oracle.time(frames[total - 1]))
            if engineSuspended {
                #expect(outcomes.values.filter(\.finished).count == 1, "\(context): only the last issued seek lands")
            }
        }
        #expect(
            outOfOrder.isEmpty,
            "seek events out of issue order in \(outOfOrder.count) of \(rounds) rounds of \(total) seeks; \(outOfOrder.prefix(3).joined(separator: "; "))"
        )
        #expect(h.log.allOnExpectedQueue)
    }

    // MARK: (d) close while a step is queued or running

    @Test("close() while a step is queued on the engine: the playhead is zero and no time update comes after close returns")
    func closeWithStepQueued() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        await h.settle()
        let player = h.player
        let stepper = SerialTaskExecutor("test.stepper"), closer = SerialTaskExecutor("test.closer")
        defer { h.resumeEngine() }

        h.suspendEngine()
        let stepping = Task(executorPreference: stepper) { await player.stepFrame(.forward) }
        stepper.drain()  // the step passed its checks (nothing in flight) and is queued on the engine
        let closing = Task(executorPreference: closer) { await player.close() }
        closer.drain()  // close() has unloaded the item and queued the engine's release behind the step
        #expect(player.currentTime == .zero)
        #expect(player.seekableRange == nil)
        h.resumeEngine()

        try await withDeadline("close() to return") { await closing.value }
        let mark = h.log.events.count
        #expect(player.currentTime == .zero, "right after close()")
        let result = try await withDeadline("the step") { await stepping.value }
        await h.drainEvents()
        #expect(h.probe.stepCount == 0, "the item the step was for is gone, so it never reaches the engine: \(result)")
        #expect(result == .unavailable(.noCurrentItem))
        #expect(player.currentTime == .zero, "the step that ran after close() did not move the playhead")
        #expect(player.duration == .indefinite)
        let late = h.events(since: mark).filter(\.isTimeUpdate)
        #expect(late.isEmpty, "time updates after close() returned: \(late)")
        #expect(
            !h.log.events.contains(.timeUpdate(oracle.time(101))) && !h.log.events.contains(.timeUpdate(oracle.time(1))),
            "the step's landing was never announced")
        #expect(await player.stepFrame(.forward) == .unavailable(.noCurrentItem))
    }

    @Test("close() while a step is inside the engine: the playhead is zero and no time update comes after close returns")
    func closeWithStepRunning() async throws {
        let (h, oracle) = try await Harness.gop250(seekingTo: 100)
        await h.settle()
        let player = h.player
        let closer = SerialTaskExecutor("test.closer")
        let closing = Locked<Task<Void, Never>?>(nil)
        // The step has read the playhead and is entering the FFmpeg engine when close() runs
        // its synchronous part (state reset) and queues the engine's release behind the step.
        h.probe.setBeforeStep { [weak player] number in
            guard number == 1, let player else { return }
            // Held until the task is stored: close() ends the step at once, and the test reads
            // `closing` as soon as the step returns.
            closer.hold()
            let task = Task(executorPreference: closer) { await player.close() }
            closing.withLock { $0 = task }
            closer.release()
            closer.drain()
        }
        defer { h.probe.setBeforeStep(nil) }

        let result = try await withDeadline("the step") { await player.stepFrame(.forward) }
        #expect(result == .unavailable(.noCurrentItem), "close() ended the step it raced: \(result)")
        #expect(h.probe.stepCount == 1, "the step was inside the engine when close() ran")
        let task = try #require(closing.withLock { $0 })
        try await withDeadline("close() to return") { await task.value }
        let mark = h.log.events.count
        await h.settle()
        #expect(player.currentTime == .zero, "the step that finished after close() began did not move the playhead")
        let late = h.events(since: mark)
        #expect(late.filter(\.isTimeUpdate).isEmpty, "time updates after close() returned: \(late)")
        #expect(!h.log.events.contains(.timeUpdate(oracle.time(101))), "the step's landing was never announced")
    }

    // MARK: (e) a seek after an interrupted decode in the same GOP

    /// (first target, later target): later in the GOP than the first, and earlier than the first
    /// but after where its decode was interrupted (below the first's skip threshold).
    static let interruptedPairs: [(Int, Int)] = [(100, 200), (240, 120), (240, 60), (150, 149)]

    @Test(
        "After a seek interrupted mid-decode, a seek later in the same GOP lands right and decodes no more than from its keyframe",
        arguments: interruptedPairs.map { [$0.0, $0.1] })
    func seekAfterInterruptedDecode(_ pair: [Int]) async throws {
        let (first, later) = (pair[0], pair[1])
        let (h, oracle) = try await Harness.gop250(hashingPictures: true)
        let player = h.player
        let md5s = try #require(oracle.md5s)
        let keyframe = try #require(oracle.keyframes.last { $0 <= later })
        #expect(oracle.keyframes.last { $0 <= first } == keyframe, "both targets are in one GOP")
        let reorderAllowance = 4  // 3 B-frames in this fixture, plus one
        var interruptedMidDecode = 0

        // The newer seek is issued from another thread some time after the older one entered the
        // FFmpeg engine, so the older one stops at various points of its decode (or even lands).
        let delays: [Duration] = [
            .zero, .microseconds(300), .milliseconds(1), .milliseconds(2), .milliseconds(4),
            .milliseconds(7), .milliseconds(12)
        ]
        for delay in delays {
            // A fresh engine for each attempt: an empty frame cache and a decoder at the start,
            // so the older seek decodes from keyframe 0.
            try await h.load(Fixtures.gop250)
            let (older, newer) = try await h.seekSuperseding(first, by: later, in: oracle, from: .newThread(after: delay))
            let context = "first \(first), later \(later), delay \(delay)"
            #expect(older.finished || older.interruption == .superseded, "\(context): older \(older.summary)")
            #expect(newer.finished, "\(context): newer \(newer.summary)")
            #expect(newer.frameIndex == later, "\(context): landed \(newer.frameIndex ?? -1)")
            #expect(player.currentTime == oracle.time(later), "\(context)")
            #expect(
                newer.framesDecoded <= later - keyframe + reorderAllowance,
                "\(context): decoded \(newer.framesDecoded) frames; from keyframe \(keyframe) it takes \(later - keyframe)")

            let inner = h.probe.innerSeeks
            guard case .landed(let index, let decoded, let md5)? = inner.last else {
                Issue.record("\(context): the newer seek did not land in the engine: \(inner.suffix(2))")
                continue
            }
            #expect(index == later && decoded == newer.framesDecoded, "\(context)")
            #expect(md5 == md5s[later], "\(context): the landed picture is framemd5's frame \(later)")
            if case .threw(let error) = inner[inner.count - 2], (error.framesBeforeInterruption ?? 0) > 0 {
                interruptedMidDecode += 1
            }
        }
        // At least one attempt really stopped the older seek in the middle of its decode.
        #expect(interruptedMidDecode > 0, "no attempt interrupted the older seek mid-decode")
    }
}

extension Fixtures {
    static var gop250Path: String { FixtureCatalog.fixture("h264_bframes_gop250.s0")?.path ?? "" }
}
