// True seek cost, side by side: two encodes of one 40-s clip (a keyframe every 25 frames and
// every 250), made here by ffmpeg and served over HTTP by two range servers, so each server's
// own count is the truth for its file. One `bench A B --network --report --json` run must
// count what the servers sent, model the network by its formula, find the long GOP's seeks
// dearer (more frames decoded for the same targets), and draw both encodes in a report that
// Chromium renders.

import Foundation
@testable import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Seek cost: bench A B over HTTP", .ffmpegLog)
struct SeekCostTests {
    /// The two encodes, each in a folder of its own, with its range server.
    struct Encodes {
        let servers: [HTTPServer]
        let urls: [String]
        let directory: URL
    }

    static func makeEncodes() throws -> Encodes {
        let directory = try temporaryDirectory("seek-cost")
        var servers: [HTTPServer] = [], urls: [String] = []
        for gop in [25, 250] {
            let folder = directory.appendingPathComponent("gop\(gop)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try runTool([
                "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=40",
                "-c:v", "libx264", "-preset", "veryfast", "-g", "\(gop)", "-keyint_min", "\(gop)", "-sc_threshold", "0",
                "-bf", "2", "-pix_fmt", "yuv420p", folder.appendingPathComponent("gop\(gop).mp4").path
            ])
            let server = try HTTPServer(directory: folder.path, byteRanges: true)
            servers.append(server)
            urls.append("http://127.0.0.1:\(server.port)/gop\(gop).mp4")
        }
        return Encodes(servers: servers, urls: urls, directory: directory)
    }

    @Test(
        "one bench A B run: bytes within 5% of each server's, the modeled network by its formula, GOP 250 dearer, both drawn",
        .timeLimit(.minutes(5)))
    func sideBySideOverHTTP() throws {
        let encodes = try Self.makeEncodes()
        defer {
            encodes.servers.forEach { $0.stop() }
            try? FileManager.default.removeItem(at: encodes.directory)
        }
        let report = encodes.directory.appendingPathComponent("cost.html").path
        let run = frameseek(["bench"] + encodes.urls + ["--network", "50ms,20mbit", "--report", report, "--json", "-n", "16"])
        #expect(run.code == .success, "\(run.stderr.text)")
        let rows = run.out.compactMap(JSON.object)
        try #require(rows.count == 2, "one row per file and workload: \(run.out)")
        for (row, server) in zip(rows, encodes.servers) {
            let file = row["file"] as? String ?? "?"
            let samples = try #require(row["samples"] as? [[String: Any]])
            #expect(samples.count == 16)
            // Counted, not estimated: the open and every seek, against what the server sent.
            let seekBytes = samples.compactMap { JSON.int64($0["bytes_read"]) }.reduce(0, +)
            let seekRequests = samples.compactMap { JSON.int64($0["requests"]) }.reduce(0, +)
            let counted = try #require(JSON.int64(row["open_bytes_read"])) + seekBytes
            let sent = try server.sent()
            #expect(
                abs(Double(counted - sent.bytes)) <= 0.05 * Double(sent.bytes),
                "\(file): counted \(counted) bytes, the server sent \(sent.bytes)")
            #expect(try #require(JSON.int64(row["open_requests"])) + seekRequests == Int64(sent.requests), "\(file): requests")
            // The model, seek by seek: requests x 50 ms + bytes x 8 / 20 Mbit/s, and the seek's
            // modeled time its latency plus that.
            #expect((row["network"] as? [String: Any])?["modeled"] as? Bool == true)
            var modeledTotal = 0.0
            for sample in samples {
                let requests = try #require(JSON.double(sample["requests"])), bytes = try #require(JSON.double(sample["bytes_read"]))
                let modeled = try #require(JSON.double(sample["modeled_network_ms"]))
                #expect(abs(modeled - (requests * 50 + bytes * 8 / 20e6 * 1000)) < 1e-6, "\(file): \(sample)")
                let latency = try #require(JSON.double(sample["latency_ms"]))
                #expect(abs(try #require(JSON.double(sample["modeled_seek_ms"])) - (latency + modeled)) < 1e-6)
                modeledTotal += modeled
                // Every frame from the keyframe to the landed one was demuxed, and either
                // decoded or skipped, unless the cache or a parked decoder served the seek.
                let frame = try #require(JSON.int64(sample["frame_index"]))
                let keyframe = try #require(JSON.int64(sample["key_frame_index"]))
                let decoded = try #require(JSON.int64(sample["frames_decoded"])),
                    skipped = try #require(JSON.int64(sample["frames_skipped"]))
                let demuxed = try #require(JSON.int64(sample["frames_demuxed"]))
                #expect(decoded + skipped <= demuxed, "\(file): \(sample)")
                if sample["served_from_cache"] as? Bool == false {
                    #expect(
                        decoded + skipped >= frame - keyframe + 1, "\(file): every frame from the keyframe is decoded or skipped: \(sample)"
                    )
                }
                #expect(try #require(JSON.double(sample["decode_ms"])) <= latency)
            }
            #expect(abs(try #require(JSON.double(row["modeled_network_ms"])) - modeledTotal) < 1e-6)
        }
        // Dearer by the work, which does not depend on the machine's load (the latencies do):
        // the same targets decode more frames from GOP 250's keyframes.
        let decoded = rows.map { row in
            ((row["samples"] as? [[String: Any]]) ?? []).compactMap { JSON.int64($0["frames_decoded"]) }.reduce(0, +)
        }
        #expect(decoded.count == 2 && decoded[1] > 2 * decoded[0], "GOP 250 decodes more than GOP 25: \(decoded) frames")
        let verdict = try #require(run.err.first { $0.contains("gop250.mp4's random seeks cost") })
        #expect(verdict.contains("gop25.mp4's at p95") && verdict.contains("modeled over 50 ms / 20 Mbit/s"), "\(verdict)")
        // The bytes' ratio, from the rows' own samples: at the median where both read at the
        // median, else on average.
        let bytes = rows.map { row in
            ((row["samples"] as? [[String: Any]]) ?? []).compactMap { JSON.int64($0["bytes_read"]) }.map(Double.init)
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        try #require(bytes.count == 2 && bytes.allSatisfy { !$0.isEmpty })
        let (medianA, medianB) = (median(bytes[0]), median(bytes[1]))
        let expected =
            medianA > 0 && medianB > 0
            ? "reading \(String(format: "%.2f", medianB / medianA))x the bytes at the median"
            : "reading \(String(format: "%.2f", (bytes[1].reduce(0, +) / Double(bytes[1].count)) / (bytes[0].reduce(0, +) / Double(bytes[0].count))))x the bytes on average"
        #expect(verdict.contains(expected), "\(verdict), expected \(expected)")

        let html = try String(contentsOfFile: report, encoding: .utf8)
        for name in ["gop25.mp4", "gop250.mp4"] { #expect(html.contains("encode") && html.contains(name)) }
        #expect(html.contains("modeled"))
        try Self.render(report, encodes: 2)
    }

    @Test("bench takes several files: a second file that is missing fails with one line naming it, exit 2")
    func missingSecondFile() throws {
        let good = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")).path
        CLIErrorTests.checkFails(
            FailingInvocation(
                label: "bench A missing", arguments: ["bench", good, "/nonexistent/b.mp4", "-n", "2"],
                mustContain: ["/nonexistent/b.mp4", "no such file"]))
    }

    /// Headless Chromium's DOM and picture of the report: both encodes' points, in their colours.
    static func render(_ report: String, encodes: Int) throws {
        guard let chromium = chromiumPath else { return }
        let profile = URL(fileURLWithPath: report).deletingLastPathComponent().appendingPathComponent("profile").path
        let browser = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile)",
            "--window-size=1200,1600"
        ]
        let dom = try runTool(browser + ["--dump-dom", "file://\(report)"])
        for color in BenchReport.encodeColors.prefix(encodes) {
            #expect(dom.contains("class=\"encode-point\"") && dom.contains("fill=\"\(color)\""), "points in \(color)")
        }
        let shot = URL(fileURLWithPath: report).deletingLastPathComponent().appendingPathComponent("cost.png").path
        try runTool(browser + ["--screenshot=\(shot)", "file://\(report)"])
        let image = try readPNG(shot)
        // Each colour's (r, g, b) from its "#rrggbb", read once: the loop below visits two
        // million pixels, and in a debug build (more so a sanitized one) parsing there took
        // most of this suite's time.
        let colors = BenchReport.encodeColors.prefix(encodes).map { color in
            let hex = Array(color.dropFirst())
            return stride(from: 0, to: 6, by: 2).map { Int(String(hex[$0..<$0 + 2]), radix: 16)! }
        }
        var found = [Int](repeating: 0, count: encodes)
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
            for (index, want) in colors.enumerated()
            where abs(r - want[0]) < 24 && abs(g - want[1]) < 24 && abs(b - want[2]) < 24 {
                found[index] += 1
            }
        }
        #expect(found.allSatisfy { $0 > 200 }, "each encode's colour drawn: \(found) pixels")
    }
}

