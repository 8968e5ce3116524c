// `frameseek thumbnails` on every video fixture: the WebVTT track parsed here (header, cue
// times increasing and contiguous from 0 to the media's duration, `FILE#xywh=` rectangles
// inside their PNG), the JSON storyboard checked against the track, the --json object checked
// against both, every actual time against ffprobe's frame table by the landing rules, the
// thumbnail shape against the display aspect from probe.json, and the tiles' pixels (read back
// with libpng) against the generator's in-memory pictures. Then the usage errors.

import Foundation
import FrameSeek
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// One WebVTT cue as this test reads it.
struct ThumbnailCue: Equatable {
    let startMilliseconds: Int64
    let endMilliseconds: Int64
    let file: String
    let x: Int, y: Int, w: Int, h: Int
}

enum ThumbnailsCLI {
    /// `HH:MM:SS.mmm` as milliseconds; nil unless it is exactly that shape.
    static func milliseconds(_ text: Substring) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count >= 2, parts[1].count == 2, parts[2].count == 6,
            parts[2][parts[2].index(parts[2].startIndex, offsetBy: 2)] == ".",
            let h = Int64(parts[0]), let m = Int64(parts[1]), m < 60,
            let s = Int64(parts[2].prefix(2)), s < 60, let ms = Int64(parts[2].suffix(3))
        else { return nil }
        return ((h * 60 + m) * 60 + s) * 1000 + ms
    }

    /// Parses a WebVTT track of thumbnail cues, recording an issue for anything malformed.
    static func parseVTT(_ text: String, context: String) -> [ThumbnailCue] {
        let lines = text.components(separatedBy: "\n")
        #expect(lines.first == "WEBVTT", "\(context): the track starts with \(lines.first ?? "nothing")")
        var cues: [ThumbnailCue] = []
        var blocks: [[String]] = [[]]
        for line in lines.dropFirst() {
            #expect(!line.hasSuffix("\r"), "\(context): CR line endings")
            if line.isEmpty { blocks.append([]) } else { blocks[blocks.count - 1].append(line) }
        }
        for block in blocks where !block.isEmpty {
            guard block.count == 2 else {
                Issue.record("\(context): a cue of \(block.count) lines: \(block)")
                continue
            }
            let timing = block[0].components(separatedBy: " --> ")
            guard timing.count == 2, let start = milliseconds(Substring(timing[0])), let end = milliseconds(Substring(timing[1])) else {
                Issue.record("\(context): bad cue timing \"\(block[0])\"")
                continue
            }
            let payload = block[1].components(separatedBy: "#xywh=")
            let numbers =
                payload.count == 2 ? payload[1].split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0) } : []
            guard payload.count == 2, !payload[0].isEmpty, numbers.count == 4 else {
                Issue.record("\(context): bad cue text \"\(block[1])\"")
                continue
            }
            cues.append(
                ThumbnailCue(
                    startMilliseconds: start, endMilliseconds: end, file: payload[0],
                    x: numbers[0], y: numbers[1], w: numbers[2], h: numbers[3]))
        }
        return cues
    }

    /// `time` in whole milliseconds, rounded down (times here are never negative).
    static func floorMilliseconds(_ time: MediaTime) -> Int64 {
        Int64((Int128(time.value) * 1000) / Int128(time.timescale))
    }

    /// Seconds from the JSON as the exact microsecond rational the command line works in.
    static func microseconds(_ seconds: Double) -> MediaTime {
        MediaTime(value: Int64((seconds * 1_000_000).rounded()), timescale: 1_000_000)
    }

    /// The display size from probe.json: the coded size, the width scaled by the sample
    /// aspect ratio, swapped for a rotation of 90 or 270 degrees.
    static func displaySize(_ fixture: Fixture) throws -> (width: Double, height: Double) {
        let probe = try JSON.file(fixture.probe)
        let streams = probe["streams"] as? [[String: Any]] ?? []
        let stream = try #require(streams.first { JSON.int($0["index"]) == fixture.stream })
        let width = Double(try #require(JSON.int(stream["width"]))), height = Double(try #require(JSON.int(stream["height"])))
        var sar = 1.0
        if let text = stream["sample_aspect_ratio"] as? String {
            let parts = text.split(separator: ":").compactMap { Double($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { sar = parts[0] / parts[1] }
        }
        let rotation = (stream["side_data_list"] as? [[String: Any]] ?? []).compactMap { JSON.int($0["rotation"]) }.first ?? 0
        let display = (width: width * sar, height: height)
        return abs(rotation) % 180 == 90 ? (display.height, display.width) : display
    }

    /// What one successful run wrote and printed, after every check of the contract.
    struct Run {
        let cues: [ThumbnailCue]
        let object: [String: Any]
        let directory: URL
        let width: Int, height: Int
    }

    /// Runs `frameseek thumbnails FILE --out DIR ARGS --json` and checks the contract that holds
    /// whatever the options: the files, the WebVTT track, the storyboard, the --json object.
    /// `columns`/`rows` as given on the command line (nil: one file per thumbnail).
    static func run(
        _ fixture: Fixture, _ extra: [String], columns: Int? = nil, rows: Int? = nil,
        directory: URL
    ) throws -> Run {
        let oracle = try Oracle(fixture)
        var arguments = ["thumbnails", fixture.path, "--out", directory.path, "--stream", "\(fixture.stream)", "--json"] + extra
        if let columns, let rows { arguments += ["--columns", "\(columns)", "--rows", "\(rows)"] }
        let context = "frameseek \(arguments.dropFirst().joined(separator: " "))"
        let result = frameseek(arguments)
        try #require(result.code == .success, "\(context): exit \(result.code.rawValue): \(result.stderr.text)")
        #expect(result.stderr.text.isEmpty, "\(context): stderr \(result.stderr.text)")
        try #require(result.out.count == 1, "\(context): \(result.out.count) stdout lines")
        let object = try #require(JSON.object(result.out[0]), "\(context): not a JSON object")

        // The WebVTT track.
        let vttPath = directory.appendingPathComponent("thumbnails.vtt").path
        let vttText = try String(contentsOfFile: vttPath, encoding: .utf8)
        let cues = parseVTT(vttText, context: context)
        try #require(!cues.isEmpty, "\(context): no cues")
        let duration = floorMilliseconds(oracle.end(oracle.lastIndex))
        #expect(cues[0].startMilliseconds == 0, "\(context): the first cue starts at \(cues[0].startMilliseconds) ms")
        #expect(
            cues.last?.endMilliseconds == duration,
            "\(context): the last cue ends at \(cues.last?.endMilliseconds ?? -1) ms, the media at \(duration) ms")
        let (w, h) = (cues[0].w, cues[0].h)
        for (i, cue) in cues.enumerated() {
            #expect(cue.endMilliseconds > cue.startMilliseconds, "\(context): cue \(i) is empty or backward: \(cue)")
            if i + 1 < cues.count {
                #expect(
                    cue.endMilliseconds == cues[i + 1].startMilliseconds,
                    "\(context): cue \(i) ends at \(cue.endMilliseconds), next starts at \(cues[i + 1].startMilliseconds)")
                #expect(cues[i + 1].startMilliseconds > cue.startMilliseconds, "\(context): cue \(i + 1) does not start later")
            }
            #expect(cue.w == w && cue.h == h, "\(context): cue \(i) has tile size \(cue.w)x\(cue.h), not \(w)x\(h)")
            #expect(!cue.file.contains("/"), "\(context): cue \(i) names \(cue.file), not a file beside the track")
        }

        // The images the cues point into: each exists, is a PNG, and holds its rectangles.
        var dimensions: [String: (width: Int, height: Int)] = [:]
        for file in Set(cues.map(\.file)) {
            let path = directory.appendingPathComponent(file).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(context): \(file) is missing or empty")
            dimensions[file] = try pngDimensions(path)
        }
        for (i, cue) in cues.enumerated() {
            guard let sheet = dimensions[cue.file] else { continue }
            #expect(
                cue.x >= 0 && cue.y >= 0 && cue.x + cue.w <= sheet.width && cue.y + cue.h <= sheet.height,
                "\(context): cue \(i)'s rectangle \(cue) lies outside \(cue.file), \(sheet.width)x\(sheet.height)")
            if let columns, let rows {
                // A sheet is sized to the tiles it holds: as many columns as it fills, as many
                // rows as it begins, never the whole grid for a few tiles.
                let held = cues.filter { $0.file == cue.file }.count
                #expect(held <= columns * rows, "\(context): \(cue.file) holds \(held) tiles")
                #expect(
                    sheet == (min(columns, held) * w, (held + columns - 1) / columns * h),
                    "\(context): \(cue.file) is \(sheet) for \(held) tiles in rows of \(columns)")
                #expect(cue.x % w == 0 && cue.y % h == 0, "\(context): cue \(i) is off the grid")
                let perSheet = columns * rows
                let slot = i % perSheet
                #expect(cue.x == (slot % columns) * w && cue.y == (slot / columns) * h, "\(context): cue \(i) at \(cue.x),\(cue.y)")
                #expect(cue.file == cues[i - slot].file, "\(context): cue \(i) leaves its sheet early")
            } else {
                #expect(sheet == (w, h) && cue.x == 0 && cue.y == 0, "\(context): \(cue.file) is \(sheet)")
            }
        }
        if columns == nil { #expect(Set(cues.map(\.file)).count == cues.count, "\(context): files are shared without a grid") }
        // Nothing else is in the folder.
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(written == Set(cues.map(\.file)).union(["thumbnails.vtt", "storyboard.json"]), "\(context): wrote \(written.sorted())")

        // The JSON storyboard agrees with the track.
        let storyboardPath = directory.appendingPathComponent("storyboard.json").path
        let storyboardData = try Data(contentsOf: URL(fileURLWithPath: storyboardPath))
        let storyboard = try #require(try JSONSerialization.jsonObject(with: storyboardData) as? [String: Any])
        #expect(JSON.int(storyboard["tile_width"]) == w && JSON.int(storyboard["tile_height"]) == h, "\(context): storyboard tile size")
        #expect(storyboard["url"] as? String == cues[0].file, "\(context): storyboard url \(storyboard["url"] ?? "none")")
        let storyboardDuration = try #require(JSON.double(storyboard["duration"]), "\(context): storyboard duration")
        #expect(
            abs(storyboardDuration - oracle.end(oracle.lastIndex).seconds) < 1e-6, "\(context): storyboard duration \(storyboardDuration)")
        #expect(Int64((storyboardDuration * 1000).rounded(.down)) == duration || abs(storyboardDuration * 1000 - Double(duration)) < 1)
        let tiles = try #require(storyboard["tiles"] as? [[String: Any]], "\(context): storyboard tiles")
        #expect(tiles.count == cues.count, "\(context): \(tiles.count) storyboard tiles, \(cues.count) cues")
        for (i, (tile, cue)) in zip(tiles, cues).enumerated() {
            let start = JSON.double(tile["start"]) ?? -1
            #expect(
                start >= 0 && abs(start * 1000 - Double(cue.startMilliseconds)) < 1,
                "\(context): tile \(i) starts at \(start), cue at \(cue.startMilliseconds) ms")
            #expect(JSON.int(tile["x"]) == cue.x && JSON.int(tile["y"]) == cue.y, "\(context): tile \(i) place")
            if let url = tile["url"] as? String { #expect(url == cue.file, "\(context): tile \(i) url \(url)") }
        }

        // The --json object agrees with both.
        #expect(JSON.int(object["width"]) == w && JSON.int(object["height"]) == h, "\(context): --json size")
        #expect(object["vtt"] as? String == vttPath, "\(context): vtt \(object["vtt"] ?? "none")")
        #expect(object["storyboard"] as? String == storyboardPath, "\(context): storyboard \(object["storyboard"] ?? "none")")
        let items = try #require(object["thumbnails"] as? [[String: Any]], "\(context): no thumbnails array")
        #expect(items.count == cues.count, "\(context): \(items.count) thumbnails, \(cues.count) cues")
        for (i, (item, cue)) in zip(items, cues).enumerated() {
            let requested = JSON.double(item["requested"]) ?? -1, actual = JSON.double(item["actual"]) ?? -1
            #expect(
                abs(requested * 1000 - Double(cue.startMilliseconds)) < 1,
                "\(context): thumbnail \(i) requested \(requested), cue \(cue.startMilliseconds) ms")
            #expect(item["file"] as? String == cue.file, "\(context): thumbnail \(i) file")
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(cue.file).path))
            #expect(JSON.int(item["x"]) == cue.x && JSON.int(item["y"]) == cue.y, "\(context): thumbnail \(i) place")
            #expect(
                oracle.frames.indices.contains { abs(oracle.time($0).seconds - actual) < 1e-9 },
                "\(context): thumbnail \(i)'s actual \(actual) is no frame's time")
        }
        return Run(cues: cues, object: object, directory: directory, width: w, height: h)
    }

    /// Each thumbnail's (requested, actual) from the --json object.
    static func times(_ run: Run) -> [(requested: Double, actual: Double)] {
        (run.object["thumbnails"] as? [[String: Any]] ?? []).map { (JSON.double($0["requested"]) ?? -1, JSON.double($0["actual"]) ?? -1) }
    }
}

