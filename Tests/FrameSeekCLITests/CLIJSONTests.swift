// The JSON contract of `frames`, `seek` and `probe`, checked against ffprobe and framemd5,
// and PNG output of `seek --png`.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// Runs a command that must succeed with one JSON object per stdout line.
func jsonLines(_ arguments: [String]) -> [[String: Any]] {
    let result = frameseek(arguments)
    let context = "frameseek \(arguments.joined(separator: " "))"
    #expect(result.code == .success, "\(context): exit \(result.code.rawValue), stderr \(result.stderr.text)")
    #expect(result.stderr.text.isEmpty, "\(context): stderr \(result.stderr.text)")
    return result.out.compactMap { line in
        let object = JSON.object(line)
        #expect(object != nil, "\(context): not a JSON object: \(line.prefix(200))")
        return object
    }
}

@Suite("Command-line JSON", .ffmpegLog)
struct CLIJSONTests {
    @Test(
        "frames --json: stream, time base, start pts and every frame as ffprobe has them",
        arguments: FixtureCatalog.all)
    func frames(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let lines = jsonLines(["frames", fixture.path, "--stream", String(fixture.stream), "--json"])
        #expect(lines.count == 1, "frames --json prints one object")
        let object = try #require(lines.first)
        #expect(JSON.int(object["stream_index"]) == fixture.stream)
        #expect(object["time_base"] as? String == oracle.timeBaseText)
        #expect(JSON.int64(object["start_pts"]) == oracle.originPTS)
        let frames = try #require(object["frames"] as? [[String: Any]])
        #expect(frames.count == oracle.count)
        var problems: [String] = []
        for (i, frame) in frames.enumerated() where i < oracle.count {
            for key in ["index", "pts", "time", "duration", "key"] where frame[key] == nil {
                problems.append("frame \(i) lacks \(key)")
            }
            if JSON.int(frame["index"]) != i { problems.append("frame \(i): index \(frame["index"] ?? "nil")") }
            if JSON.int64(frame["pts"]) != oracle.frames[i].pts {
                problems.append("frame \(i): pts \(frame["pts"] ?? "nil") != \(oracle.frames[i].pts)")
            }
            if JSON.bool(frame["key"]) != oracle.frames[i].isKey { problems.append("frame \(i): key") }
            if let time = JSON.double(frame["time"]), abs(time - oracle.seconds(i)) > 1e-9 {
                problems.append("frame \(i): time \(time) != \(oracle.seconds(i))")
            }
            if let duration = JSON.double(frame["duration"]), duration <= 0 { problems.append("frame \(i): duration \(duration)") }
        }
        #expect(problems.isEmpty, "\(fixture.id): \(problems.count) problems; first: \(problems.prefix(5).joined(separator: "; "))")
    }

    @Test("probe --json: frame and keyframe counts as ffprobe counts them", arguments: FixtureCatalog.all)
    func probe(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let lines = jsonLines(["probe", fixture.path, "--stream", String(fixture.stream), "--json"])
        #expect(lines.count == 1)
        let object = try #require(lines.first)
        #expect(JSON.int(object["frame_count"]) == oracle.count, "\(fixture.id) frame_count")
        #expect(JSON.int(object["keyframe_count"]) == oracle.keyframes.count, "\(fixture.id) keyframe_count")
        #expect(JSON.int(object["stream_index"]) == fixture.stream)
    }

    static let seekFields = [
        "requested", "landed", "landed_pts", "frame_index", "key_frame_index", "delta",
        "within_tolerance", "clamp", "finished", "latency_ms", "frames_decoded"
    ]

    @Test(
        "seek T... --json --md5: one line per target, frame index, pts and MD5 as the oracles say",
        arguments: FixtureCatalog.all)
    func seek(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let last = oracle.count - 1
        // Later, earlier (a backward seek), a keyframe's middle, the last frame.
        let indices = [oracle.count * 2 / 3, oracle.count / 5, oracle.keyframes.last ?? 0, last]
        let targets = indices.map { oracle.middleText($0) }
        // Numbered landings: without --index full a Matroska or MPEG-TS seek reads a window,
        // and its numbers would depend on whether another test left an index cache entry.
        let lines = jsonLines(
            ["seek", fixture.path] + targets + ["--stream", String(fixture.stream), "--json", "--md5", "--index", "full"])
        #expect(lines.count == targets.count, "one line per target")
        for (n, (line, index)) in zip(lines, indices).enumerated() {
            let context = "\(fixture.id) target #\(n) \(targets[n]) (middle of frame \(index))"
            for key in Self.seekFields { #expect(line[key] != nil, "\(context): lacks \(key)") }
            #expect(JSON.int(line["frame_index"]) == index, "\(context): frame_index \(line["frame_index"] ?? "nil")")
            #expect(JSON.int64(line["landed_pts"]) == oracle.frames[index].pts, "\(context): landed_pts")
            #expect(JSON.bool(line["within_tolerance"]) == true, "\(context)")
            #expect(line["clamp"] as? String == "none", "\(context)")
            #expect(JSON.bool(line["finished"]) == true, "\(context)")
            #expect((JSON.double(line["latency_ms"]) ?? -1) >= 0, "\(context): latency_ms")
            #expect((JSON.int(line["frames_decoded"]) ?? -1) >= 0, "\(context): frames_decoded")
            // A local file is read without requests; its bytes are counted (over HTTP both are
            // checked against the server's count: ContainerIndexTests).
            #expect((JSON.int64(line["bytes_read"]) ?? -1) >= 0, "\(context): bytes_read")
            #expect(line["requests"] is NSNull, "\(context): requests of a local file")
            if let requested = JSON.double(line["requested"]) {
                #expect(abs(requested - oracle.middleSeconds(index)) < 1e-9, "\(context): requested \(requested)")
            }
            if let landed = JSON.double(line["landed"]) {
                #expect(abs(landed - oracle.seconds(index)) < 1e-9, "\(context): landed \(landed)")
            }
            if let delta = JSON.double(line["delta"]) {
                #expect(abs(delta - (oracle.seconds(index) - oracle.middleSeconds(index))) < 1e-9, "\(context): delta \(delta)")
            }
            if let key = JSON.int(line["key_frame_index"]) {
                #expect(
                    key <= index && oracle.frames[key].isKey, "\(context): key_frame_index \(key) is a keyframe at or before the landing")
            }
            if let md5s = oracle.md5s {
                #expect(line["md5"] as? String == md5s[index], "\(context): md5")
            } else {
                // Audio MD5s are checked against their own framemd5 oracle in CLIAudioMD5Tests.
                #expect((line["md5"] as? String)?.count == 32, "\(context): audio has an md5 too")
            }
        }
    }