@Suite("Network model", .ffmpegLog)
struct NetworkModelTests {
    @Test(
        "RTT,BANDWIDTH and the named links parse; requests x RTT + bytes x 8 / bandwidth",
        arguments: [
            ("50ms,20mbit", 50.0, 20e6), ("0.05s,20Mbit/s", 50, 20e6), ("10ms, 512kbit", 10, 512e3),
            ("4g", 50, 20e6), ("3G", 300, 1.6e6), ("1ms,1gbps", 1, 1e9)
        ])
    func parses(text: String, roundTrip: Double, bits: Double) throws {
        let model = try NetworkModel(parsing: text)
        #expect(model.roundTripMilliseconds == roundTrip && model.bitsPerSecond == bits)
        // 3 requests and 1 MB: three round trips plus the megabyte's transfer.
        #expect(abs(model.milliseconds(requests: 3, bytes: 1_000_000) - (3 * roundTrip + 8e6 / bits * 1000)) < 1e-9)
        #expect(model.milliseconds(of: MediaReads(bytes: 10, requests: nil)) == nil, "a local file makes no requests to model")
    }

    @Test(
        "malformed networks are usage errors",
        arguments: [
            "50,20", "50ms", "-1ms,1mbit", "50ms,0mbit", "fast", "50ms,20mb", "",
            // Past the limits: a round trip over 600 s, a bandwidth outside 1 kbit/s...1000 gbit/s.
            "1e19ms,1mbit", "1e306s,1mbit", "600001ms,1mbit", "50ms,1e16gbit", "50ms,1001gbit", "50ms,0.999kbit",
            "50ms,1e-300kbit"
        ])
    func refuses(text: String) {
        #expect(throws: UsageError.self) { try NetworkModel(parsing: text) }
    }

    @Test(
        "the limits themselves parse and describe themselves in whole numbers",
        arguments: [
            ("600s,1kbit", "600000 ms / 1 kbit/s"), ("0ms,1000gbit", "0 ms / 1000000 Mbit/s")
        ])
    func limits(text: String, description: String) throws {
        #expect(try NetworkModel(parsing: text).description == description)
    }

    @Test("a model beyond an Int of milliseconds still describes itself (no trap)")
    func describesAnyModel() {
        let model = NetworkModel(roundTripMilliseconds: 1e20, bitsPerSecond: 1e30)
        #expect(model.description == "1e+20 ms / 1e+24 Mbit/s")
    }

    @Test("bench --network past a limit is one line and exit 2, before anything is measured")
    func benchRefusesBeforeMeasuring() throws {
        let clip = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0")).path
        for network in ["1e19ms,1mbit", "1e16gbit", "50ms,1e16gbit", "1e306s,1mbit"] {
            let run = frameseek(["bench", clip, "-n", "100000", "--network", network, "--json"])
            #expect(run.code == .usageOrInput && run.err.count == 1 && run.out.isEmpty, "\(network): \(run.stderr.text)")
            #expect(run.err.first?.contains("--network") == true)
        }
    }
}
