// Exact landings without a complete frame table, on stream copies made in the test: the
// fixtures that are hardest to land in exactly (open-GOP HEVC with leading pictures, a
// B-pyramid with 250-frame GOPs, an edit list that starts mid-GOP, variable frame rate)
// remuxed into fragmented MP4, Matroska and MPEG-TS. `seek --index as-needed` reads only a
// window around each target, `--index full` the whole frame table; both must land on the frame
// ffmpeg decodes there, with its MD5.
//
// The truth is each remux's own ffprobe frame table and ffmpeg's framemd5 of it, never the
// source's: a remux moves time zero (fragmented MP4 drops the edit list and starts at the
// B-frame delay, MPEG-TS near 1.47 s) and can change the frame set (the edit-list source
// shows 120 frames, its remuxes all 150 the file holds).

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// A container the sources are stream-copied into, with the ffmpeg muxer options that make it.
enum WindowContainer: String, Sendable {
    case fragmentedMP4 = "fragmented MP4 (sidx and mfra)"
    case fragmentedMP4WithoutSidx = "fragmented MP4 (mfra, no sidx)"
    case fragmentedMP4WithoutIndex = "fragmented MP4 (neither sidx nor mfra)"
    case matroska = "Matroska"
    case mpegTS = "MPEG-TS"

    /// The three containers every source is copied into.
    static let main: [WindowContainer] = [.fragmentedMP4, .matroska, .mpegTS]

    /// A moof per keyframe behind an empty moov; the MP4 muxer needs a seekable output file.
    var muxerArguments: [String] {
        let fragmented = "+frag_keyframe+empty_moov+default_base_moof"
        switch self {
        case .fragmentedMP4: return ["-movflags", fragmented + "+global_sidx", "-f", "mp4"]
        case .fragmentedMP4WithoutSidx: return ["-movflags", fragmented, "-f", "mp4"]
        case .fragmentedMP4WithoutIndex: return ["-movflags", fragmented + "+skip_trailer", "-f", "mp4"]
        case .matroska: return ["-f", "matroska"]
        case .mpegTS: return ["-f", "mpegts"]
        }
    }

    var fileExtension: String {
        switch self {
        case .fragmentedMP4, .fragmentedMP4WithoutSidx, .fragmentedMP4WithoutIndex: return "mp4"
        case .matroska: return "mkv"
        case .mpegTS: return "ts"
        }
    }

    /// Which top-level index boxes a fragmented MP4 must hold, so that each case tests the
    /// index it names; nil for the other containers.
    var indexBoxes: (sidx: Bool, mfra: Bool)? {
        switch self {
        case .fragmentedMP4: return (true, true)
        case .fragmentedMP4WithoutSidx: return (false, true)
        case .fragmentedMP4WithoutIndex: return (false, false)
        case .matroska, .mpegTS: return nil
        }
    }
}

/// One source fixture stream-copied into one container.
struct WindowRemux: Sendable, CustomTestStringConvertible {
    /// Relative to Fixtures/.
    let source: String
    let container: WindowContainer

    var testDescription: String { "\(source) as \(container.rawValue)" }

    static let sources = [
        "media/hevc_opengop.mkv", "media/h264_bframes_gop250.mp4", "media/h264_editlist_midgop.mp4", "media/h264_vfr.mkv"
    ]
    static let all: [WindowRemux] =
        sources.flatMap { source in WindowContainer.main.map { WindowRemux(source: source, container: $0) } } + [
            WindowRemux(source: "media/h264_bframes_gop250.mp4", container: .fragmentedMP4WithoutSidx),
            WindowRemux(source: "media/h264_bframes_gop250.mp4", container: .fragmentedMP4WithoutIndex)
        ]

    /// Writes the remux (video stream only) into `directory`; throws with ffmpeg's stderr
    /// when ffmpeg refuses the pair.
    func make(in directory: TemporaryDirectory) throws -> String {
        let name = URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent
        let output = directory.file("\(name).\(container.fileExtension)")
        try runTool(
            ["ffmpeg", "-nostdin", "-v", "error", "-i", Repository.fixture(source), "-map", "0:v:0", "-c", "copy"]
                + container.muxerArguments + [output])
        return output
    }
}

/// ffprobe's and ffmpeg's view of one remux's video stream.
struct RemuxOracle {
    let timeBaseNumerator: Int64
    let timeBaseDenominator: Int64
    /// The format's start_time in the stream time base: time zero, as `ffmpeg -ss` counts.
    let originPTS: Int64
    /// Frame PTS in presentation order.
    let pts: [Int64]
    /// Presentation indices of the keyframes.
    let keyframes: [Int]
    /// For each random access point with leading pictures (presented before it, decoded after
    /// it: the RASL frames of an open GOP), the presentation indices of those pictures.
    let leadingPictures: [Int: [Int]]
    /// framemd5's MD5 of each frame by its PTS in the stream time base.
    let md5ByPTS: [Int64: String]

