// `frameseek step`: one JSON line per step, checked against ffprobe's table and framemd5;
// the first unavailable step names its reason and ends the run; usage errors exit 2.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

/// Checks one stepped line: frame `expected`, `moved` frames, the oracle's time and MD5.
func verifySteppedLine(
    _ line: [String: Any], oracle: Oracle, direction: String, expected: Int, moved: Int,
    md5: Bool = true, context: String
) {
    for key in ["result", "direction", "landed", "frame_index", "frames_stepped", "latency_ms", "frames_decoded"] {
        #expect(line[key] != nil, "\(context): lacks \(key)")
    }
    #expect(line["result"] as? String == "stepped", "\(context): result \(line["result"] ?? "nil")")
    #expect(line["direction"] as? String == direction, "\(context)")
    // A step in a seek window (Matroska, MPEG-TS without an index cache entry) is not
    // numbered: its PTS must be the frame's.
    if line["frame_index_unknown"] as? String == "not_indexed" {
        #expect(line["frame_index"] is NSNull, "\(context): frame_index \(line["frame_index"] ?? "nil") in a window")
        #expect(JSON.int64(line["landed_pts"]) == oracle.frames[expected].pts, "\(context): landed_pts in a window")
    } else {
        #expect(JSON.int(line["frame_index"]) == expected, "\(context): frame_index \(line["frame_index"] ?? "nil"), expected \(expected)")
    }
    #expect(JSON.int(line["frames_stepped"]) == moved, "\(context): frames_stepped \(line["frames_stepped"] ?? "nil")")
    if let landed = JSON.double(line["landed"]) {
        #expect(abs(landed - oracle.seconds(expected)) < 1e-9, "\(context): landed \(landed), ffprobe \(oracle.seconds(expected))")
    }
    if let text = line["landed_rational"] as? String {
        #expect((try? MediaTime(parsing: text)) == oracle.time(expected), "\(context): landed_rational \(text)")
    }
    if let pts = line["landed_pts"], !(pts is NSNull) {
        #expect(JSON.int64(pts) == oracle.frames[expected].pts, "\(context): landed_pts")
    }
    #expect((JSON.double(line["latency_ms"]) ?? -1) >= 0, "\(context): latency_ms")
    #expect((JSON.int(line["frames_decoded"]) ?? -1) >= 0, "\(context): frames_decoded")
    #expect(line["reason"] == nil, "\(context): a stepped line has no reason")
    if md5 {
        #expect(line["md5"] as? String == oracle.md5s?[expected], "\(context): md5 differs from framemd5 line \(expected)")
    }
}

/// Checks the unavailable line that ends a run.
func verifyUnavailableLine(
    _ line: [String: Any], oracle: Oracle, reason: String, direction: String, current: Int?, context: String
) {
    #expect(line["result"] as? String == "unavailable", "\(context): result \(line["result"] ?? "nil")")
    #expect(line["direction"] as? String == direction, "\(context)")
    #expect(line["reason"] as? String == reason, "\(context): reason \(line["reason"] ?? "nil")")
    let explanation = line["explanation"] as? String ?? ""
    #expect(explanation.count >= 10, "\(context): explanation \"\(explanation)\"")
    #expect(JSON.int(line["frames_stepped"]) == 0, "\(context): frames_stepped \(line["frames_stepped"] ?? "nil")")
    if let current {
        if line["frame_index_unknown"] as? String == "not_indexed" {
            #expect(JSON.int64(line["landed_pts"]) == oracle.frames[current].pts, "\(context): landed_pts in a window")
        } else {
            #expect(JSON.int(line["frame_index"]) == current, "\(context): frame_index \(line["frame_index"] ?? "nil")")
        }
    }
}

@Suite("Command-line steps", .ffmpegLog)
struct CLIStepTests {
    static let good = FailingInvocation.good

    static let usage: [FailingInvocation] = [
        FailingInvocation(label: "step without --at", arguments: ["step", good, "--forward", "--json"], mustContain: ["--at"]),
        FailingInvocation(
            label: "step with --forward and --backward",
            arguments: ["step", good, "--at", "1", "--forward", "--backward"], mustContain: ["--forward", "--backward"]),
        FailingInvocation(
            label: "step with no direction", arguments: ["step", good, "--at", "1", "--json"],
            mustContain: ["--forward", "--backward"]),
        FailingInvocation(
            label: "step --count 0", arguments: ["step", good, "--at", "1", "--forward", "--count", "0"],
            mustContain: ["--count", "0"]),
        FailingInvocation(
            label: "step --repeat 0", arguments: ["step", good, "--at", "1", "--forward", "--repeat", "0"],
            mustContain: ["--repeat", "0"]),
        FailingInvocation(label: "step --at abc", arguments: ["step", good, "--at", "abc", "--forward"], mustContain: ["abc"]),
        FailingInvocation(label: "step without FILE", arguments: ["step", "--at", "1", "--forward"], mustContain: ["FILE"])
    ]

