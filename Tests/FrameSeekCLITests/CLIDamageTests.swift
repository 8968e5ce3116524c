// The command line on damaged and truncated media: every seek, step and frames record says
// `damaged` and `decode_errors`, text marks damage, one warning line per file goes to stderr,
// and --strict makes damage and truncation exit 2 with one line naming the file and the first
// damaged frame. The truth is FFmpeg's: the framemd5 of the damaged and of the clean file.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// Parses JSON Lines output.
private func records(_ result: RunResult) throws -> [[String: Any]] {
    try result.out.map { line in
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
    }
}

/// FFmpeg's MD5 by PTS for the damaged and the clean decode, from the committed oracles.
private func oracleMD5s() throws -> (damaged: [Int64: String], clean: [Int64: String]) {
    (try framemd5ByPTS("oracle/bitflip_mdat.mp4.s0.framemd5"), try framemd5ByPTS("oracle/h264_bframes_gop250.mp4.s0.framemd5"))
}

@Suite("CLI: damage and truncation", .ffmpegLog)
struct CLIDamageTests {
    static let bitflip = Repository.fixture("bad/bitflip_mdat.mp4")
    static let halfMKV = Repository.fixture("bad/truncated_half.mkv")
    /// Frame times of the damaged file (30000/1001 fps from 0): a clean frame before the
    /// damage, frames downstream of it, a clean one after the next IDR.
    static let frames = [100, 230, 240, 249, 260]
    static func time(_ frame: Int) -> String { "\(frame * 1001)/30000" }

