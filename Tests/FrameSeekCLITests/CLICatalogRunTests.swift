// Thumbnails and bench for a catalog, split into shards: each encode exported (or measured)
// exactly once, and the shards' results merged. The truth: ffprobe's duration and frame count
// of each encode, the WebVTT track each export writes, and the folder listing.

import Foundation
import FrameSeekCLI
import FrameSeekTestSupport
import Testing

/// Four 8-second encodes of different sources, one in a subfolder, and a catalog naming them
/// relative to itself, in both line forms and with a blank line.
private struct CatalogMedia: Sendable {
    let folder: URL
    static let names = ["bars", "noise", "rings", "pattern"]
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let made: Result<CatalogMedia, OracleError> = Result { () throws(OracleError) in
        do {
            let folder = try temporaryDirectory("thumbnails-catalog")
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
            let sources = ["smptebars", "testsrc2", "mandelbrot", "rgbtestsrc"]
            let files = ["bars.mp4", "noise.mkv", "more/rings.mp4", "pattern.ts"]
            for (source, file) in zip(sources, files) {
                try runTool(
                    [
                        "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=size=160x90:rate=25", "-t", "8",
                        "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p", file
                    ], in: folder)
            }
            let catalog = "\"bars.mp4\"\n{\"media\": \"noise.mkv\"}\n\n\"more/rings.mp4\"\n{\"media\": \"pattern.ts\"}\n"
            try catalog.write(to: folder.appendingPathComponent("catalog.jsonl"), atomically: true, encoding: .utf8)
            return CatalogMedia(folder: folder)
        } catch let error as OracleError { throw error } catch { throw OracleError("\(error)") }
    }
}

