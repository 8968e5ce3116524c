// The Player loaded with a two-hour presentation over HTTP, packaged by ffmpeg in the test as HLS
// with CMAF segments and as DASH (SegmentTimeline), is ready after the manifest and the init
// segment: the loopback server counts every request by path. A seek then fetches only the
// segment that holds its target, and lands on the frame ffmpeg decodes there (framemd5 of the
// source film, which has a frame every half second, each picture its own: testsrc2's clock); a
// step back across the segment's start fetches the segment before and no other.

import Dispatch
import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("The Player over a two-hour HLS or DASH presentation: ready after the manifest", .serialized, .ffmpegLog)
struct PlayerSegmentedLoadTests {
    /// The packagings: folder, manifest, the init segment's name, ffmpeg's muxer options.
    static let forms: [(folder: String, manifest: String, initSegment: String, options: [String])] = [
        ("hls", "index.m3u8", "init.mp4", ["-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4"]),
        ("dash", "manifest.mpd", "init-stream0.m4s", ["-f", "dash", "-seg_duration", "6", "-use_template", "1", "-use_timeline", "1"])
    ]

    @Test("ready after the manifest and the init segment; a seek fetches one segment and lands on ffmpeg's frame", .timeLimit(.minutes(5)))
    func readyAfterTheManifest() async throws {
        let directory = try temporaryDirectory("player-2h")
        defer { try? FileManager.default.removeItem(at: directory) }
        let film = directory.appendingPathComponent("film.mp4").path
        // Two hours at 2 fps, 64x48: 14,400 frames, a keyframe every 6 s.
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=2:duration=7200",
            "-c:v", "libx264", "-preset", "ultrafast", "-g", "12", "-bf", "2", "-pix_fmt", "yuv420p", film
        ])
        let md5s = try ffmpegVideoMD5s(film)
        try #require(md5s.count == 14_400, "\(md5s.count) frames in the film")
        let target = 3600.25
        let expected = md5s[7200]  // the frame at 3600 s covers 3600.25 s
        for form in Self.forms {
            let folder = directory.appendingPathComponent(form.folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try runTool(
                ["ffmpeg", "-nostdin", "-v", "error", "-i", film, "-c", "copy"] + form.options
                    + [folder.appendingPathComponent(form.manifest).path])
            let server = try HTTPServer(directory: folder.path, byteRanges: true)
            defer { server.stop() }
            let player = Player(engineFactory: FFmpegEngine.factory(), callbackQueue: DispatchQueue(label: "player-2h"))
            try await player.load(try #require(URL(string: "http://127.0.0.1:\(server.port)/\(form.manifest)")))
            let (loaded, _) = try server.requestsAndFaults()
            #expect(loaded == [form.manifest: 1, form.initSegment: 1], "\(form.folder): requests to be ready: \(loaded)")
            let range = try #require(player.seekableRange, "\(form.folder): no seekable range")
            #expect(abs(range.upperBound.seconds - 7200) < 6, "\(form.folder): the window ends at \(range.upperBound.seconds) s")

            let outcome = await player.seek(to: target, precision: .exact)
            #expect(outcome.error == nil && outcome.withinRequestedTolerance && !outcome.damaged, "\(form.folder): \(outcome)")
            let (seeked, _) = try server.requestsAndFaults()
            let segments = seeked.filter { $0.key != form.manifest && $0.key != form.initSegment }
            #expect(segments.count == 1 && segments.values.allSatisfy { $0 == 1 }, "\(form.folder): the seek fetched \(segments)")
            #expect(seeked[form.manifest] == 1 && seeked[form.initSegment] == 1, "\(form.folder): \(seeked)")
            // The landed picture, from an engine of its own on the same presentation and time.
            var asNeeded = FFmpegEngine.Options()
            asNeeded.indexing = .asNeeded
            let check = try HLSEngine(url: "http://127.0.0.1:\(server.port)/\(form.manifest)", options: asNeeded)
            _ = try check.seek(to: outcome.landedMediaTime, precision: .exact)
            #expect(
                try check.landedPicture()?.md5 == expected,
                "\(form.folder): landed at \(outcome.landedMediaTime.seconds) s, not on ffmpeg's frame")
            // A step back across the segment's start fetches the segment before, and only it.
            let (beforeStep, _) = try server.requestsAndFaults()
            let back = await player.stepFrameReport(.backward)
            let (afterStep, _) = try server.requestsAndFaults()
            let fetched = afterStep.filter { beforeStep[$0.key] != $0.value }
            #expect(
                fetched.count == 1 && fetched.allSatisfy { beforeStep[$0.key] == nil && $0.value == 1 },
                "\(form.folder): the step fetched \(fetched)")
            guard case .stepped(_, let stepped) = back.result else {
                Issue.record("\(form.folder): the step back did not step: \(back)")
                await player.close()
                continue
            }
            #expect(abs(stepped.seconds - 3599.5) < 0.001, "\(form.folder): stepped back to \(stepped.seconds) s")
            _ = try check.seek(to: stepped, precision: .exact)
            #expect(try check.landedPicture()?.md5 == md5s[7199], "\(form.folder): stepped back onto another picture")
            await player.close()
        }
    }
}