    @Test(
        "seek --json --md5: every record has damaged and decode_errors; downstream frames are flagged, unflagged ones carry FFmpeg's MD5; one warning line"
    )
    func seekJSON() throws {
        let (damaged, clean) = try oracleMD5s()
        let result = frameseek(["seek", Self.bitflip] + Self.frames.map(Self.time) + ["--json", "--md5"])
        #expect(result.code == .success)
        let lines = try records(result)
        #expect(lines.count == Self.frames.count)
        var flagged = 0
        for line in lines {
            let pts = try #require((line["landed_pts"] as? NSNumber)?.int64Value)
            let isDamaged = try #require(line["damaged"] as? Bool, "no damaged field: \(line)")
            let errors = try #require((line["decode_errors"] as? NSNumber)?.intValue, "no decode_errors field")
            #expect(isDamaged == (errors > 0))
            if damaged[pts] != clean[pts] { #expect(isDamaged, "pts \(pts) downstream of the damage, not flagged") }
            if !isDamaged { #expect(line["md5"] as? String == damaged[pts], "pts \(pts): unflagged MD5 is not FFmpeg's") }
            if isDamaged { flagged += 1 }
        }
        #expect(flagged >= 3)
        #expect(result.err.count == 1, "stderr: \(result.err)")
        #expect(result.err.first?.contains(Self.bitflip) == true && result.err.first?.contains("warning") == true)
    }

    @Test("seek text marks damaged landings")
    func seekText() {
        let result = frameseek(["seek", Self.bitflip, Self.time(100), Self.time(240)])
        #expect(result.code == .success)
        #expect(result.out.count == 2)
        #expect(!(result.out.first ?? "").contains("DAMAGED"))
        #expect(result.out.last?.contains("DAMAGED (") == true, "\(result.out)")
        #expect(result.err.count == 1)
    }

    @Test("--strict on seek, step and thumbnails: exit 2, one line naming the file and the first damaged frame")
    func strict() throws {
        let seek = frameseek(["seek", Self.bitflip, Self.time(100), Self.time(240), "--strict", "--json"])
        #expect(seek.code == .usageOrInput)
        #expect(seek.err.count == 1, "\(seek.err)")
        #expect(seek.err.first?.contains(Self.bitflip) == true)
        #expect(seek.err.first?.contains("frame 240") == true, "\(seek.err)")
        #expect(seek.out.count == 1, "the clean landing before the damaged one is printed, the damaged one not")

        let step = frameseek(["step", Self.bitflip, "--at", Self.time(229), "--forward", "--strict"])
        #expect(step.code == .usageOrInput)
        #expect(step.err.count == 1 && step.err.first?.contains("frame 230") == true, "\(step.err)")

        let clean = frameseek(["seek", Self.bitflip, Self.time(100), "--strict"])
        #expect(clean.code == .success && clean.err.isEmpty, "\(clean.err)")

        let folder = testScratchPath("damage-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let thumbs = frameseek(["thumbnails", Self.halfMKV, "--out", folder, "--strict"])
        #expect(thumbs.code == .usageOrInput)
        #expect(thumbs.err.count == 1 && thumbs.err.first?.contains("truncated") == true, "\(thumbs.err)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty, "nothing written under --strict")
    }

    @Test("step --json records carry damaged and decode_errors; the step over the undecodable frame moves 2 and is damaged")
    func stepJSON() throws {
        let result = frameseek(["step", Self.bitflip, "--at", Self.time(220), "--forward", "--repeat", "4", "--json"])
        #expect(result.code == .success)
        let lines = try records(result)
        #expect(lines.count == 4)
        for line in lines {
            #expect(line["damaged"] is Bool && line["decode_errors"] is NSNumber, "\(line)")
        }
        // 220 -> 221 -> 223 (222 is not produced, by FFmpeg either) -> 224 -> 225.
        #expect(lines.map { ($0["frame_index"] as? NSNumber)?.intValue } == [221, 223, 224, 225])
        #expect((lines[1]["frames_stepped"] as? NSNumber)?.intValue == 2)
        #expect(lines.allSatisfy { $0["damaged"] as? Bool == true }, "all downstream of the damage")
    }

    @Test("frames --json records carry damaged and decode_errors; a truncated file warns once, and --strict fails")
    func framesJSON() throws {
        let result = frameseek(["frames", Self.halfMKV, "--json"])
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data((result.out.first ?? "").utf8)) as? [String: Any])
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(!frames.isEmpty && frames.allSatisfy { $0["damaged"] is Bool && $0["decode_errors"] is NSNumber })
        #expect(result.err.count == 1 && result.err.first?.contains("truncated") == true, "\(result.err)")
        let strict = frameseek(["frames", Self.halfMKV, "--strict"])
        #expect(strict.code == .usageOrInput && strict.err.count == 1 && strict.out.isEmpty)
    }

    @Test("probe shows truncation in text and JSON (null for a complete file); --strict makes it exit 2")
    func probe() throws {
        let json = frameseek(["probe", Self.halfMKV, "--json"])
        #expect(json.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data((json.out.first ?? "").utf8)) as? [String: Any])
        let truncation = try #require(object["truncation"] as? [String: Any], "\(object)")
        // ffprobe: format duration 5.375 s; the last packet of the cut file ends at 2.675 s.
        #expect(abs(((truncation["stated_duration"] as? NSNumber)?.doubleValue ?? 0) - 5.375) < 0.001)
        #expect(abs(((truncation["readable_end"] as? NSNumber)?.doubleValue ?? 0) - 2.675) < 0.05)

        let text = frameseek(["probe", Self.halfMKV])
        #expect(text.out.contains { $0.contains("truncated: readable to") }, "\(text.out)")

        let complete = frameseek(["probe", Repository.fixture("media/h264_vfr.mkv"), "--json", "--strict"])
        #expect(complete.code == .success && complete.err.isEmpty)
        let completeObject = try #require(try JSONSerialization.jsonObject(with: Data((complete.out.first ?? "").utf8)) as? [String: Any])
        #expect(completeObject["truncation"] is NSNull)

        let strict = frameseek(["probe", Self.halfMKV, "--strict"])
        #expect(strict.code == .usageOrInput && strict.err.count == 1 && strict.err.first?.contains(Self.halfMKV) == true)
    }

    @Test("A seek past the readable end of a truncated file says why it clamps")
    func clampExplained() throws {
        let result = frameseek(["seek", Self.halfMKV, "5", "--json"])
        #expect(result.code == .success)
        let line = try #require(try records(result).first)
        #expect(line["clamp"] as? String == "end")
        #expect((line["clamp_explanation"] as? String)?.contains("truncated") == true, "\(line)")
        let text = frameseek(["seek", Self.halfMKV, "5"])
        #expect(text.out.first?.contains("truncated") == true, "\(text.out)")
    }

    @Test("A damaged moov is named a damaged header, in one line, exit 2")
    func damagedHeader() {
        let path = Repository.fixture("bad/damaged_moov.mp4")
        let result = frameseek(["probe", path])
        #expect(result.code == .usageOrInput)
        #expect(result.err.count == 1)
        #expect(result.err.first?.contains("\(path): damaged header") == true, "\(result.err)")
        #expect(result.err.first?.contains("Cannot allocate memory") == false || result.err.first?.contains("damaged header") == true)
    }
}
