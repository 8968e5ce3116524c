// Bursts of seeks: only the last one issued finishes, the others are superseded and come back
// without decoding their GOP, and nothing deadlocks. The engine's queue is suspended while the
// burst registers, so "last issued" is known and the result does not depend on timing.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Synchronization
import Testing

@Suite("Player: bursts of seeks", .ffmpegLog)
struct PlayerBurstTests {
    /// Seek number `n`'s target frame: spread over the whole file, never the final one's.
    static func frame(_ n: Int, in oracle: Oracle) -> Int { (n * 7 + 3) % oracle.count }

    @Test("200 completion-handler seeks from several tasks: only the last issued finishes")
    func completionBurst() async throws {
        let (h, oracle) = try await Harness.gop250()
        let box = OutcomeBox<SeekOutcome>()
        let finalFrame = 137, total = 200, tasks = 4
        let player = h.player

        h.suspendEngine()
        defer { h.resumeEngine() }
        // 199 seeks from four tasks at once, each issuing one contiguous block ...
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<tasks {
                group.addTask {
                    let block = (total - 1 + tasks - 1) / tasks
                    for n in (t * block)..<min((t + 1) * block, total - 1) {
                        player.seek(to: oracle.middle(Self.frame(n, in: oracle)), precision: .exact) { box.put(n, $0) }
                    }
                }
            }
        }
        // ... and, after the barrier, the final one: the last issued.
        player.seek(to: oracle.middle(finalFrame), precision: .exact) { box.put(total - 1, $0) }
        #expect(h.probe.seekCount == 0, "nothing runs while the engine's queue is suspended")
        h.resumeEngine()

