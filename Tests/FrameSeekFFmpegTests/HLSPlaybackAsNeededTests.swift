// Playback of a VOD playlist read as needed, as a player plays one: the engine fetches the
// segments the playhead reaches, never the whole window's table. On the rollover stream (24 fps,
// 48 frames a segment, every segment 2 s) the player runs on a virtual clock across a segment
// boundary, frame by frame and with a late tick. The truth: the frame due at each clock reading,
// from the playlist's 24 fps alone, and ffmpeg's decode of each segment for the pictures shown.

import Dispatch
import Foundation
@testable import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Playback of a playlist read as needed", .serialized, .ffmpegLog)
struct HLSPlaybackAsNeededTests {
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
}
