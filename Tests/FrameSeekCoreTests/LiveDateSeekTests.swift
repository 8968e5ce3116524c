// Seeks by date on the Player, over the fake live engine. Every expected frame and date is
// computed here from the hand-written segment table (`LiveTable`), in whole milliseconds and
// frames, never through `LiveSeekWindow.time(forDate:)`, which is what is under test.
//
// The harness and the table below serve the other Live*Tests files too.

import Dispatch
import Foundation
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// The fake live stream's segments, by hand. Segment n has 60 frames (2 s) when even and 45
/// (1.5 s) when odd, at 30 fps, target duration 2 s. Dates are milliseconds after
/// 2024-03-04T23:00:00.000Z; segment 5's date jumps 0.5 s ahead of its predecessors' durations,
/// leaving a gap of dates no media covers:
///
///     seq        0    1     2     3     4     5     6      7      8      9      10     11
///     frames     60   45    60    45    60    45    60     45     60     45     60     45
///     start (s)  0    2     3.5   5.5   7     9     10.5   12.5   14     16     17.5   19.5
///     date (ms)  0    2000  3500  5500  7000  9500  11000  13000  14500  16500  18000  20000
enum LiveTable {
    static let frames = [60, 45, 60, 45, 60, 45, 60, 45, 60, 45, 60, 45]
    static let dateMs = [0, 2000, 3500, 5500, 7000, 9500, 11000, 13000, 14500, 16500, 18000, 20000]
    static let base = try! ProgramDate(parsing: "2024-03-04T23:00:00.000Z")

    /// `base` plus `ms` milliseconds.
    static func date(ms: Int) -> ProgramDate { base.advanced(by: MediaTime(value: Int64(ms), timescale: 1000)) }

    /// The segments the fake server publishes: the table, dated or not.
    static func segments(dated: Bool) -> [FakeLiveSegment] {
        frames.indices.map { FakeLiveSegment(sequence: $0, frameCount: frames[$0], date: dated ? date(ms: dateMs[$0]) : nil) }
    }

    /// Frames before segment `seq` on the timeline, whose zero is segment 0's first frame.
    static func firstFrame(ofSegment seq: Int) -> Int { frames[..<seq].reduce(0, +) }

    /// The frame (counted from the timeline's zero) an exact seek to `ms` lands on, with the
    /// window listing `published`; nil when the date is outside the window. A date in the gap
    /// before a segment goes to that segment's first frame.
    static func expectedFrame(forMs ms: Int, published: Range<Int>) -> Int? {
        for seq in published {
            if ms < dateMs[seq] { return seq == published.lowerBound ? nil : firstFrame(ofSegment: seq) }
            let spanMs = frames[seq] * 1000 / 30  // 2000 or 1500, exact
            if ms < dateMs[seq] + spanMs { return firstFrame(ofSegment: seq) + (ms - dateMs[seq]) * 30 / 1000 }
        }
        return nil
    }

    /// The date of frame `frame` (from the timeline's zero): its segment's date plus its offset.
    static func dateOfFrame(_ frame: Int) -> ProgramDate {
        let seq = frames.indices.last { firstFrame(ofSegment: $0) <= frame }!
        return date(ms: dateMs[seq]).advanced(by: MediaTime(value: Int64(frame - firstFrame(ofSegment: seq)), timescale: 30))
    }

    /// Frame `n`'s time: n/30 s.
    static func time(_ frame: Int) -> MediaTime { MediaTime(value: Int64(frame), timescale: 30) }
}

/// A player over fake engines: live streams by name (`LiveHarness.url`), fake files otherwise;
/// reloads timed by a manual scheduler; a recorder for the ordinary and the live events on
/// one log, on a callback queue of its own.
struct LiveHarness {
    let files = EngineGate()
    let scheduler = ManualReloadScheduler()
    let streams: [String: FakeLiveStream]
    let player: Player
    let events: TestQueue
    let log: EventLog
    let recorder: Recorder
    let live: LiveWindowRecorder

    /// The stream "live.m3u8": `published` of the table, dated unless told otherwise, with
    /// EXT-X-TARGETDURATION `targetDuration`; and "other.m3u8", a second dated stream listing
    /// segments 0 to 3.
    init(published: Range<Int> = 0..<6, dated: Bool = true, targetDuration: Int = 2, _ label: String = #function) {
        streams = [
            "live.m3u8": FakeLiveStream(
                segments: LiveTable.segments(dated: dated), published: published, targetDuration: targetDuration),
            "other.m3u8": FakeLiveStream(segments: LiveTable.segments(dated: true), published: 0..<4, targetDuration: 2)
        ]
        events = TestQueue("test.live.\(label)")
        player = Player(
            engineFactory: FakeLiveEngine.factory(streams: streams, files: FakePlaybackEngine.factory(gate: files)),
            callbackQueue: events.queue, clock: ManualPlayerClock(), reloadScheduler: scheduler)
        log = EventLog(expectedQueue: events)
        recorder = Recorder(log)
        live = LiveWindowRecorder(log)
        player.addSeekPrecisionListener(recorder)
        player.addSeekPrecisionListener(live)
        player.seekDelegate = recorder
    }