    init(_ path: String) throws {
        let probe = try Self.json(["-show_entries", "stream=time_base:format=start_time", path])
        let stream = try #require((probe["streams"] as? [[String: Any]])?.first, "\(path): no video stream")
        let timeBase = try #require(stream["time_base"] as? String, "\(path): no time_base").split(separator: "/")
        timeBaseNumerator = try #require(timeBase.first.flatMap { Int64($0) })
        timeBaseDenominator = try #require(timeBase.last.flatMap { Int64($0) })
        let start = (probe["format"] as? [String: Any])?["start_time"] as? String ?? "0"
        originPTS = Oracle.rescaleMicroseconds(
            Oracle.microseconds(start), numerator: timeBaseNumerator, denominator: timeBaseDenominator)

        let frames = try #require(try Self.json(["-show_entries", "frame=pts,key_frame", path])["frames"] as? [[String: Any]])
        let presented = frames.compactMap { frame in JSON.int64(frame["pts"]).map { ($0, JSON.int(frame["key_frame"]) == 1) } }
            .sorted { $0.0 < $1.0 }
        try #require(presented.count == frames.count && !frames.isEmpty, "\(path): \(frames.count) frames, \(presented.count) with a pts")
        pts = presented.map(\.0)
        keyframes = presented.indices.filter { presented[$0].1 }
        let index = Dictionary(pts.enumerated().map { ($1, $0) }) { first, _ in first }

        // Packets in decode order: those after a key packet with a smaller PTS lead it.
        let packets = try #require(try Self.json(["-show_entries", "packet=pts,flags", path])["packets"] as? [[String: Any]])
        var leading: [Int: [Int]] = [:]
        var rap: (pts: Int64, index: Int)?
        for packet in packets {
            guard let packetPTS = JSON.int64(packet["pts"]) else { continue }
            if (packet["flags"] as? String)?.hasPrefix("K") == true {
                rap = index[packetPTS].map { (packetPTS, $0) }
            } else if let rap, packetPTS < rap.pts, let picture = index[packetPTS] {
                leading[rap.index, default: []].append(picture)
            }
        }
        leadingPictures = leading.mapValues { $0.sorted() }

        // framemd5's pts column is zero-based (ffmpeg subtracts the format's start_time);
        // -enc_time_base -1 keeps it in the stream time base rather than 1/frame_rate.
        let framemd5 = try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-threads", "1", "-noautorotate", "-i", path, "-map", "0:v:0",
            "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-fflags", "+bitexact", "-f", "framemd5", "-"
        ])
        var md5s: [Int64: String] = [:]
        for line in framemd5.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let zeroBased = try #require(fields.count == 6 ? Int64(fields[2]) : nil, "\(path): framemd5 line \(line)")
            md5s[zeroBased + originPTS] = fields[5]
        }
        try #require(
            Set(md5s.keys) == Set(pts),
            "\(path): framemd5 has \(md5s.count) frames, ffprobe \(pts.count); they must be the same frames")
        md5ByPTS = md5s
    }

    private static func json(_ arguments: [String]) throws -> [String: Any] {
        let text = try runTool(["ffprobe", "-v", "error", "-select_streams", "v:0", "-of", "json"] + arguments)
        return try #require(JSON.object(text.split(whereSeparator: \.isNewline).joined()), "ffprobe \(arguments): not JSON")
    }

    var lastIndex: Int { pts.count - 1 }

    /// Frame `i`'s time on the zero-based timeline, in seconds.
    func time(_ i: Int) -> WindowTarget.Seconds { .init(value: (pts[i] - originPTS) * timeBaseNumerator, scale: timeBaseDenominator) }

    /// The frame whose presentation interval covers `t`: the last one presented at or before it.
    func covering(_ t: WindowTarget.Seconds) -> Int? {
        pts.indices.last { time($0) <= t }
    }
}

/// One target time of a seek, spelled as the command line reads it exactly, and why it was chosen.
struct WindowTarget {
    /// An exact rational number of seconds.
    struct Seconds: Comparable {
        let value: Int64
        let scale: Int64

        static func < (a: Self, b: Self) -> Bool { Int128(a.value) * Int128(b.scale) < Int128(b.value) * Int128(a.scale) }
        static func == (a: Self, b: Self) -> Bool { Int128(a.value) * Int128(b.scale) == Int128(b.value) * Int128(a.scale) }

