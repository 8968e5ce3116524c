// A load overtaken by a later load that fails. The player keeps the item it had (a failed load
// keeps the previous item), so the engine must stay that item's: before the fix, the overtaken
// load's engine became current and served the kept item's seeks with another file's frames.
// The engine's queue is held so both loads register before either opens.

import Dispatch
import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: a load overtaken by a failing load")
struct PlayerLoadRaceTests {
    @Test("load(B) overtaken by load(C) that fails: item A stays, and A's engine serves its seeks")
    func overtakenLoadKeepsEngine() async throws {
        let h = try await FakeHarness.loaded(300)
        defer { h.gate.open() }
        let before = h.player.machine.read(\.generation)
        h.player.host.queue.suspend()
        let loadB = Task { try await h.player.load(FakeHarness.media(200)) }
        try await waitUntil("load(B) registered") { h.player.machine.read(\.generation) == before + 1 }
        // `0.fake` names no media: the fake factory refuses it.
        let loadC = Task { try await h.player.load(FakeHarness.media(0)) }
        try await waitUntil("load(C) registered") { h.player.machine.read(\.generation) == before + 2 }
        h.player.host.queue.resume()
        try await loadB.value
        await #expect(throws: MediaError.self) { try await loadC.value }

        #expect(h.player.media?.path == FakeHarness.media(300).path, "the failed load keeps item A")
        // Frame 250 exists in A (300 frames) but not in B (200): B's engine would clamp to 199.
        let outcome = await h.player.seek(to: MediaTime(value: 250, timescale: 30))
        #expect(outcome.frameIndex == 250 && outcome.clamp == .none, "A's seek served by another engine: \(outcome)")
    }
}
