// Landing checks across a re-encode: 20 exact landings recorded with their pictures on a 720p
// x264 encode, then checked with `--tolerance ssim:0.95` against three re-encodes made here by
// the ffmpeg CLI: x264 at another crf and GOP, x265, and one that dropped its first frame (so
// every landing is one frame late). The truth: ffmpeg's own ssim and psnr filters on the same
// pair of pictures, and the JUnit files read by junitparser (Debian's python3-junitparser).
//
// The content is real footage with a pan: the NASA fixture scaled to 1280x720 and scrolled
// 0.6% of the width a frame, so that neighbouring frames differ as they do in a film, not only
// by noise.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// The 720p encode, its re-encodes and a manifest of 20 exact landings with pictures, made once.
struct ReencodedMedia: Sendable {
    let folder: URL
    let manifest: String
    var source: String { folder.appendingPathComponent("film.mp4").path }
    func variant(_ name: String) -> String { folder.appendingPathComponent("\(name).mp4").path }

    static let made: Result<ReencodedMedia, OracleError> = Result { () throws(OracleError) in
        do { return try make() } catch let error as OracleError { throw error } catch { throw OracleError("\(error)") }
    }

    private static func make() throws -> ReencodedMedia {
        let folder = try temporaryDirectory("landing-reencode")
        let film = folder.appendingPathComponent("film.mp4").path
        func ffmpeg(_ arguments: [String]) throws {
            try runTool(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments)
        }
        try ffmpeg([
            "-i", Repository.fixture("media/nasa_13013.mp4"), "-an", "-t", "8",
            "-vf", "scale=1280:720:flags=lanczos,scroll=h=0.006", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20",
            "-g", "50", "-bf", "3", "-pix_fmt", "yuv420p", film
        ])
        let out = { (name: String) in folder.appendingPathComponent("\(name).mp4").path }
        try ffmpeg(["-i", film, "-c:v", "libx264", "-preset", "veryfast", "-crf", "28", "-g", "120", out("x264")])
        try ffmpeg([
            "-i", film, "-c:v", "libx265", "-preset", "ultrafast", "-crf", "28", "-x265-params", "log-level=error", out("x265")
        ])
        try ffmpeg([
            "-i", film, "-vf", "trim=start_frame=1,setpts=PTS-STARTPTS", "-c:v", "libx264", "-preset", "veryfast",
            "-crf", "20", out("shifted")
        ])
        let manifest = folder.appendingPathComponent("film.landing.json").path
        let recorded = frameseek(["landing", "record", film, "-n", "20", "--seed", "3", "--pictures", "-o", manifest])
        guard recorded.code == .success else { throw OracleError("landing record failed: \(recorded.err)") }
        return ReencodedMedia(folder: folder, manifest: manifest)
    }

    /// A copy of the manifest and its pictures in a folder of its own, for a test that edits them.
    func copy(_ label: String) throws -> String {
        let folder = try temporaryDirectory(label)
        let copy = folder.appendingPathComponent("film.landing.json").path
        try FileManager.default.copyItem(atPath: manifest, toPath: copy)
        try FileManager.default.copyItem(
            atPath: self.folder.appendingPathComponent("film.landing.pictures").path,
            toPath: folder.appendingPathComponent("film.landing.pictures").path)
        try FileManager.default.copyItem(atPath: source, toPath: folder.appendingPathComponent("film.mp4").path)
        return copy
    }
}

/// A JUnit file as junitparser reads it: per suite, its counts and each testcase's name and
/// result kinds (`Failure`, `Skipped`, `Error`; none for a pass).
struct ParsedJUnit: Decodable {
    struct Suite: Decodable {
        let name: String
        let tests: Int, failures: Int, errors: Int, skipped: Int
        let cases: [Case]
    }
    struct Case: Decodable {
        let name: String
        let results: [String]
        let messages: [String?]
    }
    let suites: [Suite]

