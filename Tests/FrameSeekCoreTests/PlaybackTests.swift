// Headless playback on the fake engine, on a virtual clock: the test moves a ManualPlayerClock
// and fires a ManualPlaybackTicker, then waits for the engine's queue and the callback queue.
// Expected frames come from the fake's frame table, read here as "the last frame starting at
// or before t", never from the player. Nothing sleeps.

import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// A player on the fake engine, a manual clock and a manual ticker, with a recorder attached.
struct PlaybackHarness {
    let clock = ManualPlayerClock()
    let ticker = ManualPlaybackTicker()
    let gate = EngineGate()
    let queue = TestQueue("playback.callbacks")
    let recorder = PlaybackRecorder()
    let player: Player

    init(gop: Int = 10) {
        player = Player(
            engineFactory: FakePlaybackEngine.factory(gate: gate, gop: gop), callbackQueue: queue.queue,
            clock: clock, reloadScheduler: ManualReloadScheduler(), playbackScheduler: ticker)
        player.addPlaybackListener(recorder)
        player.seekDelegate = recorder
    }

    /// `/fake/N.fake`: N frames at 30 fps; `.audio` for audio-only.
    static func media(_ frames: Int, _ ext: String = "fake") -> URL { URL(fileURLWithPath: "/fake/\(frames).\(ext)") }

    /// The fake's frames: frame i starts at i/30 s.
    static func frameTime(_ index: Int) -> MediaTime { MediaTime(value: Int64(index), timescale: 30) }

    /// The start of the frame showing at `t` in an item of `count` frames: independent of the
    /// player's arithmetic (decimal milliseconds times 30, floored).
    static func expectedFrame(atMilliseconds ms: Int, count: Int) -> MediaTime {
        frameTime(min(ms * 30 / 1000, count - 1))
    }

    /// Waits until the engine's queue and then the callback queue have run everything queued.
    func settle() async {
        _ = await player.host.perform { _ in 0 }
        await queue.drain()
    }

    /// Moves the clock by `ms`, fires the ticks due, and settles.
    func advance(ms: Int) async {
        clock.advance(by: .milliseconds(ms))
        ticker.fireAll()
        await settle()
    }

    /// `play(rate:)` and the first tick (at the current clock reading).
    func play(rate: Double = 1) async throws {
        try player.play(rate: rate)
        ticker.fireAll()
        await settle()
    }
}

@Suite("Playback: headless play on a virtual clock")
struct PlaybackTests {
    @Test("Rate 1 and rate 2: the playhead is the frame whose time is due on the clock")
    func rates() async throws {
        for rate in [1.0, 2.0] {
            let h = PlaybackHarness()
            try await h.player.load(PlaybackHarness.media(300))
            try await h.play(rate: rate)
            #expect(h.player.isPlaying && h.player.rate == rate)
            for tick in 1...12 {
                await h.advance(ms: 40)
                let due = PlaybackHarness.expectedFrame(atMilliseconds: Int(Double(40 * tick) * rate), count: 300)
                #expect(h.player.currentTime == due, "rate \(rate) tick \(tick)")
            }
        }
    }

