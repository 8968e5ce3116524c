// `frameseek thumbnails` on Matroska opened as needed (the default): each thumbnail lands on the
// keyframe the Cues list nearest its time, and reads that keyframe alone, as a streaming
// player's scrub preview does; `--index full` reads the whole stream first. The truth is
// ffprobe's packet list of each remux (its keyframe flags and times): every actual time is the
// keyframe nearest the requested one (ties to the earlier), and the pictures are the ones the
// whole table gives, byte for byte. Over HTTP, the range server counts what the set cost.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

@Suite("CLI: thumbnails from Matroska's Cues", .ffmpegLog)
struct CLIThumbnailsCuesTests {
    /// The zero-based presentation times, in seconds, of the packets ffprobe flags as keyframes,
    /// and of the first and last frames.
    static func keyframeTimes(_ path: String) throws -> (keyframes: [Double], first: Double, last: Double) {
        let start =
            Double(
                try runTool(["ffprobe", "-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", path])
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let packets = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", path
        ])
        var keyframes: [Double] = [], all: [Double] = []
        for line in packets.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let seconds = Double(fields[0]) else { continue }
            all.append(seconds - start)
            if fields[1].hasPrefix("K") { keyframes.append(seconds - start) }
        }
        return (keyframes.sorted(), try #require(all.min(), "\(path): no packets"), try #require(all.max()))
    }

    /// Rule 1 then rule 2 with no bound on the tolerance: the target clamped to the frames, then
    /// the keyframe nearest it, ties to the earlier.
    static func expectedKeyframe(_ requested: Double, _ times: (keyframes: [Double], first: Double, last: Double)) -> Double? {
        let target = min(max(requested, times.first), times.last)
        return times.keyframes.min { a, b in
            let (da, db) = (abs(a - target), abs(b - target))
            return da < db - 0.000_000_5 || (abs(da - db) <= 0.000_000_5 && a < b)
        }
    }

    /// One `thumbnails --json` run: its JSON object, the folder it wrote and its stderr.
    struct Run {
        let json: [String: Any]
        let folder: String
        let stderr: String
    }

    /// Runs `thumbnails` on `input` into a new folder of `directory`.
    static func thumbnails(_ input: String, _ options: [String], in directory: TemporaryDirectory, name: String) throws -> Run {
        let folder = directory.file(name)
        let run = frameseek(["thumbnails", input, "--out", folder, "--json", "--no-index-cache"] + options)
        try #require(run.code == .success, "\(input) \(options): \(run.stderr.text)")
        return Run(json: try #require(run.out.compactMap(JSON.object).last, "\(input): no JSON"), folder: folder, stderr: run.stderr.text)
    }

    /// Each thumbnail's requested and actual time and its picture's bytes.
    static func tiles(_ run: Run) throws -> [(requested: Double, actual: Double, picture: Data)] {
        let items = try #require(run.json["thumbnails"] as? [[String: Any]])
        return try items.map { item in
            let file = try #require(item["file"] as? String)
            return (
                try #require(JSON.double(item["requested"])), try #require(JSON.double(item["actual"])),
                try Data(contentsOf: URL(fileURLWithPath: run.folder).appendingPathComponent(file))
            )
        }
    }

    @Test(
        "as needed, every thumbnail is the keyframe ffprobe lists nearest its time, with the pictures of --index full",
        arguments: WindowRemux.sources)
    func nearestListedKeyframe(_ source: String) throws {
        try #require(FileManager.default.fileExists(atPath: Repository.fixture(source)), "\(source): the source fixture is missing")
        let directory = try TemporaryDirectory()
        let path = try WindowRemux(source: source, container: .matroska).make(in: directory)
        let times = try Self.keyframeTimes(path)
        // Three a second, so that several share a keyframe and some fall right between two.
        let asNeeded = try Self.tiles(Self.thumbnails(path, ["--every", "1/3"], in: directory, name: "as-needed"))
        let full = try Self.tiles(Self.thumbnails(path, ["--every", "1/3", "--index", "full"], in: directory, name: "full"))
        try #require(asNeeded.count == full.count && asNeeded.count > 3, "\(source): \(asNeeded.count) and \(full.count) thumbnails")
        for (a, f) in zip(asNeeded, full) {
            let expected = try #require(Self.expectedKeyframe(a.requested, times))
            #expect(abs(a.actual - expected) < 0.000_5, "\(source) at \(a.requested) s: landed \(a.actual), ffprobe's nearest \(expected)")
            #expect(a.actual == f.actual && a.picture == f.picture, "\(source) at \(a.requested) s: differs from --index full")
        }

        // The same set from the library lands without ever building the whole table: the Cues
        // decided every landing.
        var options = FFmpegEngine.Options(threads: 1)
        options.indexing = .asNeeded
        let generator = try ThumbnailGenerator(path: path, options: options)
        let made = try generator.thumbnails(at: asNeeded.map { MediaTime(seconds: $0.requested, preferredTimescale: 3000) })
        #expect(!generator.engine.indexesWholeStream && generator.engine.landsOnListedKeyframes, "\(source): the whole table was built")
        #expect(made.allSatisfy { $0.frameIndex == nil }, "\(source): a thumbnail carries a frame number")
        #expect(zip(made, asNeeded).allSatisfy { abs($0.actualTime.seconds - $1.actual) < 0.000_5 }, "\(source)")
    }

    @Test("over HTTP the set reads the keyframes it shows, not the film; without Cues it is still the whole table's set")
    func readsKeyframesAlone() throws {
        let directory = try TemporaryDirectory()
        let clip = directory.file("clip.mp4")
        // Noise makes GOPs of about 0.7 MB (2 s here) beside keyframes of about 20 kB, and the
        // forced keyframes make GOPs of unequal length, so the nearest keyframe is not the
        // previous one by arithmetic.
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=480x270:rate=25:duration=24",
            "-vf", "noise=alls=20:allf=t", "-c:v", "libx264", "-threads", "1", "-preset", "veryfast", "-crf", "22",
            "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-bf", "2",
            "-force_key_frames", "expr:eq(n,0)+eq(n,130)+eq(n,310)+eq(n,460)", "-pix_fmt", "yuv420p", clip
        ])
        let served = directory.file("served")
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        let mkv = (served as NSString).appendingPathComponent("clip.mkv")
        // Audio 2 s longer than the video: the Segment's duration is the audio's, and the set
        // still spans the video alone, as the whole table's does.
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-i", clip, "-f", "lavfi", "-i", "sine=frequency=440:duration=26",
            "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "libopus", mkv
        ])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: mkv)[.size] as? Int64)
        let times = try Self.keyframeTimes(mkv)

        let server = try HTTPServer(directory: served, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/clip.mkv"
        let before = try server.sent().bytes
        let overHTTP = try Self.tiles(Self.thumbnails(url, ["--every", "1"], in: directory, name: "http"))
        let cost = try server.sent().bytes - before
        let full = try Self.tiles(Self.thumbnails(mkv, ["--every", "1", "--index", "full"], in: directory, name: "full"))
        // The whole table reads all of it; each thumbnail reads its keyframe's cluster start.
        #expect(Double(cost) < 0.2 * Double(size), "the set cost \(cost) bytes of a \(size)-byte file")
        try #require(overHTTP.count == full.count && full.count >= 24, "\(overHTTP.count) and \(full.count) thumbnails")
        for (a, f) in zip(overHTTP, full) {
            let expected = try #require(Self.expectedKeyframe(a.requested, times))
            #expect(abs(a.actual - expected) < 0.000_5, "at \(a.requested) s: landed \(a.actual), ffprobe's nearest \(expected)")
            #expect(a.actual == f.actual && a.picture == f.picture, "at \(a.requested) s: differs from --index full")
        }

        // Cut before its Cues (a download broken off), the SeekHead still names them: the list
        // is not there, so the set comes from the whole table, and the file is found truncated.
        let cut = directory.file("cut.mkv")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: mkv))
        try bytes.prefix(bytes.count * 3 / 5).write(to: URL(fileURLWithPath: cut))
        let cutRun = try Self.thumbnails(cut, ["--every", "1"], in: directory, name: "cut")
        #expect(cutRun.stderr.contains("truncated"), "\(cutRun.stderr)")
        let cutTiles = try Self.tiles(cutRun)
        let cutFull = try Self.tiles(Self.thumbnails(cut, ["--every", "1", "--index", "full"], in: directory, name: "cut-full"))
        #expect(cutTiles.count == cutFull.count && cutTiles.count >= 10, "\(cutTiles.count) and \(cutFull.count) thumbnails")
        #expect(zip(cutTiles, cutFull).allSatisfy { $0.actual == $1.actual && $0.picture == $1.picture })
        let strict = frameseek(["thumbnails", cut, "--out", directory.file("cut-strict"), "--every", "1", "--strict"])
        #expect(strict.code == .usageOrInput, "--strict on a truncated file: \(strict.stderr.text)")

        var asNeeded = FFmpegEngine.Options(threads: 1)
        asNeeded.indexing = .asNeeded
        #expect(try !ThumbnailGenerator(path: cut, options: asNeeded).engine.landsOnListedKeyframes, "the cut file's list was taken")
        #expect(try ThumbnailGenerator(path: mkv, options: asNeeded).engine.landsOnListedKeyframes, "the whole file's list was not taken")

        // Cues before the clusters (as `-cues_to_front` and mkclean write them) are in FFmpeg's
        // index from the open on: the same list, the same set.
        let front = directory.file("front.mkv")
        try runTool(["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", mkv, "-map", "0", "-c", "copy", "-cues_to_front", "1", front])
        #expect(try ThumbnailGenerator(path: front, options: asNeeded).engine.landsOnListedKeyframes, "the front Cues were not taken")
        let frontTiles = try Self.tiles(Self.thumbnails(front, ["--every", "1"], in: directory, name: "front"))
        let frontFull = try Self.tiles(Self.thumbnails(front, ["--every", "1", "--index", "full"], in: directory, name: "front-full"))
        #expect(frontTiles.count == frontFull.count && frontTiles.count >= 24)
        #expect(zip(frontTiles, frontFull).allSatisfy { $0.actual == $1.actual && $0.picture == $1.picture })

        // Muxed to a pipe, Matroska has no Cues: as needed, the set comes from the whole table.
        let piped = directory.file("piped.mkv")
        let mux = Process()
        mux.executableURL = URL(fileURLWithPath: "/bin/sh")
        mux.arguments = ["-c", "ffmpeg -nostdin -v error -i \"$0\" -map 0:v -c copy -f matroska - > \"$1\"", mkv, piped]
        try mux.run()
        mux.waitUntilExit()
        try #require(mux.terminationStatus == 0, "ffmpeg could not mux to a pipe")
        let withoutCues = try Self.tiles(Self.thumbnails(piped, ["--every", "1"], in: directory, name: "piped"))
        let pipedFull = try Self.tiles(Self.thumbnails(piped, ["--every", "1", "--index", "full"], in: directory, name: "piped-full"))
        #expect(withoutCues.count == pipedFull.count && withoutCues.count >= 24)
        #expect(zip(withoutCues, pipedFull).allSatisfy { $0.actual == $1.actual && $0.picture == $1.picture })
    }
}