@Suite("CLI: thumbnails for a catalog, in shards", .ffmpegLog)
struct CLIThumbnailsCatalogTests {
    @Test("Two shards export each of four encodes exactly once, and merge reports four")
    func twoShards() throws {
        let media = try CatalogMedia.made.get()
        let out = media.path("out-shards")
        var exported: [String: Int] = [:]
        for shard in 0..<2 {
            let result = frameseek([
                "thumbnails", "--catalog", media.path("catalog.jsonl"), "--shard", "\(shard)/2", "--out", out, "--every", "2",
                "--results", media.path("shard-\(shard).jsonl"), "--root", media.folder.path, "--json"
            ])
            #expect(result.code == .success, "\(result.err)")
            for line in result.out.dropLast() {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["type"] as? String == "exported", "\(line)")
                let name = try #require(object["name"] as? String)
                #expect(exported[name] == nil, "\(name) exported twice")
                exported[name] = object["thumbnails"] as? Int
            }
        }
        #expect(Set(exported.keys) == Set(CatalogMedia.names))
        let folders = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(folders == CatalogMedia.names.sorted(), "one folder per encode, nothing else: \(folders)")
        for (name, file) in zip(CatalogMedia.names, ["bars.mp4", "noise.mkv", "more/rings.mp4", "pattern.ts"]) {
            // ffprobe's duration: a thumbnail every 2 s from 0 while before the end.
            let duration = try #require(
                Double(
                    try runTool(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", media.path(file)])
                        .trimmingCharacters(in: .whitespacesAndNewlines)))
            let expected = Int((duration / 2).rounded(.up))
            let vtt = try String(contentsOfFile: "\(out)/\(name)/thumbnails.vtt", encoding: .utf8)
            #expect(vtt.components(separatedBy: " --> ").count - 1 == expected, "\(name): \(expected) cues")
            #expect(exported[name] == expected, "\(name): \(exported[name] ?? -1) thumbnails reported")
        }
        let merged = frameseek(["thumbnails", "merge", media.path("shard-0.jsonl"), media.path("shard-1.jsonl"), "--json"])
        #expect(merged.code == .success, "\(merged.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data((merged.out.last ?? "").utf8)) as? [String: Any])
        #expect(summary["exports"] as? Int == 4 && summary["written"] as? Int == 4 && summary["errors"] as? Int == 0, "\(summary)")
        #expect(summary["thumbnails"] as? Int == exported.values.reduce(0, +))
        // A merge needs every shard once.
        let partial = frameseek(["thumbnails", "merge", media.path("shard-0.jsonl")])
        #expect(partial.code == .usageOrInput && partial.err.count == 1 && partial.err[0].contains("1/2"), "\(partial.err)")
        let twice = frameseek(["thumbnails", "merge", media.path("shard-0.jsonl"), media.path("shard-0.jsonl")])
        #expect(twice.code == .usageOrInput && twice.err.count == 1, "\(twice.err)")
    }

    @Test(
        "A playlist, a symbolic link in place of an export folder, and a forged results line are refused line by line; the other exports are written"
    )
    func hostileLines() throws {
        let media = try CatalogMedia.made.get()
        // A file that would make FFmpeg open other resources, whatever its name says.
        try "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/hostname\n#EXT-X-ENDLIST\n"
            .write(toFile: media.path("list.mp4"), atomically: true, encoding: .utf8)
        let out = media.path("out-hostile")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let elsewhere = media.path("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(out)/noise", withDestinationPath: elsewhere)
        let catalog = media.path("hostile.jsonl")
        try "\"bars.mp4\"\n\"list.mp4\"\n\"noise.mkv\"\n".write(toFile: catalog, atomically: true, encoding: .utf8)
        let results = media.path("hostile-results.jsonl")
        let result = frameseek([
            "thumbnails", "--catalog", catalog, "--out", out, "--results", results, "--root", media.folder.path, "--json"
        ])
        #expect(result.code == .usageOrInput)
        let objects = try result.out.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["type"] as? String } == ["exported", "error", "error", "summary"], "\(result.out)")
        #expect((objects[1]["error"] as? String)?.contains("playlist") == true)
        #expect((objects[2]["error"] as? String)?.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing written through the link")
        // A results file whose line names a catalog line another shard takes cannot be merged.
        let forged = media.path("forged.jsonl")
        let text = try String(contentsOfFile: results, encoding: .utf8)
        try text.replacingOccurrences(of: "\"line\":1,", with: "\"line\":9,").write(toFile: forged, atomically: true, encoding: .utf8)
        let merged = frameseek(["thumbnails", "merge", forged])
        #expect(merged.code == .usageOrInput && merged.err.first?.contains("catalog line") == true, "\(merged.err)")
    }

    @Test("A line that cannot be exported is an error line and exit 2; the other exports are still written")
    func failingLine() throws {
        let media = try CatalogMedia.made.get()
        let broken = media.path("broken.mp4")
        try Data("not a video".utf8).write(to: URL(fileURLWithPath: broken))
        let catalog = media.path("with-broken.jsonl")
        try "\"bars.mp4\"\n\"broken.mp4\"\n".write(toFile: catalog, atomically: true, encoding: .utf8)
        let out = media.path("out-broken")
        let result = frameseek([
            "thumbnails", "--catalog", catalog, "--out", out, "--results", media.path("broken-results.jsonl"), "--root", media.folder.path
        ])
        #expect(result.code == .usageOrInput)
        #expect(result.err.count == 1 && result.err[0].hasPrefix("broken: "), "\(result.err)")
        #expect(FileManager.default.fileExists(atPath: "\(out)/bars/thumbnails.vtt"))
        let merged = frameseek(["thumbnails", "merge", media.path("broken-results.jsonl")])
        #expect(merged.code == .usageOrInput && merged.out.last?.contains("1 failed") == true, "\(merged.out)")
    }

    @Test("Two files giving one folder name, and a path outside the root, are refused before anything is decoded")
    func refusals() throws {
        let media = try CatalogMedia.made.get()
        try FileManager.default.createDirectory(atPath: media.path("again"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: media.path("bars.mp4"), toPath: media.path("again/bars.mp4"))
        let clash = media.path("clash.jsonl")
        try "\"bars.mp4\"\n\"again/bars.mp4\"\n".write(toFile: clash, atomically: true, encoding: .utf8)
        let first = frameseek(["thumbnails", "--catalog", clash, "--out", media.path("out-clash"), "--root", media.folder.path])
        #expect(first.code == .usageOrInput && first.err.count == 1 && first.err[0].contains("line 1"), "\(first.err)")
        #expect(!FileManager.default.fileExists(atPath: media.path("out-clash")))
        // A file that exists, outside the root: refused for where it is, not for being missing.
        let outsideFile = media.folder.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).mp4")
        try FileManager.default.copyItem(atPath: media.path("bars.mp4"), toPath: outsideFile.path)
        defer { try? FileManager.default.removeItem(at: outsideFile) }
        let outside = media.path("outside.jsonl")
        try "\"../\(outsideFile.lastPathComponent)\"\n".write(toFile: outside, atomically: true, encoding: .utf8)
        let escaped = frameseek(["thumbnails", "--catalog", outside, "--out", media.path("out-outside"), "--root", media.folder.path])
        #expect(escaped.code == .usageOrInput && escaped.err.count == 1 && escaped.err[0].contains("outside the root"), "\(escaped.err)")
        // One manifest for a whole catalog would be written by every export.
        let merging = frameseek([
            "thumbnails", "--catalog", media.path("catalog.jsonl"), "--out", media.path("out-merge"), "--hls", "--merge-into",
            media.path("catalog.jsonl"), "--root", media.folder.path
        ])
        #expect(merging.code == .usageOrInput && merging.err.first?.contains("--merge-into") == true, "\(merging.err)")
        #expect(!FileManager.default.fileExists(atPath: media.path("out-outside")))
        let stray = frameseek(["thumbnails", media.path("bars.mp4"), "--out", media.path("out-stray"), "--shard", "0/2"])
        #expect(stray.code == .usageOrInput && stray.err.first?.contains("--catalog") == true, "\(stray.err)")
    }
}

