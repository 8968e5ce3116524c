// True seek cost in every container a CDN serves: a clip made here by ffmpeg and stream-copied
// into fragmented MP4 (with a global sidx, and with an mfra only), Matroska and MPEG-TS, each
// served over HTTP by a range server of its own, whose count is the truth. `bench` must count
// the open and every seek to the byte and the request, whichever way each container is read.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Seek cost: bench counts every container over HTTP", .ffmpegLog)
struct SeekCostContainerTests {
    /// Each form: its file name and the ffmpeg options that make it from the clip.
    static let forms: [(name: String, options: [String])] = [
        ("clip.sidx.mp4", ["-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof+global_sidx"]),
        ("clip.mfra.mp4", ["-f", "mp4", "-movflags", "+frag_keyframe+empty_moov+default_base_moof"]),
        ("clip.mkv", ["-f", "matroska"]),
        ("clip.ts", ["-f", "mpegts"])
    ]

    @Test("bench's open and seek counts equal what the server sent, in fragmented MP4, Matroska and MPEG-TS", .timeLimit(.minutes(5)))
    func countsMatchTheServer() throws {
        let directory = try temporaryDirectory("seek-cost-containers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mp4").path
        try runTool([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=40",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
            "-bf", "2", "-pix_fmt", "yuv420p", clip
        ])
        for form in Self.forms {
            let (folder, _) = try streamCopy(clip, to: form.name, in: directory, form.options)
            let server = try HTTPServer(directory: folder.path, byteRanges: true)
            defer { server.stop() }
            try Self.expectBenchCountsWhatTheServerSent("http://127.0.0.1:\(server.port)/\(form.name)", server: server, name: form.name)
        }
    }

    /// Runs `bench URL --workload random -n 8` and expects its open's and seeks' counts of bytes
    /// and requests to be what `server` sent for them.
    static func expectBenchCountsWhatTheServerSent(_ url: String, server: HTTPServer, name: String) throws {
        let before = try server.sent()
        let run = frameseek(["bench", url, "--workload", "random", "-n", "8", "--json", "--no-index-cache"])
        #expect(run.code == .success, "\(name): \(run.stderr.text)")
        let row = try #require(run.out.compactMap(JSON.object).first, "\(name): \(run.out)")
        let samples = try #require(row["samples"] as? [[String: Any]])
        #expect(samples.count == 8, "\(name)")
        let bytes = try #require(JSON.int64(row["open_bytes_read"])) + samples.compactMap { JSON.int64($0["bytes_read"]) }.reduce(0, +)
        let requests = try #require(JSON.int64(row["open_requests"])) + samples.compactMap { JSON.int64($0["requests"]) }.reduce(0, +)
        let after = try server.sent()
        let (sentBytes, sentRequests) = (after.bytes - before.bytes, Int64(after.requests - before.requests))
        #expect(bytes == sentBytes, "\(name): counted \(bytes) bytes, the server sent \(sentBytes)")
        #expect(requests == sentRequests, "\(name): counted \(requests) requests, the server had \(sentRequests)")
    }
}

@Suite("Seek cost: audio read through its target over HTTP", .ffmpegLog)
struct SeekCostAudioPrefixTests {
    @Test("An MP3 or Ogg seek reads the stream's prefix, not the file; bench counts what the server sent", .timeLimit(.minutes(5)))
    func prefixOverHTTP() throws {
        let directory = try temporaryDirectory("seek-cost-audio-prefix")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Ten minutes: the requests' fixed costs (the header, twice, and a landing) are small
        // beside half the stream.
        // The most of the file a seek halfway may read: the MP3's prefix and its header; the Ogg
        // file's header is read twice with its last page (for the duration), and its landing
        // bisects pages (FFmpeg's Ogg seek).
        let forms: [(name: String, options: [String], percent: Int64)] = [
            ("book.mp3", ["-c:a", "libmp3lame", "-b:a", "64k"], 62), ("book.ogg", ["-c:a", "libopus", "-b:a", "32k"], 75)
        ]
        for (name, options, percent) in forms {
            let path = directory.appendingPathComponent(name).path
            try runTool(
                ["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=d=600:c=pink:r=48000:a=0.1:seed=5", "-ac", "1"]
                    + options + [path])
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64)
            let server = try HTTPServer(directory: directory.path, byteRanges: true)
            defer { server.stop() }
            let url = "http://127.0.0.1:\(server.port)/\(name)"

            // Halfway: the prefix is half the file. The reader's doubling requests would run
            // past it by up to one of their own (to 4 MB of the 4.8 MB MP3); they stop where the
            // bit rate puts the target.
            let seek = frameseek(["seek", url, "300", "--json", "--no-index-cache"])
            #expect(seek.code == .success, "\(name): \(seek.stderr.text)")
            let halfway = try server.sent()
            #expect(
                halfway.bytes < size * percent / 100,
                "\(name): a seek halfway read \(halfway.bytes) bytes of \(size) in \(halfway.requests) requests")
            // Over HTTP every Ogg page after the first failed its CRC, and the seek landed a
            // second in, the file taken for truncated.
            #expect(seek.stderr.text.isEmpty, "\(name): \(seek.stderr.text)")
            let landed = try #require(seek.out.compactMap(JSON.object).first?["landed"] as? Double, "\(name): \(seek.out)")
            #expect(abs(landed - 300) < 0.1, "\(name): landed at \(landed) s")

            try SeekCostContainerTests.expectBenchCountsWhatTheServerSent(url, server: server, name: name)
        }
    }
}
