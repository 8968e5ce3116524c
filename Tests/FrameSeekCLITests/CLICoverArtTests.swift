// The command line on a FLAC with cover art (a PICTURE block, which FFmpeg lists as a video
// stream with the attached-picture disposition): probe marks the cover and selects the audio,
// seek lands in the audio, step answers that there is no video, and `--stream` naming the
// cover is refused in one line.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("CLI: audio with cover art")
struct CLICoverArtTests {
    /// Ten seconds of FLAC (stream 0) with a PNG cover attached (stream 1), in `directory`.
    static func flacWithCover(in directory: URL) throws -> String {
        let cover = directory.appendingPathComponent("cover.png").path
        try runTool(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=s=160x160", "-frames:v", "1", cover])
        let path = directory.appendingPathComponent("cover.flac").path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "sine=f=440:r=44100:d=10", "-i", cover,
            "-map", "0:a", "-map", "1:v", "-c:a", "flac", "-c:v", "copy", "-disposition:v", "attached_pic", path
        ])
        return path
    }

    @Test(
        "probe marks the cover and selects the audio; seek lands; step says there is no video; --stream naming the cover is a one-line error"
    )
    func coverArt() throws {
        let directory = try temporaryDirectory("cli-cover-art")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.flacWithCover(in: directory)

        let probe = frameseek(["probe", path])
        try #require(probe.code == .success, "\(probe.stderr.text)")
        #expect(probe.out.contains { $0.hasPrefix("  stream 0: audio flac") && $0.hasSuffix("<- selected") }, "\(probe.stdout.text)")
        #expect(probe.out.contains { $0.hasPrefix("  stream 1: video png") && $0.hasSuffix("(attached picture)") }, "\(probe.stdout.text)")

        let seek = frameseek(["seek", path, "--at", "5", "--json"])
        #expect(seek.code == .success, "\(seek.stderr.text)")

        let step = frameseek(["step", path, "--at", "5", "--forward"])
        #expect(step.code == .success, "\(step.stderr.text)")
        #expect(step.stdout.text.contains("audioOnly"), "\(step.stdout.text)")

        let named = frameseek(["seek", path, "--stream", "1", "--at", "5"])
        #expect(named.code == .usageOrInput)
        #expect(named.err.count == 1, "\(named.stderr.text)")
        #expect(named.stderr.text.contains("stream 1 is an attached picture (cover art)"), "\(named.stderr.text)")
    }
}
