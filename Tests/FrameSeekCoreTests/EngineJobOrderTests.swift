// The engine's queue runs jobs in the order of the transitions that made them. A seek asked for
// just after load(B) began is B's seek, and a close() just before load(B) must not unload B's
// engine; before the fix each depended on which task reached the queue first. The windows are
// a few instructions wide and cannot be held open from outside, so these run the race many
// times with the racing call made the moment the transition before it is visible.

import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: engine jobs in the order of their transitions")
struct EngineJobOrderTests {
    static let rounds = 1_000

    @Test("A seek asked for the moment load() begins lands on the new item, never the old")
    func seekJustAfterLoadBegins() async throws {
        let h = try await FakeHarness.loaded(300)
        defer { h.gate.open() }
        var wrong: [String] = []
        for round in 0..<Self.rounds {
            // Items alternate, so the engine still on the queue is always the other length's.
            let frames = round.isMultiple(of: 2) ? 200 : 300
            let before = h.player.machine.read(\.generation)
            let outcome = Locked<SeekOutcome?>(nil)
            let seeker = Thread {
                var budget = WaitBudget(deadlockGuard)
                while h.player.machine.read(\.generation) == before, !budget.isSpent() {}
                h.player.seek(to: MediaTime(value: 250, timescale: 30)) { o in outcome.withLock { $0 = o } }
            }
            seeker.start()
            try await h.player.load(FakeHarness.media(frames))
            try await waitUntil("the seek's reply") { outcome.withLock { $0 != nil } }
            // Frame 250 is in the 300-frame item; the 200-frame one clamps it to its last, 199.
            let landed = outcome.withLock { $0 }?.frameIndex
            if landed != (frames == 200 ? 199 : 250) {
                wrong.append("round \(round), \(frames) frames: landed \(String(describing: landed))")
            }
        }
        #expect(wrong.count == 0, "\(wrong.count) of \(Self.rounds) seeks landed on the engine of the item before: \(wrong.first ?? "")")
    }

    @Test("close() racing load(B): when B is current, its engine serves it")
    func closeRacingLoad() async throws {
        let h = try await FakeHarness.loaded(300)
        defer { h.gate.open() }
        var orphaned = 0
        for _ in 0..<Self.rounds {
            let closing = Task.detached { await h.player.close() }
            let loading = Task.detached { try await h.player.load(FakeHarness.media(200)) }
            await closing.value
            try await loading.value
            guard h.player.media != nil else {
                try await h.player.load(FakeHarness.media(200))
                continue
            }
            let outcome = await h.player.seek(to: MediaTime(value: 30, timescale: 30))
            if outcome.frameIndex != 30 { orphaned += 1 }
        }
        #expect(orphaned == 0, "\(orphaned) of \(Self.rounds) rounds left the loaded item with no engine")
    }

    @Test("A step while load() opens its item is unavailable (no current item), and the engine never sees it")
    func stepWhileLoading() async throws {
        let h = try await FakeHarness.loaded(300)
        defer { h.gate.open() }
        _ = await h.player.seek(to: MediaTime(value: 100, timescale: 30))
        let before = h.player.machine.read(\.generation)
        let entered = h.gate.entered.count
        h.player.host.queue.suspend()
        let loading = Task { try await h.player.load(FakeHarness.media(200)) }
        try await waitUntil("load(B) registered") { h.player.machine.read(\.generation) == before + 1 }
        let now = { h.player.stepFrame(.forward) }()  // the synchronous form
        let answered = Locked(false)
        let later = Task {
            defer { answered.withLock { $0 = true } }
            return await h.player.stepFrame(.forward)
        }
        try await waitUntil("the async step answered or queued") {
            answered.withLock { $0 } || h.player.machine.read { !$0.pendingSteps.isEmpty }
        }
        h.player.host.queue.resume()
        try await loading.value

        #expect(now == .unavailable(.noCurrentItem), "a step predicted from the item that ended: \(now)")
        #expect(await later.value == .unavailable(.noCurrentItem))
        #expect(h.gate.entered.count == entered, "a step of no item reached the engine: \(h.gate.entered.dropFirst(entered))")
        #expect(h.player.currentTime == .zero, "the new item starts at its start")
    }
}
