// Steps and numbered landings in the remuxes CLISeekWindowTests makes (the open-GOP, B-pyramid,
// edit-list and VFR fixtures stream-copied into fragmented MP4, Matroska and MPEG-TS).
//
// Steps cross each seam a player reading the file piece by piece crosses: every fragment of
// the fragmented MP4s (cut at each keyframe), every Matroska cluster (ffmpeg starts one at a
// video keyframe, but also mid-GOP once a cluster spans 5 s: the B-pyramid's second cluster
// starts on a B-frame), and every keyframe of MPEG-TS, which has no pieces of its own. A step
// must land on ffprobe's neighbour in presentation order, with framemd5's MD5.
//
// The index cache: a window seek reads no frame numbers, until `frameseek index` writes the
// whole table; the same seek then reads it and numbers each landing with ffprobe's index.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// The timestamps of each Matroska cluster's first block, in file order and in the segment's
/// timestamp units (ffmpeg writes milliseconds, the stream's time base): the block a player
/// reading cluster by cluster reads first.
func matroskaClusterStarts(_ path: String) throws -> [Int64] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func number(_ range: Range<Int>) -> Int64 { bytes[range].reduce(0) { $0 << 8 | Int64($1) } }
    /// An EBML variable-length integer at `offset`, its length marker kept for element IDs.
    func variableInteger(_ offset: Int, keepingMarker: Bool) throws -> (value: Int64, end: Int) {
        guard offset < bytes.count, bytes[offset] != 0 else { throw OracleError("\(path): no EBML number at \(offset)") }
        let end = offset + bytes[offset].leadingZeroBitCount + 1
        guard end <= bytes.count else { throw OracleError("\(path): EBML number past the end at \(offset)") }
        let first = keepingMarker ? Int64(bytes[offset]) : Int64(bytes[offset] & (0xFF >> (end - offset)))
        return (number((offset + 1)..<end) | first << (8 * (end - offset - 1)), end)
    }
    /// The elements in `range`: IDs and bodies. An unknown size (all ones) runs to the end of
    /// `range`, as it does for ffmpeg's Segment.
    func elements(_ range: Range<Int>) throws -> [(id: Int64, body: Range<Int>)] {
        var found: [(id: Int64, body: Range<Int>)] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            let id = try variableInteger(offset, keepingMarker: true)
            let size = try variableInteger(id.end, keepingMarker: false)
            let unknown = size.value == (Int64(1) << (7 * (size.end - id.end))) - 1
            let end = unknown ? range.upperBound : size.end + Int(size.value)
            guard end <= range.upperBound else { throw OracleError("\(path): element \(id.value) at \(offset) overruns its parent") }
            found.append((id.value, size.end..<end))
            offset = end
        }
        return found
    }
    let segment = try #require(try elements(0..<bytes.count).first { $0.id == 0x1853_8067 }, "\(path): no Segment")
    return try elements(segment.body).filter { $0.id == 0x1F43_B675 }.map { cluster in
        let children = try elements(cluster.body)
        let timestamp = try #require(children.first { $0.id == 0xE7 }.map { number($0.body) }, "\(path): a cluster without a timestamp")
        // A SimpleBlock, or the Block of a BlockGroup: track number, then a signed 16-bit offset.
        var block: Range<Int>?
        for child in children where block == nil {
            if child.id == 0xA3 { block = child.body }
            if child.id == 0xA0 { block = try elements(child.body).first { $0.id == 0xA1 }?.body }
        }
        guard let block else { throw OracleError("\(path): a cluster without a block") }
        let offsetStart = try variableInteger(block.lowerBound, keepingMarker: false).end
        return timestamp + Int64(Int16(bitPattern: UInt16(number(offsetStart..<(offsetStart + 2)))))
    }
}

extension RemuxOracle {
    /// The presentation indices of the frames each piece after the first starts with, ascending:
    /// fragments (one per keyframe, which the moof count confirms), Matroska clusters (read from
    /// the file), and MPEG-TS keyframes.
    func boundaries(of path: String, in container: WindowContainer) throws -> [Int] {
        switch container {
        case .fragmentedMP4, .fragmentedMP4WithoutSidx, .fragmentedMP4WithoutIndex:
            let fragments = try topLevelBoxes(path).filter { $0 == "moof" }.count
            try #require(fragments == keyframes.count, "\(path): \(fragments) fragments, \(keyframes.count) keyframes")
            return Array(keyframes.dropFirst())
        case .matroska:
            let clusters = try matroskaClusterStarts(path).map { start in
                try #require(pts.firstIndex(of: start), "\(path): a cluster starts at \(start), no frame's pts")
            }
            try #require(clusters.first == keyframes.first, "\(path): the first cluster starts at frame \(clusters.first ?? -1)")
            return Set(clusters.dropFirst() + keyframes.dropFirst()).sorted()
        case .mpegTS:
            return Array(keyframes.dropFirst())
        }
    }
}

