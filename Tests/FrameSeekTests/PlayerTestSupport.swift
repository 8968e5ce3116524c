// What the Player tests share: a recording listener/delegate, a seek-counting engine that wraps
// the real FFmpeg engine, a callback queue that knows whether it is the current queue, and
// bounded waits that turn a deadlock into a test failure instead of a hung run.
//
// Nothing here sleeps to let something happen: waits end when the awaited event arrives, and
// their timeout is only a deadlock guard.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Synchronization
import Testing

/// A player over the real FFmpeg engine, wrapped to count seeks, with a recording listener
/// and delegate on a queue of its own.
struct Harness {
    let player: Player
    let probe: EngineProbe
    let events: TestQueue
    let log: EventLog
    let recorder: Recorder
    let clock: ManualPlayerClock
    let engineSuspension: Suspension

    /// `hashingPictures`: the probe records the MD5 of each landed picture.
    init(_ label: String = #function, hashingPictures: Bool = false) {
        let probe = EngineProbe(hashesPictures: hashingPictures)
        let events = TestQueue("test.events.\(label)")
        let clock = ManualPlayerClock()
        player = Player(
            engineFactory: { (url: URL) throws(MediaError) -> any PlaybackEngine in
                CountingEngine(try FFmpegEngine(path: url.path), probe: probe)
            }, callbackQueue: events.queue, clock: clock)
        self.probe = probe
        self.events = events
        self.clock = clock
        engineSuspension = Suspension(player.host.queue)
        log = EventLog(expectedQueue: events)
        recorder = Recorder(log)
        player.addSeekPrecisionListener(recorder)
        player.seekDelegate = recorder
    }

    /// Loads `fixture` and returns its oracle.
    @discardableResult
    func load(_ fixture: Fixture) async throws -> Oracle {
        try await player.load(URL(fileURLWithPath: fixture.path))
        return try Oracle(fixture)
    }

    /// A harness with gop250 loaded and, given `frame`, an exact seek to that frame's middle done.
    static func gop250(
        seekingTo frame: Int? = nil, hashingPictures: Bool = false,
        _ label: String = #function
    ) async throws -> (Harness, Oracle) {
        let h = Harness(label, hashingPictures: hashingPictures)
        let oracle = try await h.load(Fixtures.gop250)
        if let frame { _ = await h.player.seek(to: oracle.middle(frame), precision: .exact) }
        return (h, oracle)
    }

    /// Stops the engine's queue: seeks issued now register but do not run. Pair it with
    /// `defer { h.resumeEngine() }`: resuming twice is harmless, and a queue left suspended
    /// when a failed test releases the player would crash the whole test process.
    func suspendEngine() { engineSuspension.suspend() }
    func resumeEngine() { engineSuspension.resume() }

    /// Returns once everything enqueued on the engine's queue so far has run.
    func drainEngine() async { _ = await player.host.perform { _ in 0 } }

    /// Returns once every event emitted so far has been delivered.
    func drainEvents() async { await events.drain() }

    /// Returns once the engine's queue, then the callback queue, has run everything so far.
    func settle() async {
        await drainEngine()
        await drainEvents()
    }

    /// Events since `mark` (an earlier `log.events.count`).
    func events(since mark: Int) -> [PlayerEvent] { Array(log.events.dropFirst(mark)) }
}

enum Fixtures {
    /// H.264 with B-frames, closed GOP of 250 (IDR at 0 and 250), 360 frames at 30000/1001.
    static var gop250: Fixture { get throws { try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")) } }
    /// AAC only.
    static var audio: Fixture { get throws { try #require(FixtureCatalog.fixture("aac_sine.s0")) } }
}

extension MediaError {
    /// The frame count the FFmpeg engine names when a seek was interrupted ("... after N frames").
    var framesBeforeInterruption: Int? {
        guard reason == .interrupted, let range = cause.range(of: #"after (\d+) frames"#, options: .regularExpression)
        else { return nil }
        return Int(cause[range].split(separator: " ")[1])
    }
}
