// `frameseek bench`: the JSON contract, landings checked against ffprobe, and the report.
// Every workload runs with `--floor`, the same landings decoded by a bare libavcodec loop that
// stops only on the landed frame's PTS: a landing whose PTS the decoder never gives back fails
// the run, so every video fixture (open GOPs, B-pyramids, edit lists, VFR, MPEG-TS offsets)
// must come through it, for the seeking and the stepping workloads alike. One run serves both
// checks: on the phone clips the bench's decoding is most of what the suite costs.

import Foundation
import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Command-line bench", .ffmpegLog)
struct CLIBenchTests {
    static let fields = ["workload", "n", "open_ms", "median_ms", "p95_ms", "mean_ms", "max_ms", "samples"]
    static let sampleFields = ["target", "latency_ms", "frame_index", "frames_decoded", "key_frame_index"]

    @Test(
        "bench --json --floor: every workload on every video fixture, with the contract's fields; the floor finds every landed frame in the bare loop",
        arguments: FixtureCatalog.video)
    func everyWorkload(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let lines = jsonLines([
            "bench", fixture.path, "--stream", String(fixture.stream), "--workload", "all",
            "-n", "8", "--floor", "--json"
        ])
        #expect(
            lines.map { $0["workload"] as? String } == ["random", "scrub", "backstep", "sequential", "thumbnails", "sample", "open", "long"]
        )
        for object in lines {
            let workload = object["workload"] as? String ?? "?"
            for field in Self.fields { #expect(object[field] != nil, "\(fixture.id) \(workload): no \(field)") }
            let samples = object["samples"] as? [[String: Any]] ?? []
            #expect(JSON.int(object["n"]) == samples.count)
            #expect(!samples.isEmpty, "\(fixture.id) \(workload): no samples")
            for sample in samples {
                for field in Self.sampleFields { #expect(sample.keys.contains(field), "\(fixture.id) \(workload): sample lacks \(field)") }
                let index = try #require(JSON.int(sample["frame_index"]))
                #expect(oracle.frames.indices.contains(index))
            }
            let latencies = samples.compactMap { ($0["latency_ms"] as? NSNumber)?.doubleValue }.sorted()
            let median = (object["median_ms"] as? NSNumber)?.doubleValue ?? -1
            #expect(latencies.first! <= median && median <= latencies.last!, "\(fixture.id) \(workload): median outside the samples")
            try checkFloor(object, samples: samples, median: median, context: "\(fixture.id) \(workload)")
            if workload == "sequential" {
                #expect(samples.compactMap { JSON.int($0["frame_index"]) } == Array(0..<min(8, oracle.count)))
            }
            if workload == "sample" {
                // Eight frames spread as peers.py spreads them, worked out from ffprobe's table.
                let ptsInOrder = oracle.frames.map(\.pts).sorted()
                let span = ptsInOrder.last! - ptsInOrder[0]
                let expected = (0..<8).map { CLISampleTests.covering(oracle, pts: ptsInOrder[0] + span * Int64(2 * $0 + 1) / 16) }
                #expect(samples.compactMap { JSON.int($0["frame_index"]) } == expected, "\(fixture.id): sample")
            }
            if workload == "long" {
                // Each a new open, then an exact seek: the frame ffprobe says covers its target.
                for sample in samples {
                    let target = try #require(JSON.double(sample["target"]))
                    let landed = try #require(JSON.int(sample["frame_index"]))
                    #expect(
                        oracle.seconds(landed) <= target + 1e-9 && (landed == oracle.lastIndex || target < oracle.seconds(landed + 1)),
                        "\(fixture.id): long landed frame \(landed) for \(target) s")
                }
            }
            if workload == "backstep" {
                let visited = samples.compactMap { JSON.int($0["frame_index"]) }
                #expect(zip(visited, visited.dropFirst()).allSatisfy { $1 == $0 - 1 }, "\(fixture.id): backstep visits \(visited)")
            }
        }
    }