    static func read(_ path: String) throws -> ParsedJUnit {
        let script = """
            import json, sys, junitparser
            xml = junitparser.JUnitXml.fromfile(sys.argv[1])
            suites = [xml] if isinstance(xml, junitparser.TestSuite) else list(xml)
            print(json.dumps({"suites": [{
                "name": s.name, "tests": s.tests, "failures": s.failures, "errors": s.errors, "skipped": s.skipped,
                "cases": [{"name": c.name, "results": [type(r).__name__ for r in c.result],
                           "messages": [r.message for r in c.result]} for c in s]} for s in suites]}))
            """
        let output = try runTool(["/usr/bin/python3", "-c", script, path])
        return try JSONDecoder().decode(ParsedJUnit.self, from: Data(output.utf8))
    }
}

private func entryLines(_ result: RunResult) -> [[String: Any]] {
    result.out.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        .filter { $0["type"] as? String == "entry" }
}

@Suite("CLI: landing checks across a re-encode", .ffmpegLog)
struct CLILandingToleranceTests {
    @Test(
        "ssim:0.95 passes all 20 landings on x264 (another crf and GOP) and x265, fails at least 18 one frame late; JUnit counts them",
        arguments: [("x264", 0...0), ("x265", 0...0), ("shifted", 18...20)])
    func reencodes(_ variant: String, failures: ClosedRange<Int>) throws {
        let media = try ReencodedMedia.made.get()
        let junit = media.folder.appendingPathComponent("\(variant).junit.xml").path
        let checked = frameseek([
            "landing", "check", media.manifest, "--media", media.variant(variant), "--tolerance", "ssim:0.95",
            "--junit", junit, "--json", "--root", media.folder.path
        ])
        let entries = entryLines(checked)
        #expect(entries.count == 20)
        let moved = entries.filter { $0["status"] as? String == "moved" }
        #expect(failures.contains(moved.count), "\(variant): \(moved.count) moved: \(moved.map { $0["summary"] ?? "" })")
        #expect(checked.code == (moved.isEmpty ? .success : .failedCheck), "\(checked.err)")
        for entry in entries {
            let score = try #require(entry["score"] as? [String: Any])
            let ssim = try #require(score["ssim"] as? Double)
            #expect((ssim >= 0.95) == (entry["status"] as? String == "match"), "\(entry["summary"] ?? "")")
            #expect(entry["media_replaced"] as? Bool == true)
        }
        let parsed = try ParsedJUnit.read(junit)
        let suite = try #require(parsed.suites.first)
        #expect(parsed.suites.count == 1 && suite.tests == 20 && suite.cases.count == 20)
        #expect(suite.failures == moved.count && suite.errors == 0 && suite.skipped == 0)
        #expect(suite.cases.filter { $0.results == ["Failure"] }.count == moved.count)
        // A failure's message says what moved: the score and the tolerance.
        for failure in suite.cases where !failure.results.isEmpty {
            #expect(failure.messages.first??.contains("below 0.95") == true, "\(failure.messages)")
        }
    }

