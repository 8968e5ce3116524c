// The command line at the edges of its inputs and of what it opens:
// hostile inputs (repeated, missing or overflowing timestamps) are refused with the one-line
// error contract instead of answered wrongly or crashing; numbers from the command line are
// bounded; a target at the far end of 64 bits clamps; Opus in WebM seeks; files that start
// with frames the decoder cannot produce open with ffprobe's frames, not their packets.
//
// Expectations come from the fixtures' oracles (ffprobe / framemd5) and from the bad inputs
// being broken the way Fixtures/check-properties.py checks.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

extension FailingInvocation {
    /// Files with repeated, missing or overflowing timestamps, each with the words its cause must use.
    static let badTimestampInputs: [(file: String, causes: [String])] = [
        ("bad/duplicate_pts.mkv", ["repeat", "timestamp"]),
        ("bad/raw_stream.h264", ["no timestamps"]),
        ("bad/overflow_pts.mkv", ["out of range"])
    ]

    /// Every command that opens media, on each bad input.
    static let badTimestampInvocations: [FailingInvocation] = {
        let out = testScratchPath("edge-input-never-written").path
        var list: [FailingInvocation] = []
        for (relative, causes) in badTimestampInputs {
            let path = Repository.fixture(relative)
            let commands: [[String]] = [
                ["probe", path],
                ["probe", path, "--json"],
                ["frames", path, "--json"],
                ["frames", path],
                ["seek", path, "0"],
                ["seek", path, "0", "--json", "--md5"],
                ["step", path, "--at", "0", "--forward", "--json"],
                ["thumbnails", path, "--out", out, "--count", "3"],
                ["bench", path, "-n", "2", "--json"]
            ]
            for command in commands {
                list.append(
                    FailingInvocation(
                        label: "\(command[0]) \(relative) \(command.dropFirst(2).joined(separator: " "))",
                        arguments: command, mustContain: [path + ": "] + causes))
            }
        }
        return list
    }()

    /// Numbers that would overflow, or allocate without bound, were they not checked against their bounds.
    static let hugeNumberInvocations: [FailingInvocation] = {
        let good = FailingInvocation.good
        let out = testScratchPath("edge-input-never-written").path
        return [
            FailingInvocation(
                label: "step --count Int64.max",
                arguments: ["step", good, "--at", "0", "--forward", "--count", "9223372036854775807"],
                mustContain: ["--count", "9223372036854775807"]),
            FailingInvocation(
                label: "step --count Int64.max --json (backward)",
                arguments: ["step", good, "--at", "1", "--backward", "--count", "9223372036854775807", "--json"],
                mustContain: ["--count"]),
            FailingInvocation(
                label: "step --repeat Int64.max",
                arguments: ["step", good, "--at", "0", "--forward", "--repeat", "9223372036854775807"],
                mustContain: ["--repeat"]),
            FailingInvocation(
                label: "step --cache-mb 99999999999999",
                arguments: ["step", good, "--at", "0", "--forward", "--cache-mb", "99999999999999"],
                mustContain: ["--cache-mb", "99999999999999"]),
            FailingInvocation(
                label: "bench --cache-mb 99999999999999",
                arguments: ["bench", good, "-n", "1", "--cache-mb", "99999999999999"],
                mustContain: ["--cache-mb", "99999999999999"]),
            FailingInvocation(
                label: "seek --threads 99999999999",
                arguments: ["seek", good, "1", "--threads", "99999999999"],
                mustContain: ["--threads", "99999999999"]),
            FailingInvocation(
                label: "probe --threads 99999999999",
                arguments: ["probe", good, "--threads", "99999999999"],
                mustContain: ["--threads"]),
            FailingInvocation(
                label: "frames --threads 99999999999",
                arguments: ["frames", good, "--json", "--threads", "99999999999"],
                mustContain: ["--threads"]),
            FailingInvocation(
                label: "step --threads 99999999999",
                arguments: ["step", good, "--at", "0", "--forward", "--threads", "99999999999"],
                mustContain: ["--threads"]),
            FailingInvocation(
                label: "bench --threads 99999999999",
                arguments: ["bench", good, "-n", "1", "--threads", "99999999999"],
                mustContain: ["--threads"]),
            FailingInvocation(
                label: "thumbnails --threads 99999999999",
                arguments: ["thumbnails", good, "--out", out, "--threads", "99999999999"],
                mustContain: ["--threads"]),
            FailingInvocation(
                label: "thumbnails --count Int64.max",
                arguments: ["thumbnails", good, "--out", out, "--count", "9223372036854775807"],
                mustContain: ["--count"])
        ]
    }()
}

