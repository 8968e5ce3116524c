// ResumeTracker over the fake engine and a counting in-memory store, on the virtual clock of
// PlaybackHarness: restore before the first frame, per-item keys, save throttling in playback
// time, completion, the minimum, playlists and close.

import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

private func secs(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1) }

@Suite("Resume: the tracker on a player")
struct ResumeTrackerTests {
    /// A harness with a tracker on a counting store.
    private static func tracked(_ settings: ResumeTracker.Settings = .init()) -> (PlaybackHarness, ResumeTracker, CountingProgressStore) {
        let h = PlaybackHarness()
        let store = CountingProgressStore()
        return (h, ResumeTracker(player: h.player, store: store, settings: settings), store)
    }

    @Test("A saved position is landed on before the first frame: no frame 0 is decoded or heard")
    func restoreBeforeFirstFrame() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(300)
        store.inner.save(SavedProgress(key: tracker.key(for: url), position: MediaTime(value: 41, timescale: 10), duration: secs(10)))
        try await h.player.load(url)
        let landed = PlaybackHarness.frameTime(123)  // 4.1 s × 30
        #expect(h.player.currentTime == landed)
        #expect(h.gate.entered == [.seek(MediaTime(value: 41, timescale: 10))], "the first engine call lands on the saved position")
        try await h.play()
        await h.advance(ms: 100)
        await h.settle()
        #expect(!h.recorder.heardTimes.contains(.zero), "\(h.recorder.events)")
        #expect(h.recorder.events.first == "loaded 300.fake @\(landed.seconds)")
    }

    @Test("Two items never share a position; each resumes at its own")
    func perItemKeys() async throws {
        let (h, tracker, store) = Self.tracked()
        let a = PlaybackHarness.media(300), b = PlaybackHarness.media(240)
        #expect(tracker.key(for: a) != tracker.key(for: b))
        try await h.player.load(a)
        _ = await h.player.seek(to: secs(5))
        try await h.player.load(b)
        #expect(h.player.currentTime == .zero, "b has nothing saved")
        _ = await h.player.seek(to: secs(4))
        await h.player.close()
        await h.settle()
        #expect(store.load(key: tracker.key(for: a))?.position == secs(5))
        #expect(store.load(key: tracker.key(for: b))?.position == secs(4))
        try await h.player.load(a)
        #expect(h.player.currentTime == secs(5))
    }

    @Test("During playback: at most and at least one save per second of playback")
    func throttle() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(600)
        try await h.player.load(url)
        try await h.play()
        for _ in 0..<100 {  // 5 s in 50 ms ticks
            await h.advance(ms: 50)
            let saved = store.load(key: tracker.key(for: url))?.position ?? .zero
            #expect(h.player.currentTime - saved < secs(1), "a kill -9 now loses less than a second")
        }
        let positions = store.saves.map(\.position)
        #expect(positions == (1...5).map { secs($0) }, "\(positions)")
        for (earlier, later) in zip(positions, positions.dropFirst()) { #expect(later - earlier >= secs(1)) }
    }

    @Test("Saves after every seek and on pause")
    func seekAndPause() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(300)
        try await h.player.load(url)
        _ = await h.player.seek(to: secs(4))
        try await h.play()
        await h.advance(ms: 300)
        h.player.pause()
        await h.settle()
        let paused = PlaybackHarness.expectedFrame(atMilliseconds: 4300, count: 300)
        #expect(store.saves.map(\.position) == [secs(4), paused])
        #expect(store.load(key: tracker.key(for: url))?.position == paused)
    }

    @Test("Completion clears: at the end, or stopping within the margin; a finished item starts at the beginning")
    func completion() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(300)  // 10 s
        try await h.player.load(url)
        _ = await h.player.seek(to: secs(6))
        try await h.play()
        await h.advance(ms: 1500)
        await h.advance(ms: 3000)  // past the end
        #expect(store.calls.last == "remove \(tracker.key(for: url))")
        await h.player.close()
        await h.settle()
        #expect(store.load(key: tracker.key(for: url)) == nil, "closing a finished item saves nothing")
        try await h.player.load(url)
        #expect(h.player.currentTime == .zero)

        _ = await h.player.seek(to: secs(8))  // within 3 s of the end
        await h.settle()
        #expect(store.load(key: tracker.key(for: url)) == nil)
    }

    @Test("Positions under the minimum are not resumed; the minimum and margin are settable")
    func minimum() async throws {
        let url = PlaybackHarness.media(300)
        for (settings, expected) in [
            (ResumeTracker.Settings(), MediaTime.zero),
            (ResumeTracker.Settings(minimumResume: secs(1)), secs(2))
        ] {
            let (h, tracker, store) = Self.tracked(settings)
            store.inner.save(SavedProgress(key: tracker.key(for: url), position: secs(2), duration: secs(10)))
            try await h.player.load(url)
            #expect(h.player.currentTime == expected)
        }
        let (h, tracker, store) = Self.tracked(.init(completionMargin: secs(1)))
        store.inner.save(SavedProgress(key: tracker.key(for: url), position: secs(8), duration: secs(10)))
        try await h.player.load(url)
        #expect(h.player.currentTime == secs(8), "8 s is 2 s from the end: resumed with a 1 s margin")
    }

    @Test("A playlist: each item resumes at its own position; advancing saves the old item and erases nothing")
    func playlist() async throws {
        let (h, tracker, store) = Self.tracked()
        let a = PlaybackHarness.media(300), b = PlaybackHarness.media(240)
        store.inner.save(SavedProgress(key: tracker.key(for: a), position: secs(4), duration: secs(10)))
        store.inner.save(SavedProgress(key: tracker.key(for: b), position: MediaTime(value: 9, timescale: 2), duration: secs(8)))
        try await h.player.setPlaylist([a, b])
        #expect(h.player.currentTime == secs(4))
        #expect(try await h.player.advanceToNextItem() == b)
        #expect(h.player.currentTime == MediaTime(value: 9, timescale: 2))
        await h.settle()
        #expect(store.load(key: tracker.key(for: a))?.position == secs(4))
        #expect(h.recorder.events.contains("changed 300.fake->240.fake"))
        #expect(try await h.player.advanceToNextItem() == nil, "past the last item nothing changes")
    }

    @Test("At the end of an item the playlist plays the next one, which resumes at its own position")
    func playlistAutoAdvance() async throws {
        let (h, tracker, store) = Self.tracked()
        let a = PlaybackHarness.media(30), b = PlaybackHarness.media(240)
        store.inner.save(SavedProgress(key: tracker.key(for: b), position: MediaTime(value: 9, timescale: 2), duration: secs(8)))
        try await h.player.setPlaylist([a, b])
        try await h.play()
        await h.advance(ms: 1200)
        try await waitUntil("the next item to play") { h.player.playlistIndex == 1 && h.player.isPlaying }
        #expect(h.player.currentTime == MediaTime(value: 9, timescale: 2))
        await h.settle()
        #expect(h.recorder.events.contains("changed 30.fake->240.fake"))
    }

    @Test("close() saves where the playhead stood")
    func closeSaves() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(300)
        try await h.player.load(url)
        _ = await h.player.seek(to: secs(3))
        try await h.play()
        await h.advance(ms: 500)
        await h.player.close()
        await h.settle()
        #expect(store.load(key: tracker.key(for: url))?.position == PlaybackHarness.expectedFrame(atMilliseconds: 3500, count: 300))
    }

    @Test("Loaded again before the callback queue delivered its end: the item resumes where it stopped, not where the store last heard")
    func reloadBeforeTheEndIsHeard() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(300)
        store.inner.save(SavedProgress(key: tracker.key(for: url), position: secs(4), duration: secs(10)))
        try await h.player.load(url)
        await h.settle()
        #expect(h.player.currentTime == PlaybackHarness.frameTime(120), "resumed at the saved 4 s")
        // The host's main queue is busy: nothing the player emits is delivered for now.
        h.queue.queue.suspend()
        _ = await h.player.seek(to: secs(6))
        try await h.player.load(url)
        h.queue.queue.resume()
        await h.settle()

        // Where the store said, 4 s, would be wrong: the seek's save of 6 s had not been delivered.
        #expect(h.player.currentTime == PlaybackHarness.frameTime(180))
        #expect(store.load(key: tracker.key(for: url))?.position == secs(6))
    }

    @Test("Once the end was heard, the store is the word: a position another device saved since is resumed")
    func storeWinsOnceTheEndIsHeard() async throws {
        let (h, tracker, store) = Self.tracked()
        let url = PlaybackHarness.media(300)
        try await h.player.load(url)
        _ = await h.player.seek(to: secs(6))
        await h.player.close()
        await h.settle()
        store.inner.save(SavedProgress(key: tracker.key(for: url), position: secs(5), duration: secs(10)))
        try await h.player.load(url)
        #expect(h.player.currentTime == PlaybackHarness.frameTime(150))
    }
}
