// True seek cost across packagings: one 40-s clip, encoded here by ffmpeg, stream-copied by
// ffmpeg into a progressive MP4, HLS with MPEG-TS segments, HLS with CMAF segments and DASH,
// each served by a range server of its own. One `bench A B C D` run must count, for every form,
// what its server sent (bytes within 5%, requests exactly; a playlist's steps fetch the whole
// window first, which its open counts), seek every form at the first's targets, and name each
// form in a verdict. A two-rendition multivariant playlist is measured
// rendition by rendition with `--variant 0,1`, each result naming its rendition, whose size is
// the one ffmpeg encoded.

import Foundation
@testable import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Seek cost: bench over HLS, DASH and MP4 packagings", .ffmpegLog)
struct SeekCostPackagingTests {
    /// `clip.mp4` (320x240, 25 fps, a keyframe every second, B-frames) encoded into `directory`.
    static func encodeClip(in directory: URL, size: String = "320x240", name: String = "clip.mp4") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:duration=40",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-bf", "2",
            "-pix_fmt", "yuv420p", path
        ])
        return path
    }

    /// `source` stream-copied into `folder` as `manifest` with ffmpeg's own muxer options.
    static func package(_ source: String, into folder: URL, manifest: String, _ options: [String]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try runTool(
            ["ffmpeg", "-nostdin", "-v", "error", "-y", "-i", source, "-map", "0:v:0", "-c", "copy"] + options
                + [folder.appendingPathComponent(manifest).path])
    }

    @Test(
        "one bench run over MP4, HLS (TS, CMAF) and DASH: each form's counts match its server's, the same targets, a verdict each",
        .timeLimit(.minutes(5)))
    func packagingsSideBySide() throws {
        let directory = try temporaryDirectory("segment-cost")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try Self.encodeClip(in: directory)
        let forms: [(folder: String, manifest: String, options: [String])] = [
            ("mp4", "clip.mp4", ["-movflags", "+faststart"]),
            ("hls-ts", "ts.m3u8", ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod"]),
            ("hls-cmaf", "cmaf.m3u8", ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4"]),
            ("dash", "manifest.mpd", ["-f", "dash", "-seg_duration", "4", "-use_template", "1", "-use_timeline", "1"])
        ]
        var servers: [HTTPServer] = []
        defer { servers.forEach { $0.stop() } }
        var urls: [String] = []
        for form in forms {
            let folder = directory.appendingPathComponent(form.folder)
            try Self.package(clip, into: folder, manifest: form.manifest, form.options)
            let server = try HTTPServer(directory: folder.path, byteRanges: true)
            servers.append(server)
            urls.append("http://127.0.0.1:\(server.port)/\(form.manifest)")
        }
        let run = frameseek(["bench"] + urls + ["--workload", "random,long,backstep", "-n", "6", "--json"])
        #expect(run.code == .success, "\(run.stderr.text)")
        let rows = run.out.compactMap(JSON.object)
        try #require(rows.count == 3 * forms.count, "one row per form and workload: \(run.out)")
        for (position, (form, server)) in zip(forms, servers).enumerated() {
            // Both workloads' rows of this form, which its server alone served.
            let own = rows.filter { $0["file"] as? String == urls[position] }
            try #require(own.count == 3)
            var counted: Int64 = 0, requests: Int64 = 0
            for row in own {
                let samples = try #require(row["samples"] as? [[String: Any]])
                #expect(samples.count == 6, "\(form.folder) \(row["workload"] ?? "?"): \(samples.count) samples")
                counted +=
                    try #require(JSON.int64(row["open_bytes_read"])) + samples.compactMap { JSON.int64($0["bytes_read"]) }.reduce(0, +)
                requests += try #require(JSON.int64(row["open_requests"])) + samples.compactMap { JSON.int64($0["requests"]) }.reduce(0, +)
                #expect(samples.allSatisfy { JSON.int64($0["bytes_read"]) != nil }, "\(form.folder): a seek without its count")
                // Every form seeks the first form's targets (backstep steps from a frame of its own).
                guard row["workload"] as? String != "backstep" else { continue }
                let first = try #require(rows.first { $0["workload"] as? String == row["workload"] as? String })
                let targets = { (row: [String: Any]) in ((row["samples"] as? [[String: Any]]) ?? []).map { "\($0["target"] ?? "")" } }
                #expect(targets(row) == targets(first), "\(form.folder) \(row["workload"] ?? "?"): not the first form's targets")
                if form.folder != "mp4" {
                    // Read segment by segment: no frame numbers, and no table was built.
                    #expect(samples.allSatisfy { $0["frame_index"] is NSNull }, "\(form.folder): a frame number as needed")
                    #expect((row["settings"] as? [String: Any])?["frame_count"] is NSNull)
                }
            }
            let sent = try server.sent()
            #expect(counted > 0, "\(form.folder): nothing counted")
            #expect(
                abs(Double(counted - sent.bytes)) <= 0.05 * Double(sent.bytes),
                "\(form.folder): counted \(counted) bytes, the server sent \(sent.bytes)")
            #expect(requests == Int64(sent.requests), "\(form.folder): counted \(requests) requests, the server answered \(sent.requests)")
        }
        for name in ["ts.m3u8", "cmaf.m3u8", "manifest.mpd"] {
            #expect(run.err.contains { $0.hasPrefix("\(name)'s random seeks cost") && $0.contains("clip.mp4's at p95") }, "\(run.err)")
        }
    }

    @Test(
        "bench --variant 0,1 measures each rendition of a multivariant playlist, named, at its own size, counted", .timeLimit(.minutes(5)))
    func renditionsSideBySide() throws {
        let directory = try temporaryDirectory("renditions")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sizes = ["320x240", "160x120"]
        var master = "#EXTM3U\n"
        for (position, size) in sizes.enumerated() {
            let clip = try Self.encodeClip(in: directory, size: size, name: "clip\(position).mp4")
            try Self.package(
                clip, into: directory.appendingPathComponent("v\(position)"), manifest: "index.m3u8",
                ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod"])
            master += "#EXT-X-STREAM-INF:BANDWIDTH=\(800_000 / (position + 1)),RESOLUTION=\(size)\nv\(position)/index.m3u8\n"
        }
        try master.write(to: directory.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let run = frameseek(["bench", "http://127.0.0.1:\(server.port)/master.m3u8", "--variant", "0,1", "-n", "4", "--json"])
        #expect(run.code == .success, "\(run.stderr.text)")
        let rows = run.out.compactMap(JSON.object)
        try #require(rows.count == 2, "\(run.out)")
        var counted: Int64 = 0
        for (position, (row, size)) in zip(rows, sizes).enumerated() {
            let settings = try #require(row["settings"] as? [String: Any])
            let variant = try #require(settings["variant"] as? [String: Any], "\(settings)")
            #expect(JSON.int(variant["position"]) == position && variant["resolution"] as? String == size, "\(variant)")
            #expect("\(settings["width"] ?? "")x\(settings["height"] ?? "")" == size, "decoded size \(settings)")
            let samples = try #require(row["samples"] as? [[String: Any]])
            counted += try #require(JSON.int64(row["open_bytes_read"])) + samples.compactMap { JSON.int64($0["bytes_read"]) }.reduce(0, +)
        }
        let sent = try server.sent()
        #expect(abs(Double(counted - sent.bytes)) <= 0.05 * Double(sent.bytes), "counted \(counted), sent \(sent.bytes)")
        #expect(run.err.contains { $0.contains("master.m3u8 [variant 1]'s random seeks cost") }, "\(run.err)")
        let (paths, _) = try server.requestsAndFaults()
        #expect(paths["v0/index.m3u8"] == 1 && paths["v1/index.m3u8"] == 1, "\(paths)")
    }

    @Test("bench refuses sample and thumbnails on a playlist, and a malformed --variant, with one line, exit 2")
    func refusals() throws {
        let directory = try temporaryDirectory("refusals")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try Self.encodeClip(in: directory)
        try Self.package(clip, into: directory, manifest: "index.m3u8", ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod"])
        let playlist = directory.appendingPathComponent("index.m3u8").path
        for (arguments, words) in [
            (["--workload", "sample"], "not sample"), (["--workload", "thumbnails"], "not thumbnails"),
            (["--variant", "0,x"], "--variant")
        ] {
            let run = frameseek(["bench", playlist] + arguments)
            #expect(run.code == .usageOrInput && run.err.count == 1 && run.err[0].contains(words), "\(arguments): \(run.err)")
        }
    }
}