        /// Decimal seconds when the value has at most 9 fractional digits, else `value/scale`
        /// (1/90000 and 1/30000 ticks are no finite decimals); the command line reads both exactly.
        var text: String {
            for digits in 0...9 {
                let power = (0..<digits).reduce(Int128(1)) { power, _ in power * 10 }
                let scaled = Int128(value) * power
                guard scaled % Int128(scale) == 0 else { continue }
                let units = scaled / Int128(scale)
                guard digits > 0 else { return String(units) }
                let fraction = String(units % power)
                return "\(units / power)." + String(repeating: "0", count: digits - fraction.count) + fraction
            }
            return "\(value)/\(scale)"
        }

        /// The decimal with the fewest digits strictly between `a` and `b` (a < b), nil if none
        /// has at most 9: a target inside a frame interval, typed as a user would.
        static func decimal(between a: Self, and b: Self) -> Self? {
            var power: Int64 = 10
            for _ in 1...9 {
                let candidate = Self(value: Int64(Int128(a.value) * Int128(power) / Int128(a.scale)) + 1, scale: power)
                if a < candidate && candidate < b { return candidate }
                power *= 10
            }
            return nil
        }

        /// The JSON's `landed_rational` ("value/timescale") as an exact rational.
        init?(rational: Any?) {
            let parts = (rational as? String)?.split(separator: "/").compactMap { Int64($0) } ?? []
            guard parts.count == 2, parts[1] > 0 else { return nil }
            self.init(value: parts[0], scale: parts[1])
        }

        init(value: Int64, scale: Int64) {
            self.value = value
            self.scale = scale
        }
    }

    let time: Seconds
    let why: String
    /// Also sought on its own: a lone target takes the single-seek path, several the batch one.
    let alone: Bool
}

extension RemuxOracle {
    /// The targets around the edges where a window must be chosen with care: the first frame,
    /// the frame before each keyframe, the keyframe, the frame after it, leading pictures and a
    /// point between the last of them and their random access point, decimals inside two
    /// intervals, and the last GOP. At most one per exact time; the tick before the last
    /// keyframe and the first point between leading pictures and their random access point are
    /// also sought alone.
    func targets() -> [WindowTarget] {
        var chosen: [WindowTarget] = [WindowTarget(time: time(0), why: "the first frame", alone: false)]
        func add(_ time: WindowTarget.Seconds?, _ why: String, alone: Bool = false) {
            guard let time, !chosen.contains(where: { $0.time == time }) else { return }
            chosen.append(WindowTarget(time: time, why: why, alone: alone))
        }
        func midpoint(_ a: Int, _ b: Int) -> WindowTarget.Seconds {
            .init(value: (pts[a] + pts[b] - 2 * originPTS) * timeBaseNumerator, scale: 2 * timeBaseDenominator)
        }
        for k in keyframes where k > 0 {
            let tickBefore = WindowTarget.Seconds(value: (pts[k] - originPTS - 1) * timeBaseNumerator, scale: timeBaseDenominator)
            add(tickBefore, "one tick before keyframe \(k)", alone: k == keyframes.last)
            add(time(k), "keyframe \(k)")
            if k < lastIndex { add(time(k + 1), "the frame after keyframe \(k)") }
        }
        for (n, rap) in leadingPictures.keys.sorted().prefix(2).enumerated() {
            guard let pictures = leadingPictures[rap], let first = pictures.first, let last = pictures.last else { continue }
            add(time(first), "leading picture \(first), the first of random access point \(rap)")
            add(midpoint(last, rap), "between leading picture \(last) and its random access point \(rap)", alone: n == 0)
        }
        for i in [pts.count / 3, 2 * pts.count / 3] where i < lastIndex {
            add(WindowTarget.Seconds.decimal(between: time(i), and: time(i + 1)), "a decimal inside frame \(i)'s interval")
        }
        if let lastKey = keyframes.last, lastKey < lastIndex {
            let i = (lastKey + lastIndex) / 2
            add(WindowTarget.Seconds.decimal(between: time(i), and: time(i + 1)), "a decimal inside frame \(i), in the last GOP")
        }
        add(time(lastIndex), "the last frame")
        return chosen
    }
}

extension RemuxOracle {
    /// What is wrong with the landed frame of a `seek` or `step` JSON line that should show
    /// frame `i`: its PTS, exact time and MD5.
    func problems(_ line: [String: Any], showing i: Int) -> [String] {
        var problems: [String] = []
        if JSON.int64(line["landed_pts"]) != pts[i] {
            problems.append("landed_pts \(line["landed_pts"] ?? "nil"), expected \(pts[i]) (frame \(i))")
        }
        if WindowTarget.Seconds(rational: line["landed_rational"]) != time(i) {
            problems.append("landed_rational \(line["landed_rational"] ?? "nil"), expected \(time(i).text) s")
        }
        if line["md5"] as? String != md5ByPTS[pts[i]] {
            problems.append("md5 \(line["md5"] ?? "nil"), framemd5 says \(md5ByPTS[pts[i]] ?? "nil") at pts \(pts[i])")
        }
        return problems
    }
}