    /// A landing workload's floor timed every landing; open, long and thumbnails have none (each
    /// sample there is an open, or a picture that is not a landing).
    private func checkFloor(_ object: [String: Any], samples: [[String: Any]], median: Double, context: String) throws {
        guard !["open", "long", "thumbnails"].contains(object["workload"] as? String) else {
            #expect(object["floor"] == nil, "\(context): no landing to floor")
            return
        }
        let floor = try #require(object["floor"] as? [String: Any], "\(context): no floor")
        #expect(JSON.int(floor["n"]) == samples.count, "\(context): the floor timed every landing")
        let floorMedian = try #require((floor["median_ms"] as? NSNumber)?.doubleValue)
        #expect(floorMedian > 0)
        if let overhead = (floor["overhead"] as? NSNumber)?.doubleValue {
            #expect(abs(overhead - (median / floorMedian - 1)) < 1e-9)
        }
    }

    @Test("bench on audio-only media: seeks and walks by seeking, no thumbnails", arguments: FixtureCatalog.audio)
    func audioOnly(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        let lines = jsonLines(["bench", fixture.path, "--workload", "all", "-n", "6", "--json"])
        #expect(lines.count == 8)
        for object in lines {
            let samples = object["samples"] as? [[String: Any]] ?? []
            let workload = object["workload"] as? String
            if workload == "thumbnails" { #expect(samples.isEmpty, "audio has no pictures") } else { #expect(!samples.isEmpty) }
            for sample in samples { #expect(oracle.frames.indices.contains(JSON.int(sample["frame_index"]) ?? -1)) }
        }
    }

    @Test("bench --targets lands each target on the frame ffprobe says covers it", arguments: FixtureCatalog.video)
    func targetsLandRight(_ fixture: Fixture) throws {
        let oracle = try Oracle(fixture)
        var generator = SeededGenerator(fixture.id)
        let chosen = oracle.seekSample(minimum: 12, using: &generator).shuffled(using: &generator)
        let directory = try temporaryDirectory("bench")
        let targets = directory.appendingPathComponent("targets.txt").path
        try (chosen.map { oracle.middleText($0) }.joined(separator: "\n") + "\n").write(toFile: targets, atomically: true, encoding: .utf8)
        let object = try #require(
            jsonLines(["bench", fixture.path, "--stream", String(fixture.stream), "--targets", targets, "--json"]).first)
        let landed = (object["samples"] as? [[String: Any]] ?? []).compactMap { JSON.int($0["frame_index"]) }
        #expect(landed == chosen, "\(fixture.id): landed \(landed), expected \(chosen)")
    }

    @Test("--report writes one self-contained HTML file with a chart per workload and no scripts")
    func report() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try temporaryDirectory("report")
        let path = directory.appendingPathComponent("bench.html").path
        let result = frameseek(["bench", fixture.path, "--workload", "random,scrub,backstep", "-n", "6", "--report", path])
        #expect(result.code == .success, "\(result.stderr.text)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.components(separatedBy: "<svg").count - 1 == 6, "two charts per workload")
        #expect(!html.lowercased().contains("<script"))
        // The only URL is the SVG namespace: nothing is fetched.
        let urls = html.components(separatedBy: "http").count - 1
        #expect(urls == html.components(separatedBy: "http://www.w3.org/2000/svg").count - 1)
        for workload in ["random", "scrub", "backstep"] { #expect(html.contains("<h2>\(workload)")) }
    }

    @Test(
        "bench usage errors exit 2 with one line",
        arguments: [
            ["bench"], ["bench", "x.mp4", "--workload", "bogus"], ["bench", "/no/such.mp4"], ["bench", "y.mp4", "-n", "0"]
        ])
    func usageErrors(_ arguments: [String]) {
        let result = frameseek(arguments)
        #expect(result.code == .usageOrInput)
        #expect(result.err.count == 1, "\(result.stderr.text)")
        #expect(result.stdout.text.isEmpty)
    }
}