@Suite("CLI: bench for a catalog, in shards", .ffmpegLog)
struct CLIBenchCatalogTests {
    @Test("Two shards measure each of four encodes once; merge joins their rows in catalog order")
    func twoShards() throws {
        let media = try CatalogMedia.made.get()
        for shard in 0..<2 {
            let result = frameseek([
                "bench", "--catalog", media.path("catalog.jsonl"), "--shard", "\(shard)/2", "-n", "3",
                "--results", media.path("bench-\(shard).jsonl"), "--root", media.folder.path
            ])
            #expect(result.code == .success, "\(result.err)")
            #expect(result.out.last?.hasPrefix("bench: 2 files, 2 measured, 2 rows") == true, "\(result.out)")
        }
        let merged = frameseek(["bench", "merge", media.path("bench-1.jsonl"), media.path("bench-0.jsonl"), "--json"])
        #expect(merged.code == .success, "\(merged.err)")
        let objects = try merged.out.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let rows = objects.filter { $0["type"] as? String == "row" }
        #expect(rows.map { $0["line"] as? Int } == [1, 2, 3, 4], "rows in catalog order")
        for (row, file) in zip(rows, ["bars.mp4", "noise.mkv", "more/rings.mp4", "pattern.ts"]) {
            let result = try #require(row["result"] as? [String: Any])
            #expect(result["workload"] as? String == "random" && result["n"] as? Int == 3)
            // The frame count bench measured over is ffprobe's.
            let frames =
                try runTool([
                    "ffprobe", "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
                    "-of", "csv=p=0", media.path(file)
                ]).split(separator: "\n").first.map(String.init) ?? ""
            #expect((result["settings"] as? [String: Any])?["frame_count"] as? Int == Int(frames), "\(file): \(frames) frames")
        }
        let summary = try #require(objects.last)
        #expect(summary["files"] as? Int == 4 && summary["measured"] as? Int == 4 && summary["rows"] as? Int == 4, "\(summary)")
        let partial = frameseek(["bench", "merge", media.path("bench-1.jsonl")])
        #expect(partial.code == .usageOrInput && partial.err.count == 1, "\(partial.err)")
        let wrong = frameseek(["thumbnails", "merge", media.path("bench-0.jsonl"), media.path("bench-1.jsonl")])
        #expect(wrong.code == .usageOrInput && wrong.err.first?.contains("results of bench") == true, "\(wrong.err)")
    }
}
