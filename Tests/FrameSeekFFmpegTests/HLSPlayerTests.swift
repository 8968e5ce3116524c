// The Player over the real HLS engine: date seeks on the rollover stream land on the frame whose
// date covers the date, on both sides of the 33-bit wrap, with ffmpeg's pixels; the unavailable
// cases give their typed reasons; and a live playlist served over loopback HTTP, grown and slid
// by the test, keeps a correct window and live edge through the player's reloads. The truth is
// the playlist's own dates (24 fps, 48 frames a segment, EXT-X-PROGRAM-DATE-TIME +2 s each) and
// ffmpeg's decode (`ffmpeg -f framemd5`).

import Dispatch
import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

/// A player whose engine is the HLS engine, with reloads the test fires by hand.
private func hlsPlayer(_ scheduler: ManualReloadScheduler = ManualReloadScheduler()) -> Player {
    Player(
        engineFactory: { url throws(MediaError) in try HLSEngine(url: url.isFileURL ? url.path : url.absoluteString) },
        callbackQueue: DispatchQueue(label: "hls-player-tests"), reloadScheduler: scheduler)
}

/// The rollover's first date, 2024-03-04T23:02:17.684Z.
private let firstDate = try! ProgramDate(parsing: "2024-03-04T23:02:17.684Z")

/// `seconds` (an exact rational text) after the first date.
private func date(_ seconds: String) throws -> ProgramDate {
    firstDate.advanced(by: try MediaTime(parsing: seconds))
}

@Suite("The Player over the HLS engine", .serialized, .ffmpegLog)
struct HLSPlayerTests {
    /// Offsets from the first date, in seconds: inside segments 3, 4 (where the PTS wraps) and
    /// 5, on their boundaries, and a millisecond either side of frame boundaries.
    static let offsets = ["6", "7.999", "8", "8.041", "8.042", "9.5", "9.999", "10", "10.5", "11.958", "12"]