@Suite("CLI: exact landings in seek windows of remuxed fixtures", .ffmpegLog)
struct CLISeekWindowTests {
    /// How the frame table is built for a seek: `--index` as the command line spells it.
    enum Indexing: String, CaseIterable {
        case asNeeded = "as-needed"
        case full
    }

    @Test(
        "seek --index as-needed and --index full land on the frame ffmpeg decodes at each target, with its PTS and MD5",
        arguments: WindowRemux.all)
    func landsExactly(_ remux: WindowRemux) throws {
        try #require(
            FileManager.default.fileExists(atPath: Repository.fixture(remux.source)), "\(remux.source): the source fixture is missing")
        let directory = try TemporaryDirectory()
        let path: String
        do { path = try remux.make(in: directory) } catch {
            Issue.record("\(remux.testDescription): ffmpeg refuses the remux, not tested: \(error)", severity: .warning)
            return
        }
        if let expected = remux.container.indexBoxes {
            let boxes = try topLevelBoxes(path)
            #expect(boxes.contains("moof"), "\(remux.testDescription): not fragmented: \(boxes)")
            #expect(boxes.contains("sidx") == expected.sidx, "\(remux.testDescription): top-level boxes \(boxes)")
            #expect(boxes.contains("mfra") == expected.mfra, "\(remux.testDescription): top-level boxes \(boxes)")
        }
        let oracle = try RemuxOracle(path)
        let targets = oracle.targets()
        for indexing in Indexing.allCases {
            // All targets in one run (planned as a batch), then the lone ones each in a run of its
            // own. Every run reads the media itself, not an index cache entry an earlier run wrote:
            // the frame tables under test are the window's and the full index's.
            let runs = [targets] + targets.filter(\.alone).map { [$0] }
            var problems: [String] = []
            for run in runs {
                let lines = jsonLines(
                    ["seek", path] + run.map(\.time.text) + [
                        "--json", "--md5", "--precision", "exact", "--no-index-cache", "--index", indexing.rawValue
                    ])
                #expect(lines.count == run.count, "\(remux.testDescription) --index \(indexing.rawValue): one line per target")
                for (line, target) in zip(lines, run) {
                    let context =
                        "\(remux.testDescription), --index \(indexing.rawValue), target \(target.time.text) s (\(target.why))"
                        + (run.count == 1 ? " alone" : "")
                    problems += Self.problems(line, target: target, oracle: oracle, indexing: indexing).map { "\(context): \($0)" }
                }
            }
            #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
        }
    }

    /// What is wrong with one JSON line, against the frame covering the target in the oracle.
    static func problems(_ line: [String: Any], target: WindowTarget, oracle: RemuxOracle, indexing: Indexing) -> [String] {
        guard let expected = oracle.covering(target.time) else { return ["the target precedes the first frame: a defect of the test"] }
        var problems = oracle.problems(line, showing: expected)
        switch indexing {
        case .asNeeded:
            if !(line["frame_index"] is NSNull) || !(line["key_frame_index"] is NSNull) {
                problems.append(
                    "frame_index \(line["frame_index"] ?? "nil"), key_frame_index \(line["key_frame_index"] ?? "nil"): not null")
            }
            if line["frame_index_unknown"] as? String != "not_indexed" {
                problems.append("frame_index_unknown \(line["frame_index_unknown"] ?? "nil"), expected not_indexed")
            }
        case .full:
            if JSON.int(line["frame_index"]) != expected {
                problems.append("frame_index \(line["frame_index"] ?? "nil"), expected \(expected) in ffprobe's presentation order")
            }
            if JSON.int(line["key_frame_index"]).map({ $0 > expected || !oracle.keyframes.contains($0) }) ?? true {
                problems.append("key_frame_index \(line["key_frame_index"] ?? "nil"), not a keyframe at or before frame \(expected)")
            }
            if line["frame_index_unknown"] != nil { problems.append("frame_index_unknown \(line["frame_index_unknown"] ?? "")") }
        }
        return problems
    }

    @Test("ffmpeg stream-copies at least three of the sources into each of the three containers")
    func remuxesRun() throws {
        let directory = try TemporaryDirectory()
        var complete = 0
        for source in WindowRemux.sources {
            let refused = WindowContainer.main.filter { container in
                (try? WindowRemux(source: source, container: container).make(in: directory)) == nil
            }
            if refused.isEmpty { complete += 1 }
        }
        #expect(complete >= 3, "only \(complete) of \(WindowRemux.sources.count) sources remux into all three containers")
    }
}
