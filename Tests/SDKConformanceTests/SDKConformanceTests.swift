// The SDK's two documents, ported in Examples/SDKConformance, run on fixtures: what their notes
// promise, checked against ffprobe's frame table (the Oracle) and the playlist's own dates.
// The snippets run on the player's callback queue, as an app's UI code runs on the main queue,
// and what they print is read back from ConformanceLog. The suite runs one test at a time,
// since every snippet prints to the one log.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
@testable import SDKConformance
import Testing

/// A player whose callback queue plays the main queue's part, and the snippets' host on it.
private struct UI {
    let queue: DispatchQueue
    let player: Player
    let host: VideoPlayerViewController

    init(_ label: String = #function) {
        queue = DispatchQueue(label: "sdk-conformance.ui.\(label)")
        player = Player(callbackQueue: queue)
        host = VideoPlayerViewController(playerViewController: player)
        ConformanceLog.shared.clear()
    }

    /// Runs `body` on the UI queue, as UIKit code runs on the main queue.
    func run<T>(_ body: () throws -> T) rethrows -> T { try queue.sync(execute: body) }

    /// Waits until the log has an entry whose first item is `head`, and returns it.
    func entry(_ head: String) async throws -> [String] {
        try await waitUntil("a line printed as \"\(head) …\"") { Self.entries(head).first != nil }
        return try #require(Self.entries(head).first)
    }

    /// The entries printed so far whose first item is `head`.
    static func entries(_ head: String) -> [[String]] { ConformanceLog.shared.all.filter { $0.first == head } }
}

/// The item printed after `label` in `entry`: `print("landed:", x)` prints `["landed:", "x"]`.
private func value(after label: String, in entry: [String]) -> String? {
    entry.firstIndex(of: label).flatMap { $0 + 1 < entry.count ? entry[$0 + 1] : nil }
}