    var stream: FakeLiveStream { streams["live.m3u8"]! }

    static func url(_ name: String) -> URL { URL(string: "https://example.com/\(name)")! }
    static let file = URL(fileURLWithPath: "/fake/300.fake")

    /// A harness with "live.m3u8" loaded.
    static func loaded(
        published: Range<Int> = 0..<6, dated: Bool = true, targetDuration: Int = 2, _ label: String = #function
    ) async throws
        -> LiveHarness
    {
        let h = LiveHarness(published: published, dated: dated, targetDuration: targetDuration, label)
        try await h.player.load(url("live.m3u8"))
        return h
    }

    /// Returns once everything queued on the engine, then on the callback queue, has run.
    func settle() async {
        _ = await player.host.perform { _ in 0 }
        await events.drain()
    }

    /// Fires the earliest scheduled reload and waits until it has run and been heard.
    func fireReload() async {
        scheduler.fireNext()
        await settle()
    }

    /// Publishes `range`, fires the scheduled reload and returns once it waits inside the
    /// engine. Pair with `defer { h.stream.openReloads() }`.
    func holdReload(publishing range: Range<Int>) async throws {
        stream.holdReloads()
        stream.publish(range)
        scheduler.fireNext()
        try await stream.waitForReloads(1)
    }

    func kinds(since mark: Int = 0) -> [String] { log.events.dropFirst(mark).map(\.kind) }
}

@Suite("Live: seek by date")
struct LiveDateSeekTests {
    /// Dates on both sides of segment boundaries, of a frame boundary, and of the date gap.
    static let dates: [(String, Int)] = [
        ("00.000", 0), ("01.999", 1999), ("02.000", 2000), ("03.499", 3499), ("03.500", 3500),
        ("08.999", 8999), ("09.000", 9000), ("09.250", 9250), ("09.500", 9500),
        ("09.533", 9533), ("09.534", 9534), ("10.999", 10999)
    ]

    @Test(
        "A date lands exactly on the frame whose date covers it, beside the date of that frame",
        arguments: dates)
    func landsOnTheCoveringFrame(date: (text: String, ms: Int)) async throws {
        let h = try await LiveHarness.loaded()
        let requested = try ProgramDate(parsing: "2024-03-04T23:00:\(date.text)Z")
        #expect(requested == LiveTable.date(ms: date.ms))
        let frame = try #require(LiveTable.expectedFrame(forMs: date.ms, published: 0..<6))

        let result = await h.player.seek(toDate: requested, precision: .exact)
        let outcome = try #require(result.outcome, "\(result)")
        #expect(outcome.finished)
        #expect(outcome.landedMediaTime == LiveTable.time(frame), "\(date.text): landed \(outcome.landedMediaTime)")
        #expect(outcome.frameIndex == frame, "the window starts at frame 0")
        #expect(outcome.landedDate == LiveTable.dateOfFrame(frame))
        #expect(outcome.landedFoundationDate == LiveTable.dateOfFrame(frame).date)
        #expect(outcome.clamp == .none)
        #expect(h.player.currentTime == LiveTable.time(frame))
    }

    @Test("Hand-checked anchors of the table: the gap and a frame boundary")
    func anchors() {
        #expect(LiveTable.expectedFrame(forMs: 9000, published: 0..<6) == 270, "in the gap: segment 5's first frame")
        #expect(LiveTable.expectedFrame(forMs: 9533, published: 0..<6) == 270, "33 ms is 0.99 of a frame")
        #expect(LiveTable.expectedFrame(forMs: 9534, published: 0..<6) == 271)
        #expect(LiveTable.expectedFrame(forMs: 10999, published: 0..<6) == 314, "the last of 315 frames")
        #expect(LiveTable.expectedFrame(forMs: 11000, published: 0..<6) == nil)
    }

    @Test("A Foundation Date seeks like the ProgramDate it stands for")
    func foundationDate() async throws {
        let h = try await LiveHarness.loaded()
        let date = Date(timeIntervalSince1970: LiveTable.base.sinceEpoch.seconds + 3.5)
        let outcome = try #require(await h.player.seek(toDate: date).outcome)
        #expect(outcome.landedMediaTime == LiveTable.time(105))
        #expect(outcome.landedDate == LiveTable.date(ms: 3500))
    }

