// AAC and AC-3 landed samples (FFmpegEngine.landedAudio): decoded from a few frames back only
// where a second decode, whose random generator has moved on, gives the same samples; else
// from the stream's start. Checked against `ffmpeg -f framemd5`, a decode from the start, on
// encodes made here with and without AAC's noise substitution (PNS).

import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("AAC and AC-3 landed samples: a short decode only where the random generator plays no part", .ffmpegLog)
struct AudioStateCheckTests {
    static let encodes: [(name: String, options: [String])] = [
        ("nopns.m4a", ["-c:a", "aac", "-aac_pns", "0", "-b:a", "64k"]),
        ("pns.m4a", ["-c:a", "aac", "-aac_pns", "1", "-b:a", "24k"]),
        ("ac3.mkv", ["-c:a", "ac3", "-b:a", "96k"])
    ]

    @Test(
        "Every landing's samples are framemd5's; without noise bands they come from a short decode, with them some do not",
        arguments: [0, 1, 2])
    func landedSamples(_ encode: Int) throws {
        let (name, encoding) = Self.encodes[encode]
        let directory = try temporaryDirectory("audio-state-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (path, probed, md5s) = try AudioPacketTableTests.encodeMinute(name, encoding, sampleRate: 44100, in: directory)
        try #require(probed.count > 1000 && md5s.count == probed.count, "\(name): \(probed.count) frames, \(md5s.count) MD5s")

        let engine = try FFmpegEngine(path: path, options: .init(streamIndex: 0))
        let count = probed.count
        var shortDecodes = 0
        let landings = [0, 5, 9, 10, count / 3, count / 2, count / 2 + 1, count * 2 / 3, count - 2, count - 1]
        for k in landings {
            let landing = try engine.seek(to: engine.frameTable.frames[k].time, precision: .exact)
            #expect(landing.frame.pts == probed[k], "\(name): frame \(k)")
            let landed = try #require(try engine.landedAudioAndItsDecode(), "\(name): frame \(k)")
            #expect(landed.audio.md5 == md5s[k], "\(name): frame \(k), decoded from \(landed.decodedFrom.map(String.init) ?? "the start")")
            if landed.decodedFrom != nil { shortDecodes += 1 }
        }
        switch name {
        case "nopns.m4a":
            // Frames 0 and 5 lie within the pre-roll and decode from the start.
            #expect(shortDecodes == landings.count - 2, "\(name): \(shortDecodes) short decodes")
        case "pns.m4a":
            #expect(shortDecodes < landings.count - 2, "\(name): noise bands were never noticed")
        default:
            break
        }
    }
}