    @Test("Scores agree with ffmpeg's ssim and psnr filters on the same pair of pictures (0.005, 0.1 dB)")
    func scoresMatchFFmpeg() throws {
        let media = try ReencodedMedia.made.get()
        let checked = frameseek([
            "landing", "check", media.manifest, "--media", media.variant("x265"), "--tolerance", "ssim:0.5",
            "--tolerance", "psnr:10", "--json", "--root", media.folder.path
        ])
        let entries = entryLines(checked)
        try #require(entries.count == 20)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: media.manifest))) as? [String: Any])
        let recorded = try #require(manifest["entries"] as? [[String: Any]])
        let scratch = try temporaryDirectory("landing-scores")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for offset in [0, 7, 13] {
            let entry = entries[offset]
            let score = try #require(entry["score"] as? [String: Any])
            // The landed picture as `seek --png` writes it, the reference as recorded.
            let landed = scratch.appendingPathComponent("landed-\(offset).png").path
            let target = try #require((entry["target"] as? String))
            let sought = frameseek(["seek", media.variant("x265"), target, "--png", landed])
            try #require(sought.code == .success, "\(sought.err)")
            let picture = try #require((recorded[offset]["picture"] as? [String: Any])?["path"] as? String)
            let reference = media.folder.appendingPathComponent(picture).path
            let log = scratch.appendingPathComponent("ffmpeg-\(offset).log").path
            try runTool([
                "ffmpeg", "-nostdin", "-hide_banner", "-i", reference, "-i", landed, "-lavfi",
                "[0]format=yuv420p[r0];[1]format=yuv420p[p0];[r0][p0]ssim=stats_file=\(log).ssim;"
                    + "[0]format=yuv420p[r1];[1]format=yuv420p[p1];[r1][p1]psnr=stats_file=\(log).psnr",
                "-f", "null", "-"
            ])
            let ssimLine = try String(contentsOfFile: log + ".ssim", encoding: .utf8)
            let psnrLine = try String(contentsOfFile: log + ".psnr", encoding: .utf8)
            let ffmpegSSIM = try #require(ssimLine.firstMatch(of: /All:([0-9.]+)/).flatMap { Double($0.1) })
            let ffmpegPSNR = try #require(psnrLine.firstMatch(of: /psnr_avg:([0-9.]+)/).flatMap { Double($0.1) })
            let ssim = try #require(score["ssim"] as? Double)
            let psnr = try #require(score["psnr"] as? Double)
            #expect(abs(ssim - ffmpegSSIM) <= 0.005, "entry \(offset): \(ssim) vs ffmpeg \(ffmpegSSIM)")
            #expect(abs(psnr - ffmpegPSNR) <= 0.1, "entry \(offset): \(psnr) dB vs ffmpeg \(ffmpegPSNR) dB")
        }
    }

    @Test("--update against the x264 re-encode rewrites the manifest; a plain MD5 check of that encode then passes")
    func rebaseline() throws {
        let media = try ReencodedMedia.made.get()
        let manifest = try copy(media, "landing-update")
        let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reencode = folder.appendingPathComponent("x264.mp4").path
        try FileManager.default.copyItem(atPath: media.variant("x264"), toPath: reencode)
        let root = ["--root", folder.path]
        // Before: a plain check of the re-encode fails on every entry's pixels.
        let before = frameseek(["landing", "check", manifest, "--media", reencode] + root)
        #expect(before.code == .failedCheck)
        let updated = frameseek(
            ["landing", "check", manifest, "--media", reencode, "--tolerance", "ssim:0.95", "--update"] + root)
        #expect(updated.code == .success, "\(updated.err)")
        #expect(updated.out.filter { $0.contains("updated (") && $0.contains("picture rewritten") }.count == 20, "\(updated.out)")
        let after = frameseek(["landing", "check", manifest] + root)
        #expect(after.code == .success, "\(after.out) \(after.err)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        let from = try #require(json["updated_from"] as? [String: Any])
        let sourceSHA = try runTool(["sha256sum", media.source]).prefix(64)
        #expect(from["media_sha256"] as? String == String(sourceSHA))
        #expect((from["environment"] as? [String: Any])?["ffmpeg"] != nil)
        #expect((json["media"] as? [String: Any])?["path"] as? String == "x264.mp4")
        // Every rewritten picture is what its SHA-256 says.
        for entry in try #require(json["entries"] as? [[String: Any]]) {
            let picture = try #require(entry["picture"] as? [String: Any])
            let path = folder.appendingPathComponent(try #require(picture["path"] as? String)).path
            #expect(try runTool(["sha256sum", path]).prefix(64) == (picture["sha256"] as? String)?.prefix(64))
        }
    }