    @Test(
        "step --forward --repeat past the end: stepped lines, then one endOfStream line, then nothing",
        arguments: FixtureCatalog.video)
    func forwardPastTheEnd(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let last = oracle.lastIndex, start = last - 3
        let lines = jsonLines([
            "step", fixture.path, "--stream", String(fixture.stream), "--at", oracle.middleText(start),
            "--forward", "--repeat", "6", "--md5", "--json"
        ])
        #expect(lines.count == 4, "\(fixture.id): 3 steps to the last frame and one unavailable line, got \(lines.count)")
        guard lines.count == 4 else { return }
        for (n, expected) in (start + 1...last).enumerated() {
            verifySteppedLine(
                lines[n], oracle: oracle, direction: "forward", expected: expected, moved: 1,
                context: "\(fixture.id) step #\(n + 1) from frame \(start)")
        }
        verifyUnavailableLine(
            lines[3], oracle: oracle, reason: "endOfStream", direction: "forward", current: last,
            context: "\(fixture.id) step past the last frame")
    }

    @Test("step --backward from near the start: stepped lines to frame 0, then startOfStream", arguments: FixtureCatalog.video)
    func backwardPastTheStart(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let lines = jsonLines([
            "step", fixture.path, "--stream", String(fixture.stream), "--at", oracle.middleText(2),
            "--backward", "--repeat", "5", "--md5", "--json"
        ])
        #expect(lines.count == 3, "\(fixture.id): frames 1 and 0, then unavailable; got \(lines.count) lines")
        guard lines.count == 3 else { return }
        verifySteppedLine(lines[0], oracle: oracle, direction: "backward", expected: 1, moved: 1, context: "\(fixture.id) step #1")
        verifySteppedLine(lines[1], oracle: oracle, direction: "backward", expected: 0, moved: 1, context: "\(fixture.id) step #2")
        verifyUnavailableLine(
            lines[2], oracle: oracle, reason: "startOfStream", direction: "backward", current: 0,
            context: "\(fixture.id) step before frame 0")
    }

    @Test("step --backward at the start: one startOfStream line")
    func backwardAtTheStart() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0"))
        let oracle = try Oracle(fixture)
        let lines = jsonLines(["step", fixture.path, "--at", "0", "--backward", "--repeat", "3", "--md5", "--json"])
        #expect(lines.count == 1)
        if let line = lines.first {
            verifyUnavailableLine(
                line, oracle: oracle, reason: "startOfStream", direction: "backward", current: 0, context: "backward at 0")
        }
    }

    @Test("--count 5 near the end moves 2 frames and says so; the next step is endOfStream")
    func countNearTheEnd() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let last = oracle.lastIndex
        let lines = jsonLines([
            "step", fixture.path, "--at", oracle.middleText(last - 2), "--forward", "--count", "5",
            "--repeat", "3", "--md5", "--json"
        ])
        #expect(lines.count == 2)
        guard lines.count == 2 else { return }
        verifySteppedLine(lines[0], oracle: oracle, direction: "forward", expected: last, moved: 2, context: "forward 5 from \(last - 2)")
        #expect(JSON.int(lines[0]["requested_count"]).map { $0 == 5 } ?? true, "requested_count \(lines[0]["requested_count"] ?? "nil")")
        verifyUnavailableLine(
            lines[1], oracle: oracle, reason: "endOfStream", direction: "forward", current: last, context: "forward 5 from the last frame")
    }

    @Test("--count 5 backward through a long GOP lands every fifth frame with framemd5's MD5")
    func countBackwardLongGOP() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let start = 240
        let lines = jsonLines([
            "step", fixture.path, "--at", oracle.middleText(start), "--backward", "--count", "5",
            "--repeat", "6", "--md5", "--json"
        ])
        #expect(lines.count == 6)
        for (n, line) in lines.enumerated() {
            verifySteppedLine(
                line, oracle: oracle, direction: "backward", expected: start - 5 * (n + 1), moved: 5,
                context: "step #\(n + 1) of 5 back from frame \(start)")
        }
    }

    @Test("Audio-only media: one audioOnly line in either direction", arguments: ["--forward", "--backward"])
    func audioOnly(_ flag: String) throws {
        let fixture = try #require(FixtureCatalog.audio.first)
        let oracle = try Oracle(fixture)
        let lines = jsonLines(["step", fixture.path, "--at", "0.5", flag, "--repeat", "3", "--md5", "--json"])
        #expect(lines.count == 1, "\(fixture.id): \(lines.count) lines")
        if let line = lines.first {
            verifyUnavailableLine(
                line, oracle: oracle, reason: "audioOnly", direction: String(flag.dropFirst(2)), current: nil,
                context: "\(fixture.id) \(flag)")
            #expect(line["md5"] == nil, "audio has no md5")
        }
    }

    @Test("Bad usage: exit 2, nothing on stdout, one line on stderr naming the cause", arguments: Self.usage)
    func badUsage(_ invocation: FailingInvocation) {
        CLIErrorTests.checkFails(invocation)
    }

    @Test("step --help: exit 0, usage on stdout")
    func help() {
        let result = frameseek(["step", "--help"])
        #expect(result.code == .success)
        #expect(result.stdout.text.contains("usage: frameseek step"))
        #expect(result.stdout.text.contains("--json"))
        #expect(result.stderr.text.isEmpty)
    }
}