@Suite("CLI: steps across fragments and clusters, and window seeks numbered by the index cache", .ffmpegLog)
struct CLISeekWindowStepTests {
    @Test(
        "step forward from the frame before each fragment or cluster boundary, and backward from the frame that starts it, lands on ffprobe's neighbours with framemd5's MD5",
        arguments: WindowRemux.all, ["full", "as-needed"])
    func stepsAcrossBoundaries(_ remux: WindowRemux, index: String) throws {
        let directory = try TemporaryDirectory()
        let path: String
        do { path = try remux.make(in: directory) } catch {
            Issue.record("\(remux.testDescription): ffmpeg refuses the remux, not tested: \(error)", severity: .warning)
            return
        }
        let oracle = try RemuxOracle(path)
        let boundaries = try oracle.boundaries(of: path, in: remux.container)
        try #require(!boundaries.isEmpty, "\(remux.testDescription): one piece only, no boundary to step across")
        var problems: [String] = []
        for boundary in boundaries {
            // Two steps each way: onto the boundary's far side, then one frame further into it.
            for (direction, start, landings) in [
                ("forward", boundary - 1, [boundary, boundary + 1]), ("backward", boundary, [boundary - 1, boundary - 2])
            ] {
                // Short of the edges: a step past one is CLIStepTests' concern.
                let expected = landings.filter { oracle.pts.indices.contains($0) }
                // Two decoders: with the whole table a pass forward is split between them; in
                // windows it steps on one, window by window, unnumbered, rather than index the
                // whole stream.
                let lines = jsonLines([
                    "step", path, "--at", oracle.time(start).text, "--\(direction)", "--repeat", String(expected.count), "--md5",
                    "--json", "--no-index-cache", "--index", index, "--decoders", "2"
                ])
                let context =
                    "\(remux.testDescription), --index \(index): step --\(direction) from frame \(start) (boundary frame \(boundary))"
                if lines.count != expected.count { problems.append("\(context): \(lines.count) lines, expected \(expected.count)") }
                for (n, (line, frame)) in zip(lines, expected).enumerated() {
                    problems += Self.problems(line, frame: frame, direction: direction, numbered: index == "full", oracle: oracle).map {
                        "\(context), step \(n + 1): \($0)"
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    /// What is wrong with one stepped line that should show the oracle's frame `frame`.
    /// A step in a seek window (`numbered` false) has no frame number: it must say why.
    static func problems(_ line: [String: Any], frame: Int, direction: String, numbered: Bool = true, oracle: RemuxOracle) -> [String] {
        var problems = oracle.problems(line, showing: frame)
        if line["result"] as? String != "stepped" || line["direction"] as? String != direction {
            problems.append("result \(line["result"] ?? "nil"), direction \(line["direction"] ?? "nil")")
        }
        if JSON.int(line["frames_stepped"]) != 1 { problems.append("frames_stepped \(line["frames_stepped"] ?? "nil")") }
        if numbered, JSON.int(line["frame_index"]) != frame {
            problems.append("frame_index \(line["frame_index"] ?? "nil"), expected \(frame) in ffprobe's presentation order")
        }
        if !numbered, !(line["frame_index"] is NSNull) || line["frame_index_unknown"] as? String != "not_indexed" {
            problems.append("frame_index \(line["frame_index"] ?? "nil") (\(line["frame_index_unknown"] ?? "nil")) in a window")
        }
        return problems
    }

    static let cached = [
        WindowRemux(source: "media/h264_bframes_gop250.mp4", container: .fragmentedMP4),
        WindowRemux(source: "media/hevc_opengop.mkv", container: .matroska),
        WindowRemux(source: "media/h264_editlist_midgop.mp4", container: .mpegTS)
    ]

    @Test(
        "A window seek has no frame numbers; after frameseek index, the same seek reads the cache and numbers each landing as ffprobe does, with the same PTS and MD5",
        arguments: Self.cached)
    func indexCacheNumbersWindowSeeks(_ remux: WindowRemux) throws {
        let directory = try TemporaryDirectory()
        let path = try remux.make(in: directory)
        let oracle = try RemuxOracle(path)
        let targets = oracle.targets()
        // Processes of their own with a cache folder of their own: entries neither come from
        // nor go to the one the other tests share.
        let cache = directory.file("cache")
        func run(_ arguments: [String]) throws -> (lines: [[String: Any]], errors: String) {
            let run = try frameseekProcess(arguments, indexCacheIn: cache, bound: .seconds(120))
            #expect(run.exitStatus == 0, "frameseek \(arguments.joined(separator: " ")): exit \(run.exitStatus ?? -1), \(run.stderr)")
            let lines = run.stdout.split(whereSeparator: \.isNewline).map { JSON.object(String($0)) }
            #expect(!lines.contains { $0 == nil }, "frameseek \(arguments.joined(separator: " ")): not JSON: \(run.stdout.prefix(300))")
            return (lines.compactMap { $0 }, run.stderr)
        }
        let seek = ["seek", path] + targets.map(\.time.text) + ["--json", "--md5"]

        let unnumbered = try run(seek)
        let indexed = try run(["index", path, "--json"])
        let numbered = try run(seek)
        let entry = indexed.lines.first ?? [:]
        #expect(
            entry["cache"] as? String == "written" && (entry["entry"] as? String)?.hasPrefix(cache + "/") == true,
            "\(remux.testDescription): index wrote \(entry)")
        #expect(JSON.int(entry["frame_count"]) == oracle.pts.count, "\(remux.testDescription): frame_count, ffprobe \(oracle.pts.count)")
        for (label, result, indexing) in [
            ("before index", unnumbered, CLISeekWindowTests.Indexing.asNeeded), ("after index", numbered, .full)
        ] {
            #expect(result.errors.isEmpty, "\(remux.testDescription) \(label): stderr \(result.errors)")
            #expect(result.lines.count == targets.count, "\(remux.testDescription) \(label): one line per target")
            let problems = zip(result.lines, targets).flatMap { line, target in
                CLISeekWindowTests.problems(line, target: target, oracle: oracle, indexing: indexing).map {
                    "\(label), target \(target.time.text) s (\(target.why)): \($0)"
                }
            }
            #expect(problems.isEmpty, "\(remux.testDescription): \(problems.count) problems:\n\(problems.joined(separator: "\n"))")
        }
    }
}