private var gop250: Fixture { get throws { try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")) } }

@Suite("The SDK's documents, ported, behave as their notes say", .serialized)
struct SDKConformanceTests {
    @Test("A seek past the end clamps to the last frame, and says so")
    func seekPastTheEnd() async throws {
        let ui = UI()
        let oracle = try Oracle(try gop250)
        try await ui.player.load(URL(fileURLWithPath: try gop250.path))
        ui.run { ui.host.startListening() }
        ui.run { ui.host.seekWithExplicitPrecision() }
        let printed = try await ui.entry("requested:")
        let last = oracle.time(oracle.lastIndex)
        #expect(value(after: "requested:", in: printed) == "92.5")
        #expect(value(after: "landed:", in: printed) == "\(last.seconds)", "\(printed)")
        #expect(value(after: "delta:", in: printed) == "\((last - 92.5).seconds)")
        #expect(value(after: "within tolerance:", in: printed) == "false")
        #expect(value(after: "finished:", in: printed) == "true")
        // The completion's explanation and the listener's onSeekClamped name the last frame.
        let explanation = "The target lay past the end of the last frame; it was moved to the last frame at \(last.seconds) s."
        try await waitUntil("the clamp's explanation") { ConformanceLog.shared.all.contains([explanation]) }
        #expect(UI.entries("[Seek]").contains(["[Seek]", explanation]))
        #expect(ui.run { ui.host.seekEnds } == [last.seconds], "the delegate heard the seek end in seconds")

        // The cheap seek has no completion; the delegate still hears it end.
        ui.run { ui.host.seekCheaply() }
        try await waitUntil("the keyframe seek's end") { ui.run { ui.host.seekEnds.count } == 2 }
        ui.run { ui.host.stopListening() }
    }

    @Test("With nothing loaded, a seek still calls back: finished == false, clamp .seekableRangeUnknown")
    func seekWithNothingLoaded() async throws {
        let ui = UI()
        ui.run { ui.host.seekWithExplicitPrecision() }
        let printed = try await ui.entry("requested:")
        #expect(value(after: "finished:", in: printed) == "false")
        #expect(value(after: "within tolerance:", in: printed) == "false")
        #expect(value(after: "landed:", in: printed) == "nan" && value(after: "delta:", in: printed) == "nan")
        // The same call shape, keeping the outcome: not ready, and an unknown range is no clamp.
        let outcomes = Locked<[SeekOutcome]>([])
        ui.player.seek(to: 92.5, precision: .exact) { outcome in outcomes.withLock { $0.append(outcome) } }
        try await waitUntil("the completion") { outcomes.withLock { !$0.isEmpty } }
        let outcome = try #require(outcomes.withLock { $0.first })
        #expect(!outcome.finished && outcome.interruption == .notReady)
        #expect(outcome.clamp == .seekableRangeUnknown && !outcome.clamp.didClamp)
        #expect(outcome.accuracy.landedMediaTime == .invalid && !outcome.accuracy.withinRequestedTolerance)
        try await Task.sleep(for: .milliseconds(50))
        #expect(
            !ConformanceLog.shared.all.contains { $0.first?.hasPrefix("The seekable range") == true },
            "an unknown range prints no clamp explanation")
    }

    @Test("A scrub is one seek, at the end, and reports its sample count; a cancelled one seeks nothing")
    func scrubIsOneSeek() async throws {
        let ui = UI()
        let oracle = try Oracle(try gop250)
        try await ui.player.load(URL(fileURLWithPath: try gop250.path))
        ui.run {
            ui.player.setupSeekManager(delegate: ui.host)
            ui.host.startListening()
        }
        let samples = 50
        ui.run {
            ui.host.currentTime = 1.0
            ui.host.gestureBegan()
        }
        for i in 1...samples {
            ui.run {
                ui.host.proposedTime = Double(i) / 10
                ui.host.gestureMoved()
            }
        }
        #expect(ui.run { ui.host.seekEnds.isEmpty }, "updateScrubbing seeks nothing")
        ui.run { ui.host.gestureEnded() }
        let printed = try await ui.entry("samples:")
        let landed = try #require(oracle.covering(5.0))
        #expect(value(after: "samples:", in: printed) == "\(samples)")
        #expect(value(after: "cancelled:", in: printed) == "false")
        #expect(value(after: "landed:", in: printed) == "Optional(\(oracle.time(landed).seconds))", "\(printed)")
        #expect(ui.run { ui.host.seekEnds } == [oracle.time(landed).seconds], "one seek for the whole gesture")
        #expect(ui.run { ui.host.scrubStates } == [.scrubbing, .seeking, .idle])
        #expect(ui.run { ui.host.timeLabel.text } != nil, "throttled positions reached the label")

        // A cancelled gesture: nothing to undo, the playhead never moved.
        ui.run {
            ui.host.gestureBegan()
            ui.host.proposedTime = 9.0
            ui.host.gestureMoved()
            ui.host.gestureCancelled()
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(ui.player.currentTime == oracle.time(landed))
        #expect(ui.run { ui.host.seekEnds.count } == 1)
    }

    @Test("A step returns its result at once, before anything is decoded, with ffprobe's next frame")
    func stepReturnsAtOnce() async throws {
        let ui = UI()
        let oracle = try Oracle(try gop250)
        try await ui.player.load(URL(fileURLWithPath: try gop250.path))
        ui.run { ui.host.startListening() }
        _ = await ui.player.seek(to: oracle.middle(40), precision: .exact)
        // Hold the engine: the step's result must come without it.
        let gate = DispatchSemaphore(value: 0)
        ui.player.host.queue.async { gate.wait() }
        ui.run { ui.host.stepForward() }
        let printed = try #require(UI.entries("[Step]").last, "the step printed before returning")
        gate.signal()
        #expect(printed == ["[Step]", "forward", "->", "\(oracle.time(41).seconds)"])
        try await waitUntil("the decoded step") { ui.player.currentTime == oracle.time(41) }

        // At the end: refused at once, and the listener hears the refusal.
        _ = await ui.player.seek(to: oracle.time(oracle.lastIndex), precision: .exact)
        ui.run { ui.host.stepForward() }
        #expect(UI.entries("[Step] cannot:").last == ["[Step] cannot:", FrameStepUnavailableReason.endOfStream.explanation])
        _ = try await ui.entry("[Step] refused:")
    }

    @Test("The live snippet: a VOD playlist with dates is date-addressable; a file is neither live nor dated")
    func liveSnippet() async throws {
        let ui = UI()
        try await ui.player.load(URL(fileURLWithPath: Repository.fixture("media/hls-ts-rollover/playlist.m3u8")))
        let window = ui.player.liveSeekWindow
        #expect(window.isDateAddressable && !window.isLive)
        // The playlist's first EXT-X-PROGRAM-DATE-TIME, as a Foundation Date.
        #expect(window.startDate == ISO8601DateFormatter.withFractionalSeconds.date(from: "2024-03-04T23:02:17.684Z"))
        ui.run {
            ui.host.seekByDate()
            ui.host.joinLiveEdge()
        }
        // 120 s after the start is past this short window: no seek, and the reason names the date.
        let unavailable = try await ui.entry("[Seek] unavailable:")
        #expect(unavailable.last?.contains("2024-03-04T23:04:17.684Z") == true, "\(unavailable)")
        #expect(try await ui.entry("[Seek] live edge:") == ["[Seek] live edge:", "nil"], "a VOD playlist has no live edge")

        let file = UI("liveSnippetOnAFile")
        try await file.player.load(URL(fileURLWithPath: try gop250.path))
        #expect(file.player.liveSeekWindow == .notLive)
        file.run { file.host.seekByDate() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(
            UI.entries("[Seek] unavailable:").isEmpty && UI.entries("[Seek] landed:").isEmpty,
            "a file is not date-addressable, so the snippet seeks nothing")
    }

    /// One run of the resume recipe: a host with a new player on `queue`, its coordinator wired
    /// as the recipe wires it (on the UI queue), and a recorder of the player's seek ends.
    private static func resumeRun(on queue: DispatchQueue) -> (PlayerHostVC, Coordinator, SeekEndRecorder) {
        let host = PlayerHostVC(playerViewController: Player(callbackQueue: queue))
        let coordinator = Coordinator()
        let seekEnds = SeekEndRecorder()
        host.playerViewController.addPlaybackListener(seekEnds)
        queue.sync {
            coordinator.hostVC = host
            host.coordinator = coordinator
            host.playerViewController.setupSeekManager(delegate: coordinator)
        }
        return (host, coordinator, seekEnds)
    }

    @Test("The resume recipe's second run resumes where the first left off")
    func resumeRecipe() async throws {
        let oracle = try Oracle(try gop250)
        let url = URL(fileURLWithPath: try gop250.path)
        let queue = DispatchQueue(label: "sdk-conformance.resume")

        // First run: the viewer seeks to 6 s and leaves.
        let (first, firstCoordinator, firstSeekEnds) = Self.resumeRun(on: queue)
        queue.sync { firstCoordinator.clearSavedProgress() }
        try await first.playerViewController.load(url)
        queue.sync { first.playerViewController.seek(to: 6.0) }
        let watched = try #require(oracle.covering(6.0))
        // The recipe's first time update after the load is that seek's, which comes after its
        // onSeekEnd saved the position: so the recipe seeks once more, to the seconds it saved.
        // Read back as the decimal they print as, those seconds land on the frame covering
        // that decimal, which for 30000/1001 s frames can be the frame before: the TimeInterval
        // round trip the SDK's notes warn of, done here exactly as the rules say.
        let roundTrip = try #require(oracle.covering(MediaTime(decimalSeconds: oracle.time(watched).seconds)))
        try await waitUntil("the first run's two seek ends") { firstSeekEnds.times.count == 2 }
        #expect(firstSeekEnds.times == [oracle.time(watched), oracle.time(roundTrip)])
        queue.sync {
            first.isMovingFromParent = true
            first.viewWillDisappear(true)
        }
        await first.playerViewController.close()
        let saved = UserDefaults.standard.double(forKey: "lastPlaybackPosition")
        #expect(saved == oracle.time(roundTrip).seconds)

        // Second run: a new player and coordinator; the first time update seeks to the position.
        let (second, secondCoordinator, seekEnds) = Self.resumeRun(on: queue)
        try await second.playerViewController.load(url)
        try second.playerViewController.play(rate: 1)
        try await waitUntil("the second run's resume seek") { !seekEnds.times.isEmpty }
        second.playerViewController.pause()
        // The seek to the saved seconds lands on the frame covering them, as ffprobe places it.
        let resumed = try #require(oracle.covering(MediaTime(decimalSeconds: saved)))
        #expect(seekEnds.times.first == oracle.time(resumed), "resumed at \(seekEnds.times)")
        await second.playerViewController.close()
        queue.sync { secondCoordinator.clearSavedProgress() }
    }

    @Test("In an async context, `await` picks the async forms, which return once the frame is decoded")
    func asyncCallSites() async throws {
        let oracle = try Oracle(try gop250)
        let player = Player(callbackQueue: DispatchQueue(label: "sdk-conformance.async"))
        try await player.load(URL(fileURLWithPath: try gop250.path))
        let (outcome, step) = await awaitSeekAndStep(player, to: 2.0)
        let frame = try #require(oracle.covering(2.0))
        #expect(outcome.finished && outcome.frameIndex == frame && outcome.landedMediaTime == oracle.time(frame))
        #expect(step == .stepped(.forward, landedMediaTime: oracle.time(frame + 1)))
    }
}

/// Records the player's seek ends (a `PlaybackListener` beside the recipe's delegate).
private final class SeekEndRecorder: PlaybackListener, Sendable {
    private let recorded = Locked<[MediaTime]>([])
    var times: [MediaTime] { recorded.withLock { $0 } }
    func onSeekEnded(at time: MediaTime) { recorded.withLock { $0.append(time) } }
}

extension ISO8601DateFormatter {
    /// Reads `2024-03-04T23:02:17.684Z`.
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