@Suite("Command line: thumbnails", .ffmpegLog)
struct CLIThumbnailsTests {
    @Test(
        "--every 1 as 4x3 sheets: the track, the storyboard, nearest keyframes, the tiles' pixels",
        arguments: FixtureCatalog.video)
    func sheets(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("thumbs-sheets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ThumbnailsCLI.run(fixture, ["--every", "1"], columns: 4, rows: 3, directory: directory)
        // One thumbnail per whole second before the end, starting at 0.
        let end = oracle.end(oracle.lastIndex)
        let expectedCount = (0...1_000).first { MediaTime(value: Int64($0), timescale: 1) >= end } ?? -1
        #expect(run.cues.count == expectedCount, "\(fixture.id): \(run.cues.count) cues for \(end.seconds) s")
        #expect(run.cues.map(\.startMilliseconds) == (0..<Int64(run.cues.count)).map { $0 * 1000 })
        #expect(
            Set(run.cues.map(\.file)).count == (run.cues.count + 11) / 12, "\(fixture.id): sheets \(Set(run.cues.map(\.file)).sorted())")
        // Every actual time: the keyframe nearest the requested second (the default tolerance).
        for (i, (requested, actual)) in ThumbnailsCLI.times(run).enumerated() {
            let expected = oracle.expectedLanding(at: MediaTime(value: Int64(i), timescale: 1), before: nil, after: nil)
            #expect(requested == Double(i))
            #expect(oracle.frames[expected].isKey)
            #expect(
                abs(actual - oracle.time(expected).seconds) < 1e-9,
                "\(fixture.id) at \(i) s: actual \(actual), expected keyframe \(expected) at \(oracle.time(expected).seconds)")
        }
        // Every tile holds the generator's picture for its time, byte for byte.
        let generator = try ThumbnailGenerator(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
        generator.maximumSize = (160, 90)
        var sheets: [String: RGBImage] = [:]
        for (i, cue) in run.cues.enumerated() {
            if sheets[cue.file] == nil { sheets[cue.file] = try readPNG(directory.appendingPathComponent(cue.file).path) }
            let sheet = try #require(sheets[cue.file])
            let thumbnail = try generator.thumbnail(at: MediaTime(value: Int64(i), timescale: 1))
            #expect(
                sheet.crop(x: cue.x, y: cue.y, width: cue.w, height: cue.h) == thumbnail.image,
                "\(fixture.id): cue \(i)'s tile in \(cue.file) is not the thumbnail for \(i) s")
        }
    }

    @Test("Without a grid: one PNG per thumbnail, in the display aspect", arguments: FixtureCatalog.video)
    func files(fixture: Fixture) throws {
        let directory = try temporaryDirectory("thumbs-files")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ThumbnailsCLI.run(fixture, ["--every", "1"], directory: directory)
        // The 160x90 box, filled on one side, the display aspect kept to a pixel of rounding.
        let display = try ThumbnailsCLI.displaySize(fixture)
        let scale = min(160 / display.width, 90 / display.height)
        #expect(
            abs(Double(run.width) - display.width * scale) <= 1 && abs(Double(run.height) - display.height * scale) <= 1,
            "\(fixture.id): \(run.width)x\(run.height) for a \(display.width)x\(display.height) display")
        #expect(run.width <= 160 && run.height <= 90 && (run.width == 160 || run.height == 90))
        for cue in run.cues {
            #expect(try pngDimensions(directory.appendingPathComponent(cue.file).path) == (run.width, run.height))
        }
    }

    @Test("--count N: N thumbnails evenly apart from 0, in a 3x2 grid", arguments: FixtureCatalog.video)
    func count(fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("thumbs-count")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ThumbnailsCLI.run(fixture, ["--count", "7"], columns: 3, rows: 2, directory: directory)
        #expect(run.cues.count == 7)
        #expect(Set(run.cues.map(\.file)).count == 2)
        let end = oracle.end(oracle.lastIndex).seconds
        for (i, (requested, actual)) in ThumbnailsCLI.times(run).enumerated() {
            #expect(abs(requested - end * Double(i) / 7) < 1e-5, "\(fixture.id): thumbnail \(i) requested \(requested)")
            let expected = oracle.expectedLanding(at: ThumbnailsCLI.microseconds(requested), before: nil, after: nil)
            #expect(
                abs(actual - oracle.time(expected).seconds) < 1e-9,
                "\(fixture.id) at \(requested): actual \(actual), expected keyframe \(expected) at \(oracle.time(expected).seconds)")
        }
    }

    /// Every precision on the small fixtures; the phone clips (a full decode per exact pass)
    /// take the keyframe window only: the library's tests cover their exact landings.
    static var precisionRuns: [(Fixture, String)] {
        FixtureCatalog.video.flatMap { fixture -> [(Fixture, String)] in
            let large = fixture.id.hasPrefix("iphone") || fixture.id.hasPrefix("android")
            return (large ? ["nearest-keyframe:0.5"] : ["exact", "nearest-keyframe:0.5", "tolerance:0.25,1"]).map { (fixture, $0) }
        }
    }

    @Test("--precision: exact gives the covering frame, nearest-keyframe:0.5 keeps to its window", arguments: precisionRuns)
    func precision(fixture: Fixture, precision: String) throws {
        let oracle = try Oracle(fixture)
        let window = try SeekPrecision(parsing: precision).window
        let directory = try temporaryDirectory("thumbs-precision")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ThumbnailsCLI.run(
            fixture, ["--every", "1/2", "--precision", precision, "--size", "64x64"],
            columns: 5, rows: 5, directory: directory)
        for (i, (requested, actual)) in ThumbnailsCLI.times(run).enumerated() {
            let t = MediaTime(value: Int64(i), timescale: 2)
            #expect(requested == t.seconds)
            let expected = oracle.expectedLanding(at: t, before: window.before, after: window.after)
            #expect(
                abs(actual - oracle.time(expected).seconds) < 1e-9,
                "\(fixture.id) \(precision) at \(t.seconds): actual \(actual), expected frame \(expected) at \(oracle.time(expected).seconds)"
            )
            // Before the first decodable frame (a stream cut mid-GOP) the target is clamped, so
            // the window rules apply from there on.
            guard t >= oracle.time(0) else { continue }
            #expect(oracle.intersects(expected, requested: t, before: window.before, after: window.after))
            if precision == "exact" { #expect(expected == oracle.covering(t)) }
        }
    }

    @Test(
        "Rotated phone clips give portrait thumbnails and sheets",
        arguments: [
            "iphone_hevc_editlist.s0", "android_h264_portrait_4k60.s0"
        ])
    func portrait(id: String) throws {
        let fixture = try #require(FixtureCatalog.fixture(id))
        for size in ["160x90", "90x160", "300x300"] {
            let directory = try temporaryDirectory("thumbs-portrait")
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try ThumbnailsCLI.run(fixture, ["--count", "3", "--size", size], columns: 3, rows: 1, directory: directory)
            #expect(run.height > run.width, "\(id) in \(size): \(run.width)x\(run.height) is not portrait")
            // 1080x1920 and 2160x3840 are both 9:16.
            #expect(abs(Double(run.width) * 16 / 9 - Double(run.height)) <= 16 / 9, "\(id) in \(size): \(run.width)x\(run.height)")
            let sheet = try pngDimensions(directory.appendingPathComponent(run.cues[0].file).path)
            #expect(sheet == (3 * run.width, run.height))
        }
    }

    @Test(
        "The anamorphic fixture (SAR 64:45, coded 320x240) gives its 455x240 display aspect",
        arguments: ["160x90", "455x240", "100x100", "1000x120", "64x200"])
    func anamorphic(size: String) throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_anamorphic_sar64x45.s0"))
        let sized = try temporaryDirectory("thumbs-anamorphic-sized")
        defer { try? FileManager.default.removeItem(at: sized) }
        let result = try ThumbnailsCLI.run(fixture, ["--every", "1", "--size", size], directory: sized)
        let box = size.split(separator: "x").compactMap { Double($0) }
        let display = (width: 320.0 * 64 / 45, height: 240.0)
        let scale = min(box[0] / display.width, box[1] / display.height)
        #expect(
            abs(Double(result.width) - display.width * scale) <= 1 && abs(Double(result.height) - display.height * scale) <= 1,
            "\(size): \(result.width)x\(result.height), expected about \(display.width * scale)x\(display.height * scale)")
        // The shape within one pixel of rounding either way.
        #expect(
            abs(Double(result.width) - Double(result.height) * 455 / 240) <= 1
                || abs(Double(result.height) - Double(result.width) * 240 / 455) <= 1,
            "\(size): \(result.width)x\(result.height) is not 455:240")
        #expect(try pngDimensions(sized.appendingPathComponent(result.cues[0].file).path) == (result.width, result.height))
    }

    @Test("Without --json: one summary line on stdout, nothing on stderr, the files written")
    func plainOutput() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try temporaryDirectory("thumbs-plain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = frameseek(["thumbnails", fixture.path, "--out", directory.path, "--every", "2"])
        #expect(result.code == .success, "\(result.stderr.text)")
        #expect(result.out.count == 1 && result.stderr.text.isEmpty)
        #expect(JSON.object(result.out.first ?? "") == nil)
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(written.isSuperset(of: ["thumbnails.vtt", "storyboard.json", "thumb-0001.png", "thumb-0007.png"]), "\(written.sorted())")
        #expect(written.count == 7 + 2, "\(written.sorted())")
    }

    @Test("--out is created when missing, nested folders included")
    func createsFolder() throws {
        let fixture = try #require(FixtureCatalog.fixture("vp9_altref.s0"))
        let root = try temporaryDirectory("thumbs-nested")
        defer { try? FileManager.default.removeItem(at: root) }
        let nested = root.appendingPathComponent("a/b/c")
        let run = try ThumbnailsCLI.run(fixture, ["--count", "2"], directory: nested)
        #expect(run.cues.count == 2)
    }

    static var invalidInvocations: [FailingInvocation] {
        let good = Repository.fixture("media/h264_bframes_gop250.mp4")
        let out = testScratchPath("never-written-\(UUID().uuidString)").path
        let audio = Repository.fixture("media/aac_sine.m4a")
        let missing = Repository.fixture("media/does_not_exist.mp4")
        let nasa = Repository.fixture("media/nasa_13013.mp4")
        return [
            FailingInvocation(label: "missing --out", arguments: ["thumbnails", good], mustContain: ["--out"]),
            FailingInvocation(label: "--out without a value", arguments: ["thumbnails", good, "--out"], mustContain: ["--out"]),
            FailingInvocation(label: "missing FILE", arguments: ["thumbnails", "--out", out], mustContain: ["FILE"]),
            FailingInvocation(label: "--every 0", arguments: ["thumbnails", good, "--out", out, "--every", "0"], mustContain: ["--every"]),
            FailingInvocation(
                label: "--every -1", arguments: ["thumbnails", good, "--out", out, "--every", "-1"], mustContain: ["--every"]),
            FailingInvocation(
                label: "--every abc", arguments: ["thumbnails", good, "--out", out, "--every", "abc"], mustContain: ["--every", "abc"]),
            FailingInvocation(
                label: "--every with --count", arguments: ["thumbnails", good, "--out", out, "--every", "1", "--count", "3"],
                mustContain: ["--every", "--count"]),
            FailingInvocation(label: "--count 0", arguments: ["thumbnails", good, "--out", out, "--count", "0"], mustContain: ["--count"]),
            FailingInvocation(
                label: "--size 0x10", arguments: ["thumbnails", good, "--out", out, "--size", "0x10"], mustContain: ["--size", "0x10"]),
            FailingInvocation(
                label: "--size abc", arguments: ["thumbnails", good, "--out", out, "--size", "abc"], mustContain: ["--size", "abc"]),
            FailingInvocation(
                label: "--size 160x", arguments: ["thumbnails", good, "--out", out, "--size", "160x"], mustContain: ["--size"]),
            FailingInvocation(
                label: "--columns without --rows", arguments: ["thumbnails", good, "--out", out, "--columns", "4"],
                mustContain: ["--columns", "--rows"]),
            FailingInvocation(
                label: "--rows without --columns", arguments: ["thumbnails", good, "--out", out, "--rows", "3"],
                mustContain: ["--columns", "--rows"]),
            FailingInvocation(
                label: "--columns 0", arguments: ["thumbnails", good, "--out", out, "--columns", "0", "--rows", "2"],
                mustContain: ["--columns"]),
            FailingInvocation(
                label: "--precision bogus", arguments: ["thumbnails", good, "--out", out, "--precision", "bogus"],
                mustContain: ["bogus"]),
            FailingInvocation(
                label: "unknown option", arguments: ["thumbnails", good, "--out", out, "--frobnicate"], mustContain: ["--frobnicate"]),
            FailingInvocation(
                label: "--png-compression 10", arguments: ["thumbnails", good, "--out", out, "--png-compression", "10"],
                mustContain: ["--png-compression", "0 to 9"]),
            FailingInvocation(
                label: "--decoders 0", arguments: ["thumbnails", good, "--out", out, "--decoders", "0"], mustContain: ["--decoders"]),
            FailingInvocation(
                label: "audio-only file", arguments: ["thumbnails", audio, "--out", out], mustContain: [audio + ": ", "video"]),
            FailingInvocation(
                label: "audio stream of a video file", arguments: ["thumbnails", nasa, "--out", out, "--stream", "1"],
                mustContain: [nasa + ": "]),
            FailingInvocation(
                label: "subtitle stream", arguments: ["thumbnails", nasa, "--out", out, "--stream", "2"],
                mustContain: [nasa + ": ", "subtitle"]),
            FailingInvocation(
                label: "missing file", arguments: ["thumbnails", missing, "--out", out], mustContain: [missing + ": ", "no such file"]),
            FailingInvocation(
                label: "empty file", arguments: ["thumbnails", Repository.fixture("bad/empty.mp4"), "--out", out],
                mustContain: [Repository.fixture("bad/empty.mp4") + ": "])
        ]
    }

    @Test("Bad usage and unreadable input: exit 2, one stderr line, nothing written", arguments: invalidInvocations)
    func badUsage(_ invocation: FailingInvocation) {
        CLIErrorTests.checkFails(invocation)
        if let index = invocation.arguments.firstIndex(of: "--out"), index + 1 < invocation.arguments.count {
            let out = invocation.arguments[index + 1]
            #expect(!FileManager.default.fileExists(atPath: out), "\(invocation.label): \(out) was created")
        }
    }

    @Test("An --out that cannot be created: exit 2, one line naming the folder")
    func unwritableFolder() throws {
        let root = try temporaryDirectory("thumbs-unwritable")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let out = file.appendingPathComponent("sub").path
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: "--out under a file",
                arguments: ["thumbnails", Repository.fixture("media/h264_bframes_gop250.mp4"), "--out", out],
                mustContain: [out]))
    }

    /// Spacings finer than WebVTT's millisecond over the 0.3 s phone clip: 600 thumbnails
    /// (one every 0.5 ms), one every 0.4 ms; on 20x20 sheets to keep the files few.
    static let subMillisecond: [(id: String, arguments: [String])] = [
        ("android_h264_portrait_4k60.s0", ["--count", "600", "--columns", "20", "--rows", "20"]),
        ("android_h264_portrait_4k60.s0", ["--every", "0.0004", "--columns", "20", "--rows", "20"])
    ]

    @Test(
        "Thumbnails closer than 1 ms: refused (exit 2), or a track whose cues still have length and increase",
        arguments: subMillisecond.indices)
    func subMillisecondSpacing(case index: Int) throws {
        let (id, extra) = Self.subMillisecond[index]
        let fixture = try #require(FixtureCatalog.fixture(id))
        let directory = try temporaryDirectory("thumbs-submillisecond")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["thumbnails", fixture.path, "--out", directory.path, "--json"] + extra
        let context = "frameseek \(arguments.dropFirst().joined(separator: " "))"
        let result = frameseek(arguments)
        if result.code == .usageOrInput {
            #expect(result.err.count == 1 && result.stdout.text.isEmpty, "\(context): \(result.stderr.text)")
            return
        }
        try #require(result.code == .success, "\(context): exit \(result.code.rawValue)")
        let text = try String(contentsOfFile: directory.appendingPathComponent("thumbnails.vtt").path, encoding: .utf8)
        let cues = ThumbnailsCLI.parseVTT(text, context: context)
        // WebVTT: a cue's end time must be greater than its start time.
        let empty = cues.filter { $0.endMilliseconds <= $0.startMilliseconds }
        #expect(
            empty.count == 0,
            "\(context): \(empty.count) of \(cues.count) cues end where they start, e.g. \(empty.first.map { "\($0.startMilliseconds) --> \($0.endMilliseconds) ms" } ?? "")"
        )
        let repeated = zip(cues, cues.dropFirst()).filter { $1.startMilliseconds <= $0.startMilliseconds }.count
        #expect(repeated == 0, "\(context): \(repeated) cues do not start after the one before")
    }

    @Test("thumbnails --help: exit 0, usage on stdout")
    func help() {
        let result = frameseek(["thumbnails", "--help"])
        #expect(result.code == .success)
        #expect(result.stdout.text.contains("usage: frameseek thumbnails"))
        #expect(result.stderr.text.isEmpty)
    }
}
