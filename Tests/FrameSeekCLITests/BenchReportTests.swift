// `frameseek bench` reports what it ran with and draws what it measured: the settings in the
// JSON checked against ffprobe, `ffmpeg -version` and /proc/cpuinfo; the report's axes, point
// tooltips, empty workloads, and the peers chart checked against the JSON they came from.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Bench settings and report", .ffmpegLog)
struct BenchReportTests {
    static let fixtureID = "h264_bframes_gop250.s0"

    /// ffmpeg's own statement of a linked library's version, `59.37.100` from
    /// "libavcodec     59. 37.100 / 59. 37.100".
    static func ffmpegLibraryVersion(_ name: String) throws -> String? {
        let line = try runTool(["ffmpeg", "-hide_banner", "-version"]).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.map { $0.split(separator: "/").last!.replacingOccurrences(of: " ", with: "") }
    }

    @Test("bench --json: a settings object with the stream as ffprobe sees it, the run's n, seed, threads, cache, libraries, CPU and date")
    func settingsInJSON() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.fixtureID))
        let oracle = try Oracle(fixture)
        let before = Date()
        let lines = jsonLines([
            "bench", fixture.path, "--workload", "random,sequential", "-n", "5", "--seed", "3",
            "--threads", "1", "--cache-mb", "64", "--json"
        ])
        let after = Date()
        #expect(lines.count == 2)
        let codec = try runTool([
            "ffprobe", "-v", "error", "-select_streams", String(fixture.stream), "-show_entries",
            "stream=codec_name", "-of", "csv=p=0", fixture.path
        ]).trimmingCharacters(in: .whitespacesAndNewlines)
        let keyframes = oracle.keyframes
        let gaps = zip(keyframes, keyframes.dropFirst()).map { $1 - $0 }.sorted()
        let cpu = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("model name") }.map { $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) }
        for object in lines {
            // The contract's fields are still there, and the new ones are added beside them.
            for field in CLIBenchTests.fields + ["threads", "precision", "peak_rss_mb"] { #expect(object[field] != nil, "no \(field)") }
            let poolPeak = try #require(JSON.double(object["pool_peak_mb"])), poolBound = try #require(JSON.double(object["pool_bound_mb"]))
            #expect(poolPeak > 0 && poolPeak <= poolBound, "the pool's peak \(poolPeak) MB within its bound \(poolBound) MB")
            let settings = try #require(object["settings"] as? [String: Any])
            #expect(settings["codec"] as? String == codec)
            #expect(JSON.int(settings["width"]) == oracle.frames[0].width && JSON.int(settings["height"]) == oracle.frames[0].height)
            #expect(JSON.int(settings["frame_count"]) == oracle.count)
            if !gaps.isEmpty { #expect(JSON.int(settings["gop_median_frames"]) == gaps[gaps.count / 2]) }
            #expect(JSON.int(settings["requested_n"]) == 5 && JSON.int(settings["seed"]) == 3)
            #expect(JSON.int(settings["threads"]) == 1 && JSON.double(settings["cache_mb"]) == 64)
            #expect(settings["file"] as? String == fixture.path)
            let libraries = try #require(settings["ffmpeg_libraries"] as? [String: String])
            for name in ["libavcodec", "libavformat", "libavutil", "libswscale"] {
                let stated = try Self.ffmpegLibraryVersion(name)
                #expect(libraries[name] != nil && libraries[name] == stated, "\(name): \(libraries), ffmpeg says \(stated ?? "-")")
            }
            #expect(settings["cpu_model"] as? String == cpu)
            let dateText = try #require(settings["date"] as? String)
            #expect(dateText.hasSuffix("Z"), "UTC: \(dateText)")
            let date = try #require(ISO8601DateFormatter().date(from: dateText))
            #expect(date >= before.addingTimeInterval(-1) && date <= after.addingTimeInterval(1))
        }
        let text = frameseek(["bench", fixture.path, "--workload", "random", "-n", "2", "--threads", "1"])
        #expect(text.out.first?.contains("threads 1") == true, "\(text.stdout.text)")
    }

    @Test("the report: settings, ffmpeg's fps beside ours, round ticks, whole frame ticks, a tooltip per point")
    func reportMatchesJSON() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.fixtureID))
        let directory = try temporaryDirectory("report-axes")
        let path = directory.appendingPathComponent("bench.html").path
        let lines = jsonLines([
            "bench", fixture.path, "--workload", "random,backstep,sequential", "-n", "12", "--seed", "5",
            "--json", "--report", path
        ])
        let page = try ReportPage(path: path)
        let settings = try #require(lines.first?["settings"] as? [String: Any])
        for shown in [
            "h264", "seed", "5", "1 decoder thread", "192 MB", settings["date"] as? String ?? "?",
            (settings["ffmpeg_libraries"] as? [String: String])?["libavcodec"] ?? "?"
        ] {
            #expect(page.html.contains(shown), "the report does not show \(shown)")
        }
        #expect(page.html.contains("<th>GOP</th><td>250 frames"))
        let sequential = try #require(lines.first { $0["workload"] as? String == "sequential" })
        if let ffmpeg = JSON.double(sequential["ffmpeg_fps"]) {
            #expect(page.html.contains(String(format: "ffmpeg %.1f", ffmpeg)), "ffmpeg's fps beside ours")
        }

        let scatters = page.charts("scatter"), histograms = page.charts("histogram")
        #expect(scatters.count == 3 && histograms.count == 3)
        for chart in scatters + histograms {
            for axis in ["x", "y"] {
                let ticks = tickValues(chart, axis: axis)
                #expect(ticks.count >= 2 && ticks.first == 0, "\(axis) ticks \(ticks)")
                let steps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
                #expect(steps.allSatisfy { abs($0 - steps[0]) < steps[0] * 1e-6 }, "evenly spaced: \(ticks)")
                #expect(BenchAxisTests.isRound(steps[0]), "a round step: \(ticks)")
            }
        }
        // Frame distances and operation counts are whole: never a 12.5 frames tick.
        for chart in scatters { #expect(tickValues(chart, axis: "x").allSatisfy { $0 == $0.rounded() }) }
        for chart in histograms { #expect(tickValues(chart, axis: "y").allSatisfy { $0 == $0.rounded() }) }

        for (object, chart) in zip(lines, scatters) {
            let samples = object["samples"] as? [[String: Any]] ?? []
            let titles = captures("<circle [^>]*><title>([^<]*)</title></circle>", in: chart)
            #expect(titles.count == samples.count, "one point per operation")
            for (title, sample) in zip(titles, samples) {
                let frame = JSON.int(sample["frame_index"]) ?? -1, decoded = JSON.int(sample["frames_decoded"]) ?? -1
                // The title rounds the measured latency to 3 decimals, the JSON to 4: compared as
                // numbers, within both roundings (0.5165 in the JSON may be 0.517 in the title).
                let latency = JSON.double(sample["latency_ms"]) ?? -1
                let shown = captures("latency ([0-9.]+) ms", in: title).first.flatMap(Double.init)
                #expect(
                    title.hasPrefix("target ") && shown.map { abs($0 - latency) <= 0.00055 } == true
                        && title.contains("frame \(frame),") && title.contains("\(decoded) frame"), "\(title) for \(sample)")
            }
        }
    }

    @Test("a workload with n = 0 says there are no measurements: no chart, no NaN")
    func noMeasurements() throws {
        let fixture = try #require(FixtureCatalog.audio.first)
        let directory = try temporaryDirectory("report-empty")
        let path = directory.appendingPathComponent("bench.html").path
        let lines = jsonLines(["bench", fixture.path, "--workload", "thumbnails,random", "-n", "4", "--json", "--report", path])
        #expect(JSON.int(lines.first?["n"]) == 0)
        let page = try ReportPage(path: path)
        let empty = try #require(page.section("thumbnails"))
        #expect(empty.contains("No measurements") && !empty.contains("<svg"), "\(empty)")
        #expect(page.section("random")?.contains("<svg") == true)
        #expect(!page.html.contains("NaN") && !page.html.lowercased().contains(">nan<") && !page.html.contains("inf ms"))
        #expect(!page.html.lowercased().contains(">nan"))
    }

    @Test("the peers chart: one bar group per workload, one median bar per peer that has a value, values from the JSON")
    func peersChart() throws {
        let fixture = try #require(FixtureCatalog.fixture(Self.fixtureID))
        let directory = try temporaryDirectory("report-peers")
        let peers = try writeJSON(samplePeers, named: "peers.json", in: directory)
        let path = directory.appendingPathComponent("bench.html").path
        let result = frameseek(["bench", fixture.path, "--workload", "random", "-n", "3", "--peers", peers, "--report", path])
        #expect(result.code == .success, "\(result.stderr.text)")
        let page = try ReportPage(path: path)
        let chart = try #require(page.charts("peers").first)
        let groups = chart.components(separatedBy: "<g class=\"peer-group\"").dropFirst()
        #expect(groups.map { captures("^ data-workload=\"([^\"]*)\"", in: $0).first } == ["random", "scrub", "backstep"])
        let workloads = try #require(samplePeers["workloads"] as? [String: [String: [String: Any]]])
        for group in groups {
            let name = try #require(captures("^ data-workload=\"([^\"]*)\"", in: group).first)
            let expected = workloads[name]!.filter { $0.value["median_s"] is Double }
            let bars = captures("class=\"peer-bar median\" data-peer=\"([^\"]*)\"", in: group)
            #expect(Set(bars) == Set(expected.keys) && bars.count == expected.count, "\(name): \(bars)")
            #expect(bars.first == "frameseek", "FrameSeek first")
            let values = captures("class=\"peer-bar median\" data-peer=\"[^\"]*\" data-median-s=\"([^\"]*)\"", in: group).compactMap(
                Double.init)
            #expect(zip(bars, values).allSatisfy { expected[$0.0]?["median_s"] as? Double == $0.1 }, "\(name): \(values)")
            #expect(captures("class=\"peer-bar p95\" data-peer=\"([^\"]*)\"", in: group).count == expected.count)
        }
        #expect(page.html.contains("decord did not run on random: ModuleNotFoundError"))
        #expect(page.html.contains("pyav landed on the wrong frame for 8 of 20 random targets"))
        #expect(page.charts("scatter").count == 1, "FILE's own charts as well")
    }

    @Test("--peers without FILE draws only the peers chart")
    func peersAlone() throws {
        let directory = try temporaryDirectory("report-peers-alone")
        let peers = try writeJSON(samplePeers, named: "peers.json", in: directory)
        let path = directory.appendingPathComponent("peers.html").path
        let result = frameseek(["bench", "--peers", peers, "--report", path])
        #expect(result.code == .success && result.stdout.text.isEmpty, "\(result.stderr.text)")
        let page = try ReportPage(path: path)
        #expect(page.charts("peers").count == 1 && page.charts("scatter").isEmpty && page.charts("histogram").isEmpty)
        #expect(page.html.contains("<th>seed</th><td>7</td>"))
    }

    @Test(
        "a malformed peers file is refused before the run: one line naming the file and the cause, exit 2",
        arguments: [
            ("missing", nil), ("not JSON", "{ nope"), ("no workloads", #"{"file": "a.mp4"}"#),
            ("a string median", #"{"workloads": {"random": {"pyav": {"median_s": "fast"}}}}"#),
            ("a peer that is not an object", #"{"workloads": {"random": {"pyav": 3}}}"#),
            ("neither median nor errors", #"{"workloads": {"random": {"pyav": {"n": 20}}}}"#),
            // Beyond an Int of milliseconds on the chart's axis, and beyond a Double's range.
            ("a median of 1e17 s", #"{"workloads": {"random": {"x": {"median_s": 1e17}}}}"#),
            ("a p95 of 1e306 s", #"{"workloads": {"random": {"x": {"median_s": 1, "p95_s": 1e306}}}}"#),
            ("a median just over the limit", #"{"workloads": {"random": {"x": {"median_s": 1000000.5}}}}"#),
            ("a negative median", #"{"workloads": {"random": {"x": {"median_s": -1}}}}"#),
            ("an array", "[1, 2]")
        ] as [(String, String?)])
    func malformedPeers(_ label: String, _ contents: String?) throws {
        let directory = try temporaryDirectory("report-bad-peers")
        let peers = directory.appendingPathComponent("peers.json").path
        if let contents { try contents.write(toFile: peers, atomically: true, encoding: .utf8) }
        let report = directory.appendingPathComponent("out.html").path
        for arguments in [
            ["bench", "--peers", peers, "--report", report],
            ["bench", "/no/such/clip.mp4", "--peers", peers, "--report", report]
        ] {
            let result = frameseek(arguments)
            #expect(result.code == .usageOrInput, "\(label)")
            #expect(result.err.count == 1 && result.err.first?.contains(peers) == true, "\(label): \(result.stderr.text)")
            #expect(!FileManager.default.fileExists(atPath: report), "\(label): nothing written")
        }
    }

    @Test("the longest latency a peers file may give, 10^6 s, is drawn on an axis to 10^9 ms; a count past 2^53 is not shown")
    func largestPeerLatency() throws {
        let directory = try temporaryDirectory("report-peers-largest")
        let peers = directory.appendingPathComponent("peers.json").path
        try #"{"n": 1e300, "workloads": {"random": {"x": {"median_s": 0.001, "p95_s": 1000000}}}}"#
            .write(toFile: peers, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("peers.html").path
        let result = frameseek(["bench", "--peers", peers, "--report", path])
        #expect(result.code == .success, "\(result.stderr.text)")
        let page = try ReportPage(path: path)
        let chart = try #require(page.charts("peers").first)
        #expect(chart.contains(">1000000000<"), "the top tick is 10^9 ms, written in full")
        #expect(!page.html.contains("-9223372036854775808"), "n 1e300 is no count")
    }

    @Test("--peers needs --report; bench with neither FILE nor --peers is refused")
    func peersUsage() throws {
        let directory = try temporaryDirectory("report-peers-usage")
        let peers = try writeJSON(samplePeers, named: "peers.json", in: directory)
        for arguments in [["bench", "--peers", peers], ["bench", "--report", directory.appendingPathComponent("x.html").path]] {
            let result = frameseek(arguments)
            #expect(result.code == .usageOrInput && result.err.count == 1, "\(arguments): \(result.stderr.text)")
        }
    }
}
