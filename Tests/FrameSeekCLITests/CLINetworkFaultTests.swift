// `frameseek seek URL --live-edge --json` against a live origin that fails 30% of its requests
// (scripts/range-http-server.py --faults, seeded): 503s, 500s, 404s, bodies cut short and 1.5 s
// stalls, on segments and on the playlist. The truth: the live edge is the window's end less
// three target durations, 6 s into a window of six 2-s segments, so the first frame of the
// fourth segment: three segments' frames in, as ffprobe counts them.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

@Suite("Command line: network faults", .ownThread, .ffmpegLog)
struct CLINetworkFaultTests {
    /// The rollover fixture's ten segments, `copies` times over, as seg000.ts, seg001.ts, ...
    static func liveSegments(copies: Int = 1) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let source = Repository.fixture("media/hls-ts-rollover")
        let segments = try FileManager.default.contentsOfDirectory(atPath: source).filter { $0.hasSuffix(".ts") }.sorted()
        try #require(segments.count == 10)
        for copy in 0..<copies {
            for (i, name) in segments.enumerated() {
                try FileManager.default.copyItem(
                    atPath: (source as NSString).appendingPathComponent(name),
                    toPath: directory.file(String(format: "seg%03d.ts", copy * segments.count + i)))
            }
        }
        return directory
    }

    /// The lines of `frameseek play ARGUMENTS --json`, run as a process of its own (playback
    /// waits on the clock, which in-process would block the test's own threads).
    static func play(_ arguments: [String]) throws -> [String] {
        try runTool([Repository.builtExecutable("frameseek"), "play"] + arguments + ["--json"])
            .split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The media times `frameseek play --json` reported, in order.
    static func playedTimes(_ lines: [String]) -> [Double] {
        lines.compactMap(JSON.object).filter { $0["event"] as? String == "time" }.compactMap { JSON.double($0["time"]) }
    }

    static let faults =
        #"{"random": {"rate": 0.3, "seed": 7, "kinds": ["503", "500", "404", "cut", "stall:1.5"], "suffixes": [".ts", ".m3u8"]}}"#

    @Test("play takes URLs: a file over HTTP and a VOD playlist play from 0 on the clock")
    func playURLs() throws {
        let directory = try Self.liveSegments()
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for i in 0..<4 { playlist += "#EXTINF:2.000,\n" + String(format: "seg%03d.ts", i) + "\n" }
        try (playlist + "#EXT-X-ENDLIST\n").write(toFile: directory.file("vod.m3u8"), atomically: true, encoding: .utf8)
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        for name in ["seg001.ts", "vod.m3u8"] {
            let times = Self.playedTimes(try Self.play(["http://127.0.0.1:\(server.port)/\(name)", "--for", "2"]))
            #expect((times.first ?? 99) < 0.5 && (times.last ?? 0) >= 1, "\(name): played \(times.first ?? -1) to \(times.last ?? -1) s")
        }
    }

    @Test("play --for 15 on a live origin failing 30% of requests plays on through the faults: at least 10 s of media")
    func playThroughFaults() throws {
        let directory = try Self.liveSegments(copies: 3)
        let server = try HTTPServer(
            directory: directory.path,
            arguments: ["--faults", Self.faults, "--live", "live.m3u8", "30", "6", "2.0", "seg%03d.ts"])
        defer { server.stop() }
        let lines = try Self.play(["http://127.0.0.1:\(server.port)/live.m3u8", "--for", "15"])
        let times = Self.playedTimes(lines)
        let advanced = (times.last ?? 0) - (times.first ?? 0)
        #expect(advanced >= 10, "played \(advanced) s of media in 15 s")
        let events = lines.compactMap(JSON.object).compactMap { $0["event"] as? String }
        #expect(events.first == "started" && events.last == "stopped", "\(Set(events))")
        #expect(events.contains("live_window_changed"), "no reload changed the window: \(Set(events))")
    }
    @Test("A live playlist that loads and then fails: play --json prints each failed reload as an event naming it, and plays on")
    func playReportsFailedReloads() throws {
        let directory = try Self.liveSegments(copies: 3)
        let server = try HTTPServer(
            directory: directory.path,
            arguments: [
                "--faults", #"{"rules": [{"path": "live.m3u8", "kind": "503", "after": 1}]}"#,
                "--live", "live.m3u8", "30", "6", "2.0", "seg%03d.ts"
            ])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/live.m3u8"
        let lines = try Self.play([url, "--for", "7", "--retries", "0"])
        let objects = lines.compactMap(JSON.object)
        let failures = objects.filter { $0["event"] as? String == "live_window_reload_failed" }
        #expect(!failures.isEmpty, "no reload failure was reported: \(Set(objects.compactMap { $0["event"] as? String }))")
        #expect(failures.allSatisfy { ($0["error"] as? String)?.contains("live.m3u8") == true }, "\(failures)")
        // Failed reloads back off: the first 2 s after the load, the next 4 s after it, the
        // third 8 s later, past the end. Without the backoff a third comes at 6 s.
        #expect(failures.count <= 2, "\(failures.count) failed reloads in 7 s")
        let times = Self.playedTimes(lines)
        #expect(
            (times.last ?? 0) - (times.first ?? 0) >= 5, "playback stopped with the playlist: \(times.first ?? -1) to \(times.last ?? -1) s"
        )
        #expect(objects.last?["event"] as? String == "stopped")
    }

    @Test("30 live-edge seeks at 30% faults: none silently wrong, at least 24 right, the rest flagged or refused")
    func liveEdgeUnderFaults() throws {
        let directory = try Self.liveSegments()
        let counted = try runTool([
            "ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", directory.file("seg000.ts")
        ])
        let perSegment = try #require(
            counted.split(whereSeparator: \.isNewline).first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        let server = try HTTPServer(
            directory: directory.path,
            arguments: ["--faults", Self.faults, "--live", "live.m3u8", "10", "6", "2.0", "seg%03d.ts"])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/live.m3u8"
        var right = 0, flagged = 0, refused = 0
        // Three seeks at a time: each mostly waits out retries and stalls.
        for (run, result) in frameseekInLanes(30, lanes: 3, ["seek", url, "--live-edge", "--json"]).enumerated() {
            let context = "run \(run)"
            guard result.code == .success else {
                #expect(result.code == .usageOrInput, "\(context): exit \(result.code.rawValue)")
                #expect(result.stderr.text.contains(url), "\(context): the cause names no URL: \(result.stderr.text)")
                refused += 1
                continue
            }
            let line = try #require(result.out.first.flatMap(JSON.object), "\(context): no JSON line")
            #expect(line["clamp"] as? String == "none", "\(context): a clamp: \(line)")
            if JSON.int(line["frame_index"]) == 3 * perSegment, JSON.double(line["landed"]) == 6, JSON.bool(line["damaged"]) == false {
                right += 1
            } else if line["frame_index"] is NSNull, line["frame_index_unknown"] is String {
                flagged += 1
            } else if JSON.bool(line["damaged"]) == true, line["missing_data"] != nil {
                flagged += 1
            } else {
                Issue.record("\(context): a silent wrong answer: \(line)")
            }
        }
        #expect(right >= 24, "\(right) right, \(flagged) flagged, \(refused) refused")
        let stats = try server.requestsAndFaults()
        #expect(stats.faults.values.reduce(0, +) > 30, "the origin injected only \(stats.faults)")
    }

    @Test("A command on a URL has a deadline derived from --timeout; --deadline sets it, 0 removes it, and files have none")
    func deadlineDerivation() {
        #expect(CommandDeadline.of(["seek", "http://h/a.mp4", "1"])?.seconds == 10 * 30)
        #expect(CommandDeadline.of(["thumbnails", "https://h/a.mp4", "--out", "d", "--timeout", "5"])?.seconds == 50)
        #expect(CommandDeadline.of(["probe", "http://h/a.mp4", "--deadline", "7"])?.seconds == 7)
        #expect(CommandDeadline.of(["probe", "http://h/a.mp4", "--deadline", "0"]) == nil)
        #expect(CommandDeadline.of(["play", "http://h/live.m3u8", "--for", "15"])?.seconds == 10 * 30 + 15)
        #expect(CommandDeadline.of(["play", "http://h/live.m3u8"]) == nil, "play until the end has no deadline")
        #expect(CommandDeadline.of(["seek", "clip.mp4", "1"]) == nil, "a file on disk has none")
        // A playlist on disk may name remote segments: it has one.
        #expect(CommandDeadline.of(["seek", "/tmp/local.m3u8", "1"])?.seconds == 10 * 30)
        #expect(CommandDeadline.of(["seek", "http://h/a.mp4", "--bogus"]) == nil, "arguments the command refuses")
    }

    @Test("A server that stalls past the command's deadline ends the command: exit 2, one line naming the URL and the deadline")
    func deadlineEndsAStalledCommand() throws {
        let directory = try Self.liveSegments()
        // Every request stalls 20 s, within the 60-s resource timeout and the 10-s read timeout's
        // reach of a server that sends nothing; the 2-s deadline comes first.
        let server = try HTTPServer(
            directory: directory.path, arguments: ["--faults", #"{"rules": [{"path": "seg001.ts", "kind": "stall:20"}]}"#])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/seg001.ts"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repository.builtExecutable("frameseek"))
        process.arguments = ["probe", url, "--timeout", "60", "--deadline", "2"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let started = ContinuousClock.now
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let took = ContinuousClock.now - started
        #expect(process.terminationReason == .exit && process.terminationStatus == 2, "exit \(process.terminationStatus)")
        #expect(took < .seconds(8), "took \(took)")
        #expect(stdout.isEmpty)
        #expect(stderr.filter { $0 == "\n" }.count == 1 && stderr.contains(url) && stderr.contains("deadline of 2 s"), "stderr: \(stderr)")
    }

    @Test(
        "A segment lost for good at the first or the last place: seek --json flags it, --strict refuses it with its URI", arguments: [0, 3])
    func strictRefusesAHole(position: Int) throws {
        let directory = try Self.liveSegments()
        var playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for i in 0..<4 { playlist += "#EXTINF:2.000,\n" + String(format: "seg%03d.ts", i) + "\n" }
        try (playlist + "#EXT-X-ENDLIST\n").write(toFile: directory.file("vod.m3u8"), atomically: true, encoding: .utf8)
        let lost = String(format: "seg%03d.ts", position)
        let server = try HTTPServer(
            directory: directory.path, arguments: ["--faults", #"{"rules": [{"path": "\#(lost)", "kind": "404"}]}"#])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/vod.m3u8"
        let time = "\(2 * position + 1)"
        let flagged = frameseek(["seek", url, time, "--json"])
        #expect(flagged.code == .success)
        let line = try #require(flagged.out.first.flatMap(JSON.object))
        #expect(JSON.bool(line["damaged"]) == true && (line["missing_data"] as? String)?.contains(lost) == true, "\(line)")
        #expect(line["clamp"] as? String == "none", "a hole is no clamp: \(line)")
        let strict = frameseek(["seek", url, time, "--strict"])
        #expect(strict.code == .usageOrInput)
        #expect(strict.stdout.text.isEmpty)
        #expect(strict.stderr.text.contains(lost) && strict.stderr.text.contains("--strict"), "\(strict.stderr.text)")
    }
}