    @Test("--update leaves entries that moved as recorded; --update-all takes them too, dropping their expected outcome")
    func rebaselineAll() throws {
        let media = try ReencodedMedia.made.get()
        let manifest = try copy(media, "landing-update-all")
        let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shifted = folder.appendingPathComponent("shifted.mp4").path
        try FileManager.default.copyItem(atPath: media.variant("shifted"), toPath: shifted)
        let root = ["--root", folder.path]
        let arguments = ["landing", "check", manifest, "--media", shifted, "--tolerance", "ssim:0.95"] + root
        let recordedPictures = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("film.landing.pictures").path)
        let matching = frameseek(arguments + ["--update"])
        #expect(matching.code == .failedCheck)
        #expect(!matching.out.contains { $0.contains(" updated (") }, "no entry passed, so none is rewritten: \(matching.out)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        var entries = try #require(json["entries"] as? [[String: Any]])
        entries[0]["expected"] = "moved"
        var edited = json
        edited["entries"] = entries
        try JSONSerialization.data(withJSONObject: edited).write(to: URL(fileURLWithPath: manifest))
        #expect(frameseek(["landing", "check", manifest] + root).code == .failedCheck, "the shifted encode, checked by MD5")
        let all = frameseek(arguments + ["--update-all"])
        #expect(all.code == .failedCheck, "the check itself still reports what moved")
        #expect(all.out.filter { $0.contains(" updated (") }.count == 20, "\(all.out)")
        let after = frameseek(["landing", "check", manifest] + root)
        #expect(after.code == .success, "\(after.out)")
        let rewritten = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        #expect((rewritten["entries"] as? [[String: Any]])?.first?["expected"] == nil)
        // Nothing is left under a temporary name beside the pictures.
        let pictures = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("film.landing.pictures").path)
        #expect(pictures.sorted() == recordedPictures.sorted())
    }

    @Test("A manifest without pictures is checked against --reference OLD_MEDIA; without it the check says what is missing")
    func referenceMedia() throws {
        let media = try ReencodedMedia.made.get()
        let folder = try temporaryDirectory("landing-reference")
        defer { try? FileManager.default.removeItem(at: folder) }
        let film = folder.appendingPathComponent("film.mp4").path
        try FileManager.default.copyItem(atPath: media.source, toPath: film)
        let manifest = folder.appendingPathComponent("plain.landing.json").path
        try #require(frameseek(["landing", "record", film, "-n", "6", "--seed", "3", "-o", manifest]).code == .success)
        let root = ["--root", folder.path]
        let withReference = frameseek(
            ["landing", "check", manifest, "--media", media.variant("x265"), "--reference", film, "--tolerance", "ssim:0.95"] + root)
        #expect(withReference.code == .success, "\(withReference.out) \(withReference.err)")
        let shifted = frameseek(
            ["landing", "check", manifest, "--media", media.variant("shifted"), "--reference", film, "--tolerance", "ssim:0.95"]
                + root)
        #expect(shifted.code == .failedCheck)
        let without = frameseek(["landing", "check", manifest, "--media", media.variant("x265"), "--tolerance", "ssim:0.95"] + root)
        #expect(without.code == .usageOrInput)
        #expect(without.err.count == 1 && without.err.first?.contains("--reference") == true, "\(without.err)")
        // --reference must be the recorded media.
        let wrong = frameseek(
            [
                "landing", "check", manifest, "--media", media.variant("x265"), "--reference", media.variant("x264"),
                "--tolerance", "ssim:0.95"
            ] + root)
        #expect(wrong.code == .usageOrInput && wrong.err.first?.contains("recorded media") == true, "\(wrong.err)")
    }

    @Test(
        "A reference picture edited after recording, outside the root or too large, and a reason that is not one line, are refused with exit 2 and one line"
    )
    func hostilePictures() throws {
        let media = try ReencodedMedia.made.get()
        let manifest = try copy(media, "landing-hostile-picture")
        let folder = URL(fileURLWithPath: manifest).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = ["--root", folder.path]
        let arguments = ["landing", "check", manifest, "--media", media.variant("x264"), "--tolerance", "ssim:0.95"] + root
        // Another picture under the recorded name.
        let first = folder.appendingPathComponent("film.landing.pictures/1.png").path
        let second = folder.appendingPathComponent("film.landing.pictures/2.png").path
        let original = try Data(contentsOf: URL(fileURLWithPath: first))
        try FileManager.default.removeItem(atPath: first)
        try FileManager.default.copyItem(atPath: second, toPath: first)
        let swapped = frameseek(arguments)
        #expect(swapped.code == .usageOrInput && swapped.err.count == 1, "\(swapped.err)")
        #expect(swapped.err.first?.contains("not the recorded reference picture") == true, "\(swapped.err)")
        try original.write(to: URL(fileURLWithPath: first))
        // A picture path that leaves the root.
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        var entries = try #require(json["entries"] as? [[String: Any]])
        entries[0]["picture"] = ["path": "../../../etc/passwd", "sha256": String(repeating: "0", count: 64)]
        json["entries"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let outside = frameseek(arguments)
        #expect(outside.code == .usageOrInput && outside.err.count == 1, "\(outside.err)")
        #expect(outside.err.first?.contains("picture.path") == true, "\(outside.err)")
        // A picture whose header asks for 100000 x 100000 pixels: refused before any pixel
        // memory is taken (a PNG signature and IHDR, IDAT and IEND chunks, their CRCs from zlib).
        let huge = folder.appendingPathComponent("film.landing.pictures/huge.png").path
        try runTool([
            "/usr/bin/python3", "-c",
            "import struct,sys,zlib\n"
                + "def chunk(t,d): return struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d))\n"
                + "open(sys.argv[1],'wb').write(b'\\x89PNG\\r\\n\\x1a\\n'"
                + "+chunk(b'IHDR',struct.pack('>IIBBBBB',100000,100000,8,2,0,0,0))"
                + "+chunk(b'IDAT',zlib.compress(b''))+chunk(b'IEND',b''))",
            huge
        ])
        let hugeSHA = String(try runTool(["sha256sum", huge]).prefix(64))
        entries[0]["picture"] = ["path": "film.landing.pictures/huge.png", "sha256": hugeSHA]
        json["entries"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let oversized = frameseek(arguments)
        #expect(oversized.code == .usageOrInput && oversized.err.count == 1, "\(oversized.err)")
        #expect(oversized.err.first?.contains("more than") == true, "\(oversized.err)")
        // A reason that would print a workflow command on a line of its own.
        entries[0]["picture"] = nil
        entries[0]["expected"] = "moved"
        entries[0]["reason"] = "looks fine\n::stop-commands::x"
        json["entries"] = entries
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let injected = frameseek(["landing", "check", manifest] + root)
        #expect(injected.code == .usageOrInput && injected.err.first?.contains("reason") == true, "\(injected.err)")
        #expect(!injected.out.contains { $0.hasPrefix("::") })
        entries[0]["expected"] = nil
        entries[0]["reason"] = nil
        // A tolerance in the manifest that does not parse.
        entries[0]["picture"] = nil
        json["entries"] = entries
        json["tolerances"] = ["ssim:nan"]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let malformed = frameseek(["landing", "check", manifest] + root)
        #expect(malformed.code == .usageOrInput && malformed.err.first?.contains("tolerances") == true, "\(malformed.err)")
        // And on the command line.
        for bad in ["ssim:1.5", "psnr:-3", "vmaf:90", "ssim:nan", "ssim"] {
            #expect(frameseek(["landing", "check", manifest, "--tolerance", bad] + root).code == .usageOrInput, "\(bad)")
        }
    }

    private func copy(_ media: ReencodedMedia, _ label: String) throws -> String { try media.copy(label) }
}