    @Test("seek clamps are reported: -5 s is start, far past the end is end")
    func seekClamps() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_mpegts_offset.s0"))
        let oracle = try Oracle(fixture)
        let lines = jsonLines(["seek", fixture.path, "-5", "1000", "--json", "--md5", "--index", "full"])
        #expect(lines.count == 2)
        guard lines.count == 2 else { return }
        #expect(lines[0]["clamp"] as? String == "start")
        #expect(JSON.int(lines[0]["frame_index"]) == 0)
        #expect(JSON.double(lines[0]["requested"]) == -5)
        #expect(JSON.double(lines[0]["delta"]) == 5, "frame 0 is at 0 on the zero-based timeline: delta +5")
        #expect(lines[0]["md5"] as? String == oracle.md5s?.first)
        #expect(lines[1]["clamp"] as? String == "end")
        #expect(JSON.int(lines[1]["frame_index"]) == oracle.count - 1)
        #expect(lines[1]["md5"] as? String == oracle.md5s?.last)
    }

    @Test("--targets FILE reads one time per line, # comments, same landings as positionals")
    func targetsFile() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("targets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("targets.txt")
        let indices = [300, 10, 251, 249]
        let text = "# landing manifest\n" + indices.map { "\(oracle.middleText($0))   # frame \($0)\n" }.joined() + "\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let lines = jsonLines(["seek", fixture.path, "--targets", file.path, "--json", "--md5"])
        #expect(lines.map { JSON.int($0["frame_index"]) } == indices)
        #expect(lines.map { $0["md5"] as? String } == indices.map { oracle.md5s?[$0] })
    }

    @Test("--precision previous-keyframe lands on the keyframe ffprobe lists")
    func precisionOption() throws {
        let fixture = try #require(FixtureCatalog.fixture("hevc_opengop.s0"))
        let oracle = try Oracle(fixture)
        let lines = jsonLines([
            "seek", fixture.path, oracle.middleText(100), oracle.middleText(47),
            "--precision", "previous-keyframe", "--json", "--md5", "--index", "full"
        ])
        #expect(lines.map { JSON.int($0["frame_index"]) } == [96, 0])
        #expect(oracle.frames[96].isKey && oracle.frames[0].isKey)
        #expect(lines.map { $0["md5"] as? String } == [oracle.md5s?[96], oracle.md5s?[0]])
    }
}

@Suite("Command-line PNG output", .ffmpegLog)
struct CLIPNGTests {
    @Test("--png out-%03d.png with two targets writes out-001.png and out-002.png")
    func numberedPattern() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("png")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = directory.appendingPathComponent("out-%03d.png").path
        let lines = jsonLines(["seek", fixture.path, oracle.middleText(5), oracle.middleText(260), "--png", pattern, "--json"])
        #expect(lines.count == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["out-001.png", "out-002.png"])
        for name in ["out-001.png", "out-002.png"] {
            let size = try pngDimensions(directory.appendingPathComponent(name).path)
            #expect(size.width == 320 && size.height == 240, "\(name): \(size)")
        }
        #expect(lines.map { $0["png"] as? String } == ["out-001.png", "out-002.png"].map { directory.appendingPathComponent($0).path })
    }

    @Test("One target with a rotated clip: upright PNG, coded size with --no-autorotate")
    func rotatedPNG() throws {
        let fixture = try #require(FixtureCatalog.fixture("iphone_hevc_editlist.s0"))
        let directory = try temporaryDirectory("png-rotated")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upright = directory.appendingPathComponent("upright.png").path
        let coded = directory.appendingPathComponent("coded.png").path
        #expect(frameseek(["seek", fixture.path, "0.5", "--png", upright]).code == .success)
        #expect(frameseek(["seek", fixture.path, "0.5", "--png", coded, "--no-autorotate"]).code == .success)
        let uprightSize = try pngDimensions(upright)
        let codedSize = try pngDimensions(coded)
        #expect(uprightSize.width == 1080 && uprightSize.height == 1920, "upright \(uprightSize)")
        #expect(codedSize.width == 1920 && codedSize.height == 1080, "coded \(codedSize)")
    }
}