    @Test("Dates outside the window are unavailable, the explanation naming the dates in ISO 8601; no seek starts")
    func outsideTheWindow() async throws {
        let h = try await LiveHarness.loaded()
        let before = try ProgramDate(parsing: "2024-03-04T22:59:59.999Z")
        let after = try ProgramDate(parsing: "2024-03-04T23:00:11.000Z")
        let start = LiveTable.date(ms: 0), end = LiveTable.date(ms: 11000)

        let early = await h.player.seek(toDate: before)
        #expect(early == .unavailable(.dateBeforeWindow(requested: before, windowStart: start, windowEnd: end)))
        let late = await h.player.seek(toDate: after)
        #expect(late == .unavailable(.dateAfterWindow(requested: after, windowStart: start, windowEnd: end)))
        for (result, asked) in [(early, "2024-03-04T22:59:59.999Z"), (late, "2024-03-04T23:00:11.000Z")] {
            let explanation = try #require(result.unavailableReason?.explanation)
            #expect(
                explanation.contains(asked) && explanation.contains("2024-03-04T23:00:00.000Z")
                    && explanation.contains("2024-03-04T23:00:11.000Z"), "\(explanation)")
        }
        await h.settle()
        #expect(h.log.events.isEmpty, "no seek started: \(h.kinds())")
        #expect(h.player.currentTime == .zero)
    }

    @Test("Nothing loaded: noCurrentItem, with the requested date in the explanation")
    func noCurrentItem() async throws {
        let h = LiveHarness()
        let asked = LiveTable.date(ms: 1234)
        let result = await h.player.seek(toDate: asked)
        #expect(result == .unavailable(.noCurrentItem(requested: asked)))
        #expect(result.unavailableReason?.explanation.contains("2024-03-04T23:00:01.234Z") == true)
        #expect(h.player.liveSeekWindow == .notLive)
    }

    @Test("A file and a playlist without dates are not date-addressable; a file has no window and no landed date")
    func notDateAddressable() async throws {
        let asked = LiveTable.date(ms: 500)
        let file = LiveHarness()
        try await file.player.load(LiveHarness.file)
        #expect(file.player.liveSeekWindow == .notLive)
        #expect(await file.player.seek(toDate: asked) == .unavailable(.notDateAddressable(requested: asked)))
        let plain = await file.player.seek(to: LiveTable.time(30))
        #expect(plain.finished && plain.landedDate == nil && plain.landedFoundationDate == nil)

        let undated = try await LiveHarness.loaded(dated: false)
        let window = undated.player.liveSeekWindow
        #expect(window.isLive && !window.isDateAddressable)
        let result = await undated.player.seek(toDate: asked)
        #expect(result == .unavailable(.notDateAddressable(requested: asked)))
        #expect(result.unavailableReason?.explanation.contains("2024-03-04T23:00:00.500Z") == true)
        let seeked = await undated.player.seek(to: LiveTable.time(30))
        #expect(seeked.finished && seeked.landedDate == nil, "no dates, nothing to report")
    }

    @Test("A seek that does not land has no landed date")
    func notLandedHasNoDate() async throws {
        let h = try await LiveHarness.loaded()
        let box = OutcomeBox<DateSeekResult>()
        let suspension = Suspension(h.player.host.queue)
        suspension.suspend()
        h.player.seek(toDate: LiveTable.date(ms: 1000)) { box.put(0, $0) }
        h.player.seek(toDate: LiveTable.date(ms: 5000)) { box.put(1, $0) }
        let first = try #require(try await box.wait(forCount: 1)[0]?.outcome)
        suspension.resume()
        let second = try #require(try await box.wait(forCount: 2)[1]?.outcome)
        #expect(first.interruption == .superseded && first.landedDate == nil)
        #expect(second.finished && second.landedDate == LiveTable.dateOfFrame(LiveTable.expectedFrame(forMs: 5000, published: 0..<6)!))
    }

    @Test("Completion-handler forms call back on the callback queue, after the seek's events")
    func completionForms() async throws {
        let h = try await LiveHarness.loaded()
        let box = OutcomeBox<DateSeekResult>()
        let onQueue = Locked<[Bool]>([])
        let events = h.events
        h.player.seek(toDate: LiveTable.date(ms: 2000), precision: .exact) { result in
            onQueue.withLock { $0.append(events.isCurrent) }
            box.put(0, result)
        }
        h.player.seek(toDate: LiveTable.date(ms: 60_000).date) { result in
            onQueue.withLock { $0.append(events.isCurrent) }
            box.put(1, result)
        }
        let results = try await box.wait(forCount: 2)
        await h.settle()
        #expect(results[0]?.outcome?.landedMediaTime == LiveTable.time(60))
        #expect(
            results[1]?.unavailableReason
                == .dateAfterWindow(
                    requested: LiveTable.date(ms: 60_000),
                    windowStart: LiveTable.date(ms: 0),
                    windowEnd: LiveTable.date(ms: 11000)))
        #expect(onQueue.withLock { $0 } == [true, true])
        #expect(h.kinds() == ["start", "accuracy", "end", "time"], "the completion comes after its seek's events")
        #expect(h.log.allOnExpectedQueue)
    }

    @Test("Cancelling the awaiting task cancels the seek by date, like any seek")
    func cancelled() async throws {
        let h = try await LiveHarness.loaded()
        let suspension = Suspension(h.player.host.queue)
        suspension.suspend()
        defer { suspension.resume() }
        let task = Task { await h.player.seek(toDate: LiveTable.date(ms: 4000)) }
        try await waitUntil("the seek to register") { h.player.machine.read { $0.activeSeek != nil } }
        task.cancel()
        let result = await task.value
        #expect(result.outcome?.interruption == .cancelled)
    }
}