    @Test("Frames in the current GOP are stepped to; a late tick jumps with one seek and decodes nothing in between")
    func lateTicksDropFrames() async throws {
        let h = PlaybackHarness(gop: 10)
        try await h.player.load(PlaybackHarness.media(300))
        try await h.play()
        await h.advance(ms: 100)  // frame 3: a step from 0
        #expect(h.gate.entered.last == .step(.forward))
        let before = h.gate.entered.count
        await h.advance(ms: 1900)  // 2.0 s: frame 60, 57 frames late
        #expect(h.player.currentTime == PlaybackHarness.frameTime(60))
        #expect(
            Array(h.gate.entered.dropFirst(before)) == [.seek(PlaybackHarness.frameTime(60))],
            "one exact seek to the due frame")
        let still = h.gate.entered.count
        await h.advance(ms: 10)  // 2.01 s: still frame 60
        #expect(h.gate.entered.count == still, "a frame already shown is not decoded again")
    }

    @Test("onTimeUpdate at the interval of media time: 0.1 s by default, settable")
    func timeUpdates() async throws {
        for (interval, every) in [(MediaTime?.none, 100), (MediaTime(value: 1, timescale: 4), 250)] {
            let h = PlaybackHarness()
            try await h.player.load(PlaybackHarness.media(300))
            if let interval { h.player.timeUpdateInterval = interval }
            try await h.play()
            for _ in 0..<20 { await h.advance(ms: 50) }
            let expected = stride(from: every, through: 1000, by: every).map {
                PlaybackHarness.expectedFrame(atMilliseconds: $0, count: 300)
            }
            #expect(h.recorder.timeUpdates == expected)
        }
    }

    @Test("At the end: the last frame, onPlaybackEnded once, paused, and no more ticks")
    func endOfMedia() async throws {
        let h = PlaybackHarness()
        try await h.player.load(PlaybackHarness.media(30))
        try await h.play()
        await h.advance(ms: 500)
        await h.advance(ms: 700)
        #expect(h.player.currentTime == PlaybackHarness.frameTime(29))
        #expect(!h.player.isPlaying)
        #expect(h.recorder.events.filter { $0.hasPrefix("ended") } == ["ended @\(PlaybackHarness.frameTime(29).seconds)"])
        #expect(h.recorder.events.suffix(2) == ["delegate.ended", "ended @\(PlaybackHarness.frameTime(29).seconds)"])
        #expect(h.ticker.pendingCount == 0)
    }

    @Test("pause() keeps the playhead and stops ticks; play() goes on from there")
    func pauseAndResume() async throws {
        let h = PlaybackHarness()
        try await h.player.load(PlaybackHarness.media(300))
        try await h.play()
        await h.advance(ms: 200)
        h.player.pause()
        let paused = h.player.currentTime
        #expect(paused == PlaybackHarness.expectedFrame(atMilliseconds: 200, count: 300) && !h.player.isPlaying)
        await h.advance(ms: 500)
        #expect(h.player.currentTime == paused, "a tick after pause changes nothing")
        try await h.play()
        await h.advance(ms: 100)
        #expect(h.player.currentTime == PlaybackHarness.expectedFrame(atMilliseconds: 300, count: 300))
        #expect(h.recorder.events.contains("rate 0.0 @\(paused.seconds)"))
    }

    @Test("A seek during playback lands, and playback goes on from the landed frame")
    func seekWhilePlaying() async throws {
        let h = PlaybackHarness()
        try await h.player.load(PlaybackHarness.media(300))
        try await h.play()
        await h.advance(ms: 200)
        let outcome = await h.player.seek(to: MediaTime(value: 5, timescale: 1))
        #expect(outcome.landedMediaTime == PlaybackHarness.frameTime(150))
        await h.advance(ms: 100)  // the next tick anchors playback at the landing
        #expect(h.player.currentTime == PlaybackHarness.frameTime(150) && h.player.isPlaying)
        await h.advance(ms: 100)
        #expect(h.player.currentTime == PlaybackHarness.expectedFrame(atMilliseconds: 5100, count: 300))
    }

    @Test("Audio-only media plays by the clock: exact times, nothing decoded, the duration at the end")
    func audioOnly() async throws {
        let h = PlaybackHarness()
        try await h.player.load(PlaybackHarness.media(90, "audio"))
        try await h.play()
        await h.advance(ms: 250)
        #expect(h.player.currentTime == MediaTime(value: 250, timescale: 1000))
        await h.advance(ms: 3000)
        #expect(h.player.currentTime == MediaTime(value: 3, timescale: 1) && !h.player.isPlaying)
        #expect(h.gate.entered.isEmpty, "no frame decoded for audio")
    }

    @Test("play(rate:) refuses NaN, infinities, zero, negative and too fast rates, and plays nothing unloaded")
    func refusedRates() async throws {
        let h = PlaybackHarness()
        #expect(throws: PlaybackError.noCurrentItem) { try h.player.play() }
        try await h.player.load(PlaybackHarness.media(30))
        for rate in [Double.nan, .infinity, -.infinity, 0, -1, Player.maximumRate * 2] {
            #expect(throws: PlaybackError.self) { try h.player.play(rate: rate) }
        }
        #expect(!h.player.isPlaying)
    }

    @Test("close() during playback stops it in its own transition: the item's end is heard, nothing after")
    func closeWhilePlaying() async throws {
        let h = PlaybackHarness()
        try await h.player.load(PlaybackHarness.media(300))
        try await h.play()
        await h.advance(ms: 100)
        await h.player.close()
        await h.settle()
        let heard = h.recorder.events.count
        await h.advance(ms: 500)
        #expect(h.recorder.events.count == heard && !h.player.isPlaying)
        #expect(h.recorder.events.suffix(2) == ["rate 0.0 @0.1", "ending 300.fake @0.1"])
    }
}