@Suite("Command line: hostile timestamps, bounded numbers, far targets, Opus in WebM, undecodable starts", .ffmpegLog)
struct CLIEdgeInputTests {
    @Test(
        "Repeated, missing or overflowing timestamps: exit 2, one line with the file and the cause",
        arguments: FailingInvocation.badTimestampInvocations)
    func hostileTimestamps(_ invocation: FailingInvocation) {
        CLIErrorTests.checkFails(invocation)
    }

    @Test(
        "Huge --count, --repeat, --cache-mb, --threads: exit 2, one line naming the option",
        arguments: FailingInvocation.hugeNumberInvocations)
    func hugeNumbers(_ invocation: FailingInvocation) {
        let line = CLIErrorTests.checkFails(invocation)
        #expect(line.contains("whole number"), "the line says what the option takes: \(line)")
    }

    @Test("The bounds themselves are accepted: --count 1000000000 stops at the edge, --threads 64 works")
    func boundsAccepted() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let oracle = try Oracle(fixture)
        let lines = jsonLines([
            "step", fixture.path, "--at", "0", "--forward", "--count", "1000000000", "--threads", "64",
            "--cache-mb", "1048576", "--json", "--index", "full"
        ])
        #expect(lines.count == 1)
        #expect(JSON.int(lines.first?["frame_index"]) == oracle.lastIndex, "a step of 10^9 frames stops on the last frame")
        #expect(JSON.int(lines.first?["frames_stepped"]) == oracle.lastIndex)
    }

    @Test(
        "seek to Int64.max seconds exits 0 and clamps to the last frame; Int64.min clamps to the first",
        arguments: FixtureCatalog.video.filter { ["h264_vfr.s0", "h264_ts_cut_midgop.s0", "h264_editlist_late.s0"].contains($0.id) })
    func farTargetsClamp(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let targets = ["9223372036854775807/1", "9223372036854775807", "-9223372036854775808/1", "-9223372036854775807/1"]
        let lines = jsonLines(["seek", fixture.path] + targets + ["--stream", String(fixture.stream), "--json", "--md5"])
        try #require(lines.count == targets.count, "one line per target")
        for (line, target) in zip(lines, targets) {
            let toEnd = !target.hasPrefix("-")
            let expected = toEnd ? oracle.lastIndex : 0
            let context = "\(fixture.id) seek \(target)"
            #expect(JSON.bool(line["finished"]) == true, "\(context): finished")
            #expect(line["clamp"] as? String == (toEnd ? "end" : "start"), "\(context): clamp \(line["clamp"] ?? "nil")")
            #expect(JSON.int(line["frame_index"]) == expected, "\(context): frame \(line["frame_index"] ?? "nil"), expected \(expected)")
            #expect(JSON.int64(line["landed_pts"]) == oracle.frames[expected].pts, "\(context): landed_pts")
            #expect(line["md5"] as? String == oracle.md5s?[expected], "\(context): md5")
            #expect(line["requested_rational"] as? String != nil, "\(context): the requested rational is printed")
        }
        // The plain text form prints one line and exits 0 too.
        let plain = frameseek(["seek", fixture.path, "9223372036854775807/1", "--stream", String(fixture.stream)])
        #expect(plain.code == .success, "exit \(plain.code.rawValue): \(plain.stderr.text)")
        #expect(plain.out.count == 1 && plain.stderr.text.isEmpty)
        #expect(plain.out.first?.contains("frame \(oracle.lastIndex) ") == true, "\(plain.out.first ?? "")")
    }

    @Test("Opus in WebM: seeks to 0, the middle, 0 again and the last frame land on the covering frame")
    func opusWebM() throws {
        let fixture = try #require(FixtureCatalog.fixture("opus_sine.s0"))
        let oracle = try Oracle(fixture)
        let middle = oracle.count / 2
        // 0 is before the first frame (start_time is -7 ms, the first frame at pts 0): it clamps to frame 0.
        let targets: [(String, Int)] = [
            ("0", 0), (oracle.middleText(middle), middle), ("0", 0),
            (oracle.middleText(middle), middle), (oracle.middleText(oracle.lastIndex), oracle.lastIndex),
            (oracle.middleText(1), 1)
        ]
        let lines = jsonLines(["seek", fixture.path] + targets.map(\.0) + ["--json"])
        try #require(lines.count == targets.count)
        for (n, (line, (target, expected))) in zip(lines, targets).enumerated() {
            let context = "opus seek #\(n) to \(target)"
            #expect(JSON.bool(line["finished"]) == true, "\(context): finished")
            #expect(JSON.int(line["frame_index"]) == expected, "\(context): frame \(line["frame_index"] ?? "nil"), expected \(expected)")
            #expect(JSON.int64(line["landed_pts"]) == oracle.frames[expected].pts, "\(context): landed_pts")
            if let landed = JSON.double(line["landed"]) {
                #expect(abs(landed - oracle.seconds(expected)) < 1e-9, "\(context): landed \(landed)")
            }
        }
        #expect(lines.first?["clamp"] as? String == "start", "0 s is before the first Opus frame (start_time -0.007)")
        #expect(lines[1]["clamp"] as? String == "none")
    }

    @Test(
        "Files that start with undecodable packets open with ffprobe's frames, never as truncated",
        arguments: ["h264_ts_cut_midgop.s0", "hevc_cra_start.s0", "h264_editlist_late.s0"])
    func undecodableStart(_ id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        let oracle = try Oracle(fixture)
        let packets =
            try JSON.file(fixture.frames.replacingOccurrences(of: ".frames.json", with: ".packets.json"))["packets"]
            as? [[String: Any]] ?? []
        #expect(packets.count > oracle.count, "\(id): the fixture has more packets (\(packets.count)) than frames (\(oracle.count))")

        let probe = jsonLines(["probe", fixture.path, "--json"])
        #expect(JSON.int(probe.first?["frame_count"]) == oracle.count, "\(id): frame_count")
        let plain = frameseek(["probe", fixture.path])
        #expect(plain.code == .success && plain.stderr.text.isEmpty, "\(id): \(plain.stderr.text)")
        #expect(!plain.stdout.text.lowercased().contains("truncated"))

        // The first frame is where decoding can start, and it shows the first decodable source frame.
        let first = jsonLines(["seek", fixture.path, oracle.middleText(0), "--json", "--md5", "--index", "full"])
        #expect(JSON.int(first.first?["frame_index"]) == 0)
        #expect(first.first?["md5"] as? String == oracle.md5s?.first, "\(id): frame 0's MD5")
        // Before the first frame, a seek clamps to it.
        let before = jsonLines(["seek", fixture.path, "-1", "--json", "--md5", "--index", "full"])
        #expect(JSON.int(before.first?["frame_index"]) == 0)
        #expect(before.first?["clamp"] as? String == "start")
        #expect(before.first?["md5"] as? String == oracle.md5s?.first)
    }
}

/// The `frameseek` executable built next to the test bundle, if there is one.
private let builtExecutable: String? = {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
    for candidate in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
        let path = candidate.appendingPathComponent("frameseek").path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}()

@Suite("Command line: hostile timestamps, as a process", .ffmpegLog)
struct CLIEdgeInputProcessTests {
    @Test(
        "The built executable exits 2 (no signal) with one stderr line on each hostile input",
        .enabled(if: builtExecutable != nil, "no frameseek executable next to the test bundle"),
        arguments: FailingInvocation.badTimestampInputs.map(\.file))
    func exitStatus(_ relative: String) throws {
        let executable = try #require(builtExecutable)
        for command in [["probe"], ["frames", "--json"], ["seek", "0"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [command[0], Repository.fixture(relative)] + command.dropFirst()
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let context = "frameseek \(process.arguments?.joined(separator: " ") ?? "")"
            #expect(process.terminationReason == .exit, "\(context): killed by signal \(process.terminationStatus)")
            #expect(process.terminationStatus == 2, "\(context): exit \(process.terminationStatus)")
            #expect(stdout.isEmpty, "\(context): stdout")
            let text = String(decoding: stderr, as: UTF8.self)
            #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1, "\(context): stderr \(text)")
        }
    }
}
