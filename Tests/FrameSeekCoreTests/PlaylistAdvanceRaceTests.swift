// A playlist advance whose next item is still opening when the user pauses, or when a later
// load overtakes it. The engine's queue is held (suspended) so the pause or the other load
// registers while the advance's load waits for the engine: no sleeps, one ordering, forced.

import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: a playlist advance raced by pause() or another load")
struct PlaylistAdvanceRaceTests {
    /// A playing harness on the playlist `[300 frames, 240 frames]`, first item current.
    private static func playingPlaylist() async throws -> PlaybackHarness {
        let h = PlaybackHarness()
        try await h.player.setPlaylist([PlaybackHarness.media(300), PlaybackHarness.media(240)])
        try await h.play()
        #expect(h.player.isPlaying)
        return h
    }

    /// `advanceToNextItem()` on `h`, with the engine's queue held until its load registered and
    /// `meanwhile` ran; returns the advance's result once it and the queues have settled.
    private static func advance(
        _ h: PlaybackHarness, meanwhile: () async throws -> Void
    ) async throws -> URL? {
        let before = h.player.machine.read(\.generation)
        h.player.host.queue.suspend()
        let advancing = Task { try await h.player.advanceToNextItem() }
        try await waitUntil("the advance's load registered") { h.player.machine.read(\.generation) == before + 1 }
        try await meanwhile()
        h.player.host.queue.resume()
        let advanced = try await withDeadline("the advance") { await advancing.result }.get()
        await h.settle()
        return advanced
    }

    @Test("pause() while the next item opens: the next item does not play")
    func pauseDuringAdvance() async throws {
        let h = try await Self.playingPlaylist()
        defer { h.gate.open() }
        let advanced = try await Self.advance(h) { h.player.pause() }

        #expect(advanced == PlaybackHarness.media(240))
        #expect(h.player.media?.path == PlaybackHarness.media(240).path)
        #expect(!h.player.isPlaying, "paused while the next item opened, yet it plays")
    }

    @Test("An advance overtaken by load(C) returns nil and does not play C")
    func advanceOvertakenByLoad() async throws {
        let h = try await Self.playingPlaylist()
        defer { h.gate.open() }
        let before = h.player.machine.read(\.generation)
        let other = PlaybackHarness.media(120)
        var loading: Task<Void, any Error>?
        let advanced = try await Self.advance(h) {
            loading = Task { try await h.player.load(other) }
            try await waitUntil("load(C) registered") { h.player.machine.read(\.generation) == before + 2 }
        }
        try await loading?.value

        #expect(advanced == nil, "the advance's item was never installed, yet it was returned")
        #expect(h.player.media?.path == other.path)
        #expect(!h.player.isPlaying, "load(C) stops playback; the overtaken advance must not restart it")
        #expect(h.player.playlistIndex == 1, "the playlist moved on, as after a failed load")
    }

    @Test("pause() while the item after an end opens: it does not play")
    func pauseDuringAdvanceAfterEnd() async throws {
        let h = try await Self.playingPlaylist()
        defer { h.gate.open() }
        let before = h.player.machine.read(\.generation)
        let first = try #require(h.player.machine.read(\.item?.identity))
        h.player.host.queue.suspend()
        // What a tick's commit does on reaching the end of the first item at rate 1.
        let afterEnd = try #require(h.player.machine.update { $0.registerAdvance(afterEndOf: first, playingAt: 1) })
        h.player.advance(afterEnd: afterEnd)
        try await waitUntil("the advance's load registered") { h.player.machine.read(\.generation) == before + 1 }
        h.player.pause()
        h.player.host.queue.resume()
        try await waitUntil("the next item installed") { h.player.machine.read { $0.item?.identity != first && !$0.loading } }
        await h.settle()

        #expect(h.player.media?.path == PlaybackHarness.media(240).path)
        #expect(!h.player.isPlaying, "paused while the next item opened, yet it plays")
    }

    @Test("play(rate: 2) while the next item opens: it plays at 2 once loaded")
    func playDuringAdvance() async throws {
        let h = try await Self.playingPlaylist()
        defer { h.gate.open() }
        var played: Result<Void, PlaybackError>?
        _ = try await Self.advance(h) { played = Result { () throws(PlaybackError) in try h.player.play(rate: 2) } }

        #expect((try? played?.get()) != nil, "play(rate:) during the advance was refused: \(String(describing: played))")
        #expect(h.player.isPlaying && h.player.rate == 2, "playing \(h.player.isPlaying) at \(h.player.rate), want 2")
    }

    @Test("Next pressed as an item ends, many times: Next is never overtaken, and its item plays")
    func userAdvanceRacingEndAdvance() async throws {
        // A first item of 30 frames ends within the 1.2 s the clock moves.
        let items = [PlaybackHarness.media(30), PlaybackHarness.media(240), PlaybackHarness.media(120)]
        let h = PlaybackHarness()
        defer { h.gate.open() }
        var wrong: [String] = []
        for round in 0..<Self.rounds {
            try await h.player.setPlaylist(items)
            try await h.play()
            let ending = Task.detached { await h.advance(ms: 1200) }
            let advanced = try await h.player.advanceToNextItem()
            await ending.value
            try await waitUntil("both advances settled") { h.player.machine.read { !$0.loading && $0.pendingResume == nil } }
            await h.settle()
            // Either the end's advance came first (then Next goes one further) or Next came
            // first and the end's gave way: Next's own item is current, and plays.
            if advanced == nil || h.player.media?.path != advanced?.path || !h.player.isPlaying {
                wrong.append(
                    "round \(round): Next gave \(advanced?.lastPathComponent ?? "nil"), current \(h.player.media?.path ?? "none"), playing \(h.player.isPlaying)"
                )
            }
        }
        #expect(wrong.count == 0, "\(wrong.count) of \(Self.rounds) rounds: \(wrong.first ?? "")")
    }

    static let rounds = 500
}