    @Test("Date seeks land on the frame whose date covers the date, across the wrap, with ffmpeg's pixels")
    func dateSeeksOnTheRollover() async throws {
        let player = hlsPlayer()
        try await player.load(URL(fileURLWithPath: Rollover.playlist))
        let window = player.liveSeekWindow
        #expect(!window.isLive && window.isDateAddressable)
        #expect(window.startProgramDate == firstDate)
        let md5s = try ffmpegVideoMD5s(Rollover.playlist)
        let check = try HLSEngine(url: Rollover.playlist)
        for offset in Self.offsets {
            let requested = try date(offset)
            // The frame covering the date: 24 frames a second from the first date.
            let seconds = try MediaTime(parsing: offset)
            let expected = Int((seconds.value * 24) / Int64(seconds.timescale))
            guard case .seeked(let outcome) = await player.seek(toDate: requested, precision: .exact) else {
                Issue.record("\(offset) s: unavailable"); continue
            }
            #expect(
                outcome.frameIndex == expected, "\(offset) s after the first date: frame \(outcome.frameIndex ?? -1), expected \(expected)")
            #expect(
                outcome.landedDate == firstDate.advanced(by: MediaTime(value: Int64(expected), timescale: 24)),
                "\(offset) s: landed date \(outcome.landedDate?.iso8601 ?? "nil")")
            #expect(outcome.withinRequestedTolerance && !outcome.damaged)
            // The same frame's pixels, by the engine on its own, against ffmpeg's decode.
            _ = try check.seek(to: outcome.landedMediaTime, precision: .exact)
            #expect(try check.landedPicture()?.md5 == md5s[expected], "\(offset) s: MD5 of frame \(expected)")
        }
    }

    @Test("Off-grid EXTINFs and a date jump at every segment: each segment's date lands on its first frame, with that date")
    func offGridDateJumps() async throws {
        let directory = try TemporaryDirectory()
        try Rollover.copySegments(0..<3, into: directory)
        // 2.000001 s is off the 1/90000 grid, so each segment's start is rounded down to ticks.
        let dates = ["2024-03-04T10:00:00.000Z", "2024-03-04T11:00:00.000Z", "2024-03-04T12:00:00.000Z"]
        let playlist = directory.file("jump.m3u8")
        try writePlaylist(
            playlist,
            (0..<3).map {
                PlaylistEntry(uri: Rollover.segmentFile($0), duration: "2.000001", discontinuity: $0 > 0, date: dates[$0])
            },
            targetDuration: 2, endList: true)
        let md5s = try Rollover.segmentMD5s(0..<3)
        let player = hlsPlayer()
        try await player.load(URL(fileURLWithPath: playlist))
        let engine = try HLSEngine(url: playlist)
        for (position, text) in dates.enumerated() {
            let requested = try ProgramDate(parsing: text)
            guard case .seeked(let outcome) = await player.seek(toDate: requested, precision: .exact) else {
                Issue.record("\(text): unavailable"); continue
            }
            #expect(outcome.landedDate == requested, "\(text): the player dates the landing \(outcome.landedDate?.description ?? "nil")")
            _ = try engine.seek(to: try engine.liveSeekWindow.time(forDate: requested).get(), precision: .exact)
            #expect(engine.landedDate == requested, "\(text): the engine dates the landing \(engine.landedDate?.description ?? "nil")")
            #expect(try engine.landedPicture()?.md5 == md5s[position][0], "\(text): segment \(position)'s first frame, decoded alone")
        }
    }

    @Test("Dates outside the window, a file, and no item give their typed reasons")
    func unavailableDates() async throws {
        let player = hlsPlayer()
        guard case .unavailable(.noCurrentItem) = await player.seek(toDate: firstDate) else {
            Issue.record("no item: expected noCurrentItem"); return
        }
        try await player.load(URL(fileURLWithPath: Rollover.playlist))
        let before = await player.seek(toDate: try date("-0.001"))
        guard case .unavailable(let early) = before, case .dateBeforeWindow = early else {
            Issue.record("a millisecond before the window: \(before)"); return
        }
        #expect(early.explanation.contains("2024-03-04T23:02:17.684Z"))
        let after = await player.seek(toDate: try date("20"))
        guard case .unavailable(.dateAfterWindow) = after else { Issue.record("at the window's end: \(after)"); return }
        guard case .seeked(let last) = await player.seek(toDate: try date("19.999")) else {
            Issue.record("inside the last frame: unavailable"); return
        }
        #expect(last.frameIndex == 479)

        let file = Player(engineFactory: FFmpegEngine.factoryForTests, callbackQueue: DispatchQueue(label: "file-player"))
        try await file.load(URL(fileURLWithPath: Repository.fixture("media/h264_mpegts_offset.ts")))
        #expect(file.liveSeekWindow == .notLive)
        guard case .unavailable(.notDateAddressable) = await file.seek(toDate: firstDate) else {
            Issue.record("a file: expected notDateAddressable"); return
        }
    }

    @Test("A live playlist over loopback HTTP: the player's reloads grow and slide the window, and the live edge follows")
    func liveOverHTTP() async throws {
        let directory = try TemporaryDirectory()
        try Rollover.copySegments(0..<6, into: directory)
        let playlist = directory.file("live.m3u8")
        try writePlaylist(playlist, (0..<3).map(Rollover.entry), targetDuration: 2, endList: false)
        let server = try HTTPServer(directory: directory.path)
        defer { server.stop() }
        let md5s = try Rollover.segmentMD5s(0..<6)

        let scheduler = ManualReloadScheduler()
        let player = hlsPlayer(scheduler)
        let log = EventLog()
        let recorder = LiveWindowRecorder(log)
        player.addSeekPrecisionListener(recorder)
        try await player.load(try #require(URL(string: "http://127.0.0.1:\(server.port)/live.m3u8")))
        var window = player.liveSeekWindow
        #expect(window.isLive && window.seekableRange == MediaTime.zero..<MediaTime(value: 6, timescale: 1))
        // Three target durations held back from a 6 s window: the edge is the window's start.
        #expect(window.liveEdge == .zero)
        #expect(scheduler.pendingDelays == [MediaTime(value: 2, timescale: 1)], "reloads are scheduled a target duration apart")

        // The server's playlist grows by two segments; the scheduled reload finds them.
        try writePlaylist(playlist, (0..<5).map(Rollover.entry), targetDuration: 2, endList: false)
        #expect(scheduler.fireNext())
        try await waitUntil("the grown window") { player.liveSeekWindow.segmentCount == 5 }
        window = player.liveSeekWindow
        #expect(window.seekableRange == MediaTime.zero..<MediaTime(value: 10, timescale: 1))
        #expect(window.liveEdge == MediaTime(value: 4, timescale: 1))
        let edge = try #require(await player.seekToLiveEdge())
        #expect(edge.landedMediaTime == MediaTime(value: 4, timescale: 1))
        #expect(edge.landedDate == (try date("4")))

        // It slides: the first two segments leave, a sixth arrives.
        try writePlaylist(playlist, (2..<6).map(Rollover.entry), mediaSequence: 2, targetDuration: 2, endList: false)
        #expect(try await player.reloadLiveWindow())
        window = player.liveSeekWindow
        #expect(
            window.seekableRange == MediaTime(value: 4, timescale: 1)..<MediaTime(value: 12, timescale: 1),
            "kept segments keep their times")
        #expect(window.liveEdge == MediaTime(value: 6, timescale: 1))
        #expect(window.startProgramDate == (try date("4")))
        guard case .unavailable(.dateBeforeWindow) = await player.seek(toDate: try date("3.9")) else {
            Issue.record("a date in a segment that left the window must be unavailable"); return
        }
        guard case .seeked(let newest) = await player.seek(toDate: try date("11.5")) else {
            Issue.record("a date in the newest segment: unavailable"); return
        }
        #expect(newest.landedMediaTime == MediaTime(value: 11 * 24 + 12, timescale: 24))
        let engine = try HLSEngine(url: "http://127.0.0.1:\(server.port)/live.m3u8")
        _ = try engine.seek(to: newest.landedMediaTime - MediaTime(value: 4, timescale: 1), precision: .exact)
        #expect(try engine.landedPicture()?.md5 == md5s[5][36], "the newest segment's frame 36, as ffmpeg decodes it")
        let clamped = await player.seek(to: MediaTime(value: 1, timescale: 1))
        #expect(clamped.landedMediaTime == MediaTime(value: 4, timescale: 1), "a time that left the window clamps to its start")
        #expect(recorder.windows.map(\.segmentCount) == [5, 4], "one window event per change, in order")
        await player.close()
    }
}

extension FFmpegEngine {
    /// The file engine alone, for a player that must not see playlists.
    static let factoryForTests: PlaybackEngineFactory = { url throws(MediaError) in
        try FFmpegEngine(path: url.path)
    }
}
