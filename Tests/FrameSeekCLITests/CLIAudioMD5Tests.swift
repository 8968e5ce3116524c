// seek --md5 on audio streams against the independent oracle: `ffmpeg -i F -map 0:a:0
// -f framemd5 -`, which hashes each decoded frame as pcm_s16le (Fixtures/oracle/*.framemd5,
// written by Fixtures/make-fixtures.sh). Targets come from ffprobe's frame table.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("Command line: audio MD5s", .ffmpegLog)
struct CLIAudioMD5Tests {
    @Test(
        "seek --md5 on audio prints ffmpeg's framemd5 for the frame, forward and backward",
        arguments: FixtureCatalog.audio)
    func audioMD5(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let md5s = try framemd5Column(fixture)
        try #require(md5s.count == oracle.count, "\(fixture.id): \(md5s.count) MD5s for \(oracle.count) frames")
        // Every frame forward, then every third one backward (each backward target is a
        // demuxer seek, after which a decoder's state differs from a decode from the start).
        let forward = Array(0..<oracle.count)
        let backward = Array(stride(from: oracle.lastIndex, through: 0, by: -3))
        for order in [forward, backward] {
            let lines = jsonLines(
                ["seek", fixture.path] + order.map { oracle.middleText($0) }
                    + ["--stream", String(fixture.stream), "--md5", "--json"])
            try #require(lines.count == order.count)
            for (line, index) in zip(lines, order) {
                #expect(JSON.int(line["frame_index"]) == index)
                #expect(line["md5"] as? String == md5s[index], "\(fixture.id) frame \(index)")
            }
        }
    }

    @Test("--png of an audio stream is refused before anything is written", arguments: FixtureCatalog.audio)
    func audioPNG(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("audio-png")
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("x.png").path
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: fixture.id, arguments: ["seek", fixture.path, "0.5", "--md5", "--png", png],
                mustContain: [fixture.path, "--png needs a video stream", "audio"]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
