// Playback of media read as needed, as a player plays it: a VOD playlist's engine fetches the
// segments the playhead reaches, and a Matroska file's reads the windows it reaches, never the
// whole table. On the rollover stream (24 fps, 48 frames a segment, every segment 2 s) the
// player runs on a virtual clock across a segment boundary, frame by frame and with a late tick;
// on the VFR Matroska fixture, across its second keyframe. The truth: the frame due at each
// clock reading, from the playlist's 24 fps alone or from ffprobe's frame table, and ffmpeg's
// decode for the pictures shown.

import Dispatch
import Foundation
@testable import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Playback of media read as needed", .serialized, .ffmpegLog)
struct PlaybackAsNeededTests {
    @Test("Frames come due on the clock across a segment boundary, with ffmpeg's pixels, and the window is never indexed whole")
    func playsWithoutTheWholeTable() async throws {
        let clock = ManualPlayerClock(), ticker = ManualPlaybackTicker(), callbacks = TestQueue("hls-as-needed-playback")
        let player = Player(
            engineFactory: FFmpegEngine.factory(), callbackQueue: callbacks.queue, clock: clock,
            reloadScheduler: ManualReloadScheduler(), playbackScheduler: ticker)
        try await player.load(URL(fileURLWithPath: Rollover.playlist))
        func settle() async {
            _ = await player.host.perform { _ in 0 }
            await callbacks.drain()
        }
        /// Whether the engine has indexed the whole window, and the MD5 of the picture it shows.
        func engineState() async -> (wholeWindow: Bool, md5: String?) {
            await player.host.perform { engine -> (Bool, String?) in
                guard let hls = engine as? HLSEngine else { return (true, nil) }
                return (hls.indexedFrameTable != nil, (try? hls.landedPicture())?.md5)
            } ?? (true, nil)
        }
        let md5s = try Rollover.segmentMD5s(0..<Rollover.segmentCount)
        /// Frame `index` of the window: 48 a segment, 24 a second.
        func expectedMD5(_ index: Int) -> String { md5s[index / Rollover.framesPerSegment][index % Rollover.framesPerSegment] }

        // 3.5 s is frame 84 of segment 1; segment 2 starts at 4 s, frame 96.
        let start = MediaTime(value: 7, timescale: 2)
        _ = await player.seek(to: start, precision: .exact)
        try player.play()
        ticker.fireAll()
        await settle()
        #expect(player.currentTime == start)
        var elapsed = 0
        for _ in 0..<30 {
            clock.advance(by: .milliseconds(40))
            elapsed += 40
            ticker.fireAll()
            await settle()
            let due = 84 + elapsed * 24 / 1000
            #expect(player.currentTime == MediaTime(value: Int64(due), timescale: 24), "\(elapsed) ms after 3.5 s")
            if (94...98).contains(due) {
                let state = await engineState()
                #expect(state.md5 == expectedMD5(due), "frame \(due)'s picture")
            }
        }
        // A tick 3 s late: the frame due then, by one seek.
        clock.advance(by: .seconds(3))
        elapsed += 3000
        ticker.fireAll()
        await settle()
        let late = 84 + elapsed * 24 / 1000
        #expect(player.currentTime == MediaTime(value: Int64(late), timescale: 24) && late > 96 + 48, "frame \(late)")
        let state = await engineState()
        #expect(state.md5 == expectedMD5(late))
        #expect(!state.wholeWindow, "playback indexed every segment of the playlist")
        player.pause()
        await player.close()
    }

    @Test("A synchronous step on a playlist read as needed answers at once with the playhead, then lands on the next frame")
    func synchronousStepWithoutTheTable() async throws {
        let callbacks = TestQueue("hls-as-needed-step")
        let player = Player(
            engineFactory: FFmpegEngine.factory(), callbackQueue: callbacks.queue, clock: ManualPlayerClock(),
            reloadScheduler: ManualReloadScheduler(), playbackScheduler: ManualPlaybackTicker())
        try await player.load(URL(fileURLWithPath: Rollover.playlist))
        // 3.5 s is frame 84 at 24 fps; the next frame is 85.
        let start = MediaTime(value: 7, timescale: 2)
        _ = await player.seek(to: start, precision: .exact)
        let tableless = await player.host.perform { $0.indexedFrameTable == nil } ?? false
        #expect(tableless, "the playlist's engine indexed its window")
        // The synchronous form, as SDK code calls it; without a table it cannot know the frame yet.
        let result = { player.stepFrame(.forward) }()
        #expect(result == .stepped(.forward, landedMediaTime: start))
        _ = await player.host.perform { _ in 0 }
        await callbacks.drain()
        #expect(player.currentTime == MediaTime(value: 85, timescale: 24))
        await player.close()
    }

    @Test(
        "A Matroska file opened as needed plays on the clock across its keyframe (VFR), with ffprobe's frames and ffmpeg's pixels, never indexed whole"
    )
    func playsAFileWithoutTheWholeTable() async throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        var options = FFmpegEngine.Options()
        options.indexing = .asNeeded
        let clock = ManualPlayerClock(), ticker = ManualPlaybackTicker(), callbacks = TestQueue("mkv-as-needed-playback")
        let player = Player(
            engineFactory: FFmpegEngine.factory(options: options), callbackQueue: callbacks.queue, clock: clock,
            reloadScheduler: ManualReloadScheduler(), playbackScheduler: ticker)
        try await player.load(URL(fileURLWithPath: fixture.path))
        func settle() async {
            _ = await player.host.perform { _ in 0 }
            await callbacks.drain()
        }
        /// Whether the engine built the whole table, the frame it stands on (the shown one, or
        /// the next when it is held until due) and that frame's picture's MD5.
        func engineState() async -> (wholeStream: Bool, time: MediaTime?, md5: String?) {
            await player.host.perform { engine -> (Bool, MediaTime?, String?) in
                guard let file = engine as? FFmpegEngine else { return (true, nil, nil) }
                return (file.indexesWholeStream, file.currentFrameTime, (try? file.landedPicture())?.md5)
            } ?? (true, nil, nil)
        }
        let keyframe = try #require(oracle.keyframes.dropFirst().first)
        let start = oracle.time(keyframe - 12)
        _ = await player.seek(to: start, precision: .exact)
        try player.play()
        ticker.fireAll()
        await settle()
        var elapsed = 0, pictures = 0
        for _ in 0..<50 {
            clock.advance(by: .milliseconds(15))
            elapsed += 15
            ticker.fireAll()
            await settle()
            let due = try #require(oracle.covering(start + MediaTime(value: Int64(elapsed), timescale: 1000)))
            #expect(player.currentTime == oracle.time(due), "\(elapsed) ms after frame \(keyframe - 12): frame \(due)")
            let state = await engineState()
            if state.time == oracle.time(due) {
                #expect(state.md5 == md5s[due], "frame \(due)'s picture")
                pictures += 1
            } else {
                #expect(state.time == oracle.time(due + 1), "the engine holds frame \(due + 1) until it is due")
            }
        }
        #expect(pictures >= 25, "the engine stood on the shown frame at \(pictures) of 50 ticks")
        #expect(oracle.covering(start + MediaTime(value: Int64(elapsed), timescale: 1000))! > keyframe, "the run crossed the keyframe")
        #expect(await engineState().wholeStream == false, "playback built the whole stream's table")
        player.pause()
        await player.close()
    }
}