        let outcomes = try await box.wait(forCount: total)
        #expect(outcomes.count == total)
        let last = try #require(outcomes[total - 1])
        #expect(last.finished, "\(last.summary)")
        #expect(last.interruption == nil)
        #expect(last.frameIndex == finalFrame)
        #expect(last.landedMediaTime == oracle.time(finalFrame))
        #expect(last.withinRequestedTolerance)
        let others = outcomes.filter { $0.key != total - 1 }.map(\.value)
        #expect(others.count == total - 1)
        #expect(
            others.allSatisfy { $0.interruption == .superseded && !$0.finished && $0.framesDecoded == 0 },
            "\(Dictionary(grouping: others, by: \.summary).mapValues(\.count))")
        // Each reports the playhead where it stayed, on the first frame, and is not within tolerance.
        #expect(others.allSatisfy { $0.landedMediaTime == oracle.time(0) && !$0.withinRequestedTolerance })
        #expect(h.player.currentTime == oracle.time(finalFrame))
        // The superseded seeks never reached the FFmpeg engine: one decode for the whole burst.
        #expect(h.probe.seekCount == 1)
        let inner = h.probe.innerSeeks
        #expect(inner.count == 1)
        if case .landed(let index, _, _)? = inner.first { #expect(index == finalFrame) } else { Issue.record("\(inner)") }

        // Listeners heard every seek; exactly one accuracy event is for a finished seek.
        await h.drainEvents()
        let accuracies = h.log.events.compactMap { if case .accuracy(let o) = $0 { o } else { nil } }
        #expect(accuracies.count == 1, "onSeekAccuracy only for the seek that landed")
        #expect(accuracies.filter(\.finished).count == 1)
        #expect(h.log.events.filter(\.isSeekStart).count == total)
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("200 async seeks from a task group, registered before the engine runs: exactly one finishes")
    func asyncBurstSuspended() async throws {
        let (h, oracle) = try await Harness.gop250()
        let total = 200
        let player = h.player
        let mark = h.log.events.count

        h.suspendEngine()
        defer { h.resumeEngine() }
        let results = try await withDeadline("the async burst") {
            await withTaskGroup(of: (Int, SeekOutcome).self) { group in
                for n in 0..<total {
                    group.addTask { (n, await player.seek(to: oracle.middle(Self.frame(n, in: oracle)), precision: .exact)) }
                }
                // Every seek has registered once the delegate heard 200 starts; the one that
                // registered last is the player's active seek.
                let lastTarget: MediaTime? = await {
                    try? await h.log.wait(for: "200 seek starts") { $0.dropFirst(mark).filter(\.isSeekStart).count >= total }
                    return player.machine.read { $0.activeSeek?.target }
                }()
                h.resumeEngine()
                var all: [(Int, SeekOutcome)] = []
                for await result in group { all.append(result) }
                return (lastTarget, all)
            }
        }
        let (lastTarget, outcomes) = results
        let target = try #require(lastTarget, "the delegate heard fewer than 200 seek starts")
        #expect(outcomes.count == total)
        let finished = outcomes.filter { $0.1.finished }
        try #require(finished.count == 1, "\(finished.map(\.0))")
        let (n, winner) = finished[0]
        #expect(winner.requestedMediaTime == target, "the seek that registered last is the one that finished")
        #expect(winner.frameIndex == Self.frame(n, in: oracle))
        #expect(winner.landedMediaTime == oracle.time(Self.frame(n, in: oracle)))
        #expect(outcomes.filter { !$0.1.finished }.allSatisfy { $0.1.interruption == .superseded })
        #expect(player.currentTime == winner.landedMediaTime)
        #expect(h.probe.seekCount == 1)
    }

    @Test("200 async seeks from a task group with the engine running: each finished or superseded, no deadlock")
    func asyncBurstRunning() async throws {
        let (h, oracle) = try await Harness.gop250()
        let total = 200
        let player = h.player
        let outcomes = try await withDeadline("the async burst") {
            await withTaskGroup(of: SeekOutcome.self) { group in
                for n in 0..<total {
                    group.addTask { await player.seek(to: oracle.middle(Self.frame(n, in: oracle)), precision: .exact) }
                }
                var all: [SeekOutcome] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
        }
        #expect(outcomes.count == total)
        #expect(
            outcomes.allSatisfy { $0.finished || $0.interruption == .superseded },
            "\(Dictionary(grouping: outcomes, by: \.summary).mapValues(\.count))")
        let finished = outcomes.filter(\.finished)
        // The seek that registered last is never superseded, so at least one finished, and the
        // playhead sits where one of the finished seeks landed.
        #expect(!finished.isEmpty)
        #expect(finished.contains { $0.landedMediaTime == player.currentTime })
        for outcome in finished {
            let index = try #require(outcome.frameIndex)
            #expect(outcome.landedMediaTime == oracle.time(index))
            #expect(outcome.requestedMediaTime == oracle.middle(index))
        }
        #expect(h.probe.seekCount <= total)
        // The player is still usable: a seek after the burst lands.
        let after = try await withDeadline("a seek after the burst") { await player.seek(to: oracle.middle(42)) }
        #expect(after.finished && after.frameIndex == 42)
    }

    /// What both superseded-seek tests check: the seek to 240 was superseded before its GOP was
    /// decoded, and the seek to 10 landed and moved the playhead.
    static func expectSupersededBy10(_ older: SeekOutcome, _ newer: SeekOutcome, _ h: Harness, _ oracle: Oracle) {
        #expect(older.interruption == .superseded)
        #expect(older.framesDecoded < 240)
        #expect(newer.finished && newer.frameIndex == 10)
        #expect(h.player.currentTime == oracle.time(10))
    }

    @Test("A superseded seek stops before decoding its GOP (flag set as the engine starts)")
    func supersededBeforeDecoding() async throws {
        let (h, oracle) = try await Harness.gop250()
        // Frame 240 is 240 frames of decoding from keyframe 0. The newer seek is issued from
        // the engine's queue once the older one has reached the FFmpeg engine.
        let (older, newer) = try await h.seekSuperseding(240, by: 10, in: oracle, from: .engineQueue)
        #expect(older.error == nil, "an interruption is not an error")
        Self.expectSupersededBy10(older, newer, h, oracle)
        // What the FFmpeg engine really did for the older seek: it saw the flag before decoding.
        let first = try #require(h.probe.innerSeeks.first)
        guard case .threw(let error) = first else { Issue.record("the superseded seek landed: \(first)"); return }
        #expect(error.reason == .interrupted)
        #expect(error.framesBeforeInterruption == 0, "\(error.cause)")
    }

    @Test("A superseded seek stops decoding mid-GOP (flag set from another thread while it decodes)")
    func supersededWhileDecoding() async throws {
        let (h, oracle) = try await Harness.gop250()
        // As the older seek enters the FFmpeg engine, another thread issues the newer one; the
        // engine polls the flag between packets and must stop long before frame 240. The one
        // timing assumption in these tests: a new thread gets to run within the ~20 ms the
        // whole 240-frame decode takes (it typically sets the flag before frame 1). The
        // deterministic variant is `supersededBeforeDecoding`.
        let (older, newer) = try await h.seekSuperseding(240, by: 10, in: oracle, from: .newThread(after: .zero))
        Self.expectSupersededBy10(older, newer, h, oracle)
        let first = try #require(h.probe.innerSeeks.first)
        switch first {
        case .threw(let error):
            #expect(error.reason == .interrupted)
            let decoded = try #require(error.framesBeforeInterruption, "\(error.cause)")
            #expect(decoded < 120, "the engine decoded \(decoded) frames of a superseded seek")
        case .landed(_, let decoded, _):
            Issue.record("the superseded seek decoded all \(decoded) frames to its target before noticing")
        }
    }
}
