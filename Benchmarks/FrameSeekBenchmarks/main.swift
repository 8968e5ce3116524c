// frameseek-benchmarks: what seeks and frame steps cost, measured side by side in one run.
// Prints medians; ratios, not absolute times, are what to compare.
//
//   frameseek-benchmarks steps FILE [-n STARTS] [--steps K] [--seed S]
//       backward steps vs forward steps vs exact seeks to the previous frame
//   frameseek-benchmarks suite [FILE ...] [--out results.json]
//       every `frameseek bench` workload over the video fixtures and the files given
//   frameseek-benchmarks thumbnails FILE [--runs R] [--full-decode] [--before OTHER_FRAMESEEK]
//       a 160x90 PNG every 10 s: the whole `frameseek thumbnails` process (5x4 sheets) against
//       `ffmpeg -skip_frame nokey -i F -vf fps=1/10,scale=160:90 -fps_mode vfr out%03d.png`
//   frameseek-benchmarks long FILE... [--at TIME] [--runs R] [--before OTHER_FRAMESEEK] [--http]
//       one exact seek (`frameseek seek F T --md5`) against `ffmpeg -threads 1 -ss T -i F
//       -frames:v 1 -f framemd5 -`, and the open alone, whole processes, with peak RSS; with
//       --http, the seek and a thumbnail every 10 s over each file's URL from a loopback range
//       server, with the bytes and requests it sent
//   frameseek-benchmarks png FILE [--at TIME] [--runs R] [--levels 0,1,2,3,6,9]
//       PNG encode time of one landed frame: libpng per zlib level and row filter against
//       FFmpeg's PNG encoder, with file sizes and a pixel check through the ffmpeg CLI
import FrameSeek
import FrameSeekCLI
import Foundation
#if canImport(Glibc)
import Glibc
#endif


func fail(_ message: String) -> Never {
    let text = Array("frameseek-benchmarks: \(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func middle(_ frame: FrameEntry) -> MediaTime {
    frame.time + MediaTime(value: frame.duration.value, timescale: frame.duration.timescale &* 2)
}

/// Backward steps, forward steps, and exact seeks to the previous frame, from the same
/// random starting frames.
func stepsBenchmark(path: String, starts: Int, steps: Int, seed: UInt64) throws {
    let stepping = try FFmpegEngine(path: path)
    let uncached = try FFmpegEngine(path: path, options: .init(cacheBytes: 0))
    let frames = stepping.frameTable.frames
    guard frames.count > steps + 1 else { fail("\(path): too few frames") }
    var generator = SeededGenerator(seed: seed)
    var backward = LatencySamples(), forward = LatencySamples(), seekPrevious = LatencySamples(), firstBackward = LatencySamples()
    for _ in 0..<starts {
        let start = Int.random(in: (steps + 1)..<(frames.count - steps - 1), using: &generator)
        _ = try stepping.seek(to: middle(frames[start]), precision: .exact)
        for k in 0..<steps {
            let report = stepping.step(.backward, count: 1)
            guard report.frame?.index == start - k - 1 else { fail("backward step landed on \(report.frame?.index ?? -1)") }
            if k == 0 { firstBackward.add(report.latency) }
            backward.add(report.latency)
        }
        _ = try stepping.seek(to: middle(frames[start]), precision: .exact)
        for k in 0..<steps {
            let report = stepping.step(.forward, count: 1)
            guard report.frame?.index == start + k + 1 else { fail("forward step landed on \(report.frame?.index ?? -1)") }
            forward.add(report.latency)
        }
        // What stepping back costs without a cache: an exact seek to the previous frame.
        _ = try uncached.seek(to: middle(frames[start]), precision: .exact)
        for k in 0..<min(steps, 5) {
            let landing = try uncached.seek(to: middle(frames[start - k - 1]), precision: .exact)
            seekPrevious.add(landing.latency)
        }
    }
    func row(_ name: String, _ s: LatencySamples) -> String {
        "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(fmt(s.median)) \(fmt(s.p95)) \(fmt(s.mean))  (n=\(s.count))"
    }
    print("file: \(path)")
    print("frames \(frames.count), keyframes \(stepping.frameTable.statistics.keyframeCount), starts \(starts), steps per start \(steps), seed \(seed)")
    print("workload                            median_ms    p95_ms   mean_ms")
    print(row("backward step (cached engine)", backward))
    print(row("  of which the first after a seek", firstBackward))
    print(row("forward step", forward))
    print(row("exact seek to the previous frame", seekPrevious))
    print("backward/forward median ratio: \(fmt(backward.median / forward.median))")
    print("backward/seek-previous median ratio: \(fmt(backward.median / seekPrevious.median)) (1/\(fmt(seekPrevious.median / backward.median)))")
    print("backward/seek-previous mean ratio: \(fmt(backward.mean / seekPrevious.mean)) (1/\(fmt(seekPrevious.mean / backward.mean)))")
    print("frame cache peak: \(stepping.cachePeakBytes / (1024 * 1024)) MiB of \(FFmpegEngine.Options.defaultCacheBytes / (1024 * 1024)) MiB")
}

func fmt(_ x: Double) -> String {
    guard x.isFinite else { return "      nan" }
    let text = String(Int((x * 1000).rounded()))
    let padded = String(repeating: "0", count: max(0, 4 - text.count)) + text
    let s = padded.dropLast(3) + "." + padded.suffix(3)
    return String(repeating: " ", count: max(0, 9 - s.count)) + s
}

/// Every workload over the video fixtures and `files`, one JSON object per (file, workload).
func suite(files: [String], out: String?) throws {
    let manifest = URL(fileURLWithPath: "Fixtures/fixtures.json")
    var paths: [String] = []
    if let data = try? Data(contentsOf: manifest),
       let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] {
        for entry in entries where entry["media_type"] as? String == "video" {
            if let file = entry["file"] as? String, !paths.contains("Fixtures/" + file) { paths.append("Fixtures/" + file) }
        }
    }
    paths += files
    var lines: [String] = []
    for path in paths {
        for workload in BenchWorkload.allCases {
            let result = try BenchRunner().run(workload, file: path, stream: nil, count: nil, seed: 1,
                                               targets: nil, precision: nil)
            let line = BenchJSON.object(result).serialized
            lines.append(line)
            print("\(path) \(workload.rawValue): median \(fmt(result.median)) ms, p95 \(fmt(result.p95)) ms, n \(result.samples.count)")
        }
    }
    if let out { try (lines.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8) }
}

/// Runs a command, returning its wall time and the CPU time (user and system, all threads)
/// it used, or nil if it failed.
func timeCommand(_ arguments: [String]) -> (wall: Duration, cpu: Duration)? {
    func childrenCPU() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let micros = Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return .microseconds(micros)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let cpuBefore = childrenCPU()
    let start = ContinuousClock.now
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    let wall = ContinuousClock.now - start
    return process.terminationStatus == 0 ? (wall, childrenCPU() - cpuBefore) : nil
}

func freshDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "frameseek-thumbs-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The `frameseek` executable built beside this one (`swift build -c release --product frameseek`).
func frameseekExecutable() -> String {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("frameseek").path
    guard FileManager.default.isExecutableFile(atPath: path) else { fail("\(path) is missing: swift build -c release --product frameseek") }
    return path
}

/// A 160x90 PNG every 10 s: the whole `frameseek thumbnails` process (5x4 sprite sheets, the
/// WebVTT track and the storyboard) on two decoders and on one, against ffmpeg's keyframe-only
/// command writing one PNG per picture, and with `fullDecode` against ffmpeg decoding every
/// frame. Each round runs every way once, in turn; medians of `runs` rounds.
/// With `before`, another `frameseek` build (an older commit) runs the same command too.
func thumbnailsBenchmark(path: String, runs: Int, fullDecode: Bool, before: String?) {
    let frameseek = frameseekExecutable()
    let directory = freshDirectory("out")
    let ours = [frameseek, "thumbnails", path, "--out", directory, "--every", "10", "--size", "160x90", "--columns", "5", "--rows", "4"]
    let ffmpeg = ["ffmpeg", "-v", "error", "-skip_frame", "nokey", "-i", path, "-vf", "fps=1/10,scale=160:90", "-fps_mode", "vfr",
                  directory + "/out%03d.png"]
    var ways: [(name: String, command: [String])] = [
        ("frameseek thumbnails F --every 10 --size 160x90 --columns 5 --rows 4 (2 decoders)", ours + ["--decoders", "2"]),
        ("frameseek thumbnails ... --decoders 1", ours + ["--decoders", "1"]),
        ("ffmpeg -skip_frame nokey -i F -vf fps=1/10,scale=160:90 -fps_mode vfr out%03d.png", ffmpeg),
    ]
    if let before {
        ways.append(("the same with \(before) (before)", [before] + ours.dropFirst()))
    }
    if fullDecode {
        ways.append(("ffmpeg -i F -vf fps=1/10,scale=160:90 -fps_mode vfr out%03d.png (every frame)",
                     ffmpeg.filter { $0 != "-skip_frame" && $0 != "nokey" }))
    }
    var walls = [LatencySamples](repeating: LatencySamples(), count: ways.count), cpus = walls
    for _ in 0..<runs {
        for (i, way) in ways.enumerated() {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            guard let time = timeCommand(way.command) else { fail("failed: \(way.command.joined(separator: " "))") }
            walls[i].add(time.wall)
            cpus[i].add(time.cpu)
        }
    }
    try? FileManager.default.removeItem(atPath: directory)
    let reference = walls[2].median
    print("file: \(path)")
    print("one 160x90 picture every 10 s; wall and CPU time of the whole process; medians of \(runs) rounds, the ways in turn in each round")
    print("wall_ms  / ffmpeg nokey    cpu_ms  way")
    for (i, way) in ways.enumerated() {
        print("\(fmt(walls[i].median))  \(fmt(walls[i].median / reference))  \(fmt(cpus[i].median))  \(way.name)")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ fallback: Int, in arguments: [String] = arguments) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
    return v
}
if arguments.first == "thumbnails", arguments.count >= 2 {
    let before = arguments.firstIndex(of: "--before").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    thumbnailsBenchmark(path: arguments[1], runs: option("--runs", 3), fullDecode: arguments.contains("--full-decode"), before: before)
    exit(0)
}
if arguments.first == "long", arguments.count >= 2 {
    let value = { (name: String) in arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } }
    var files: [String] = []
    var rest = arguments.dropFirst()
    while let word = rest.popFirst() {
        if ["--at", "--runs", "--before"].contains(word) { _ = rest.popFirst() } else if word != "--http" { files.append(word) }
    }
    if arguments.contains("--http") {
        remoteFileBenchmark(files: files, at: value("--at") ?? "3600.48", runs: option("--runs", 3))
    } else {
        longFileBenchmark(files: files, at: value("--at") ?? "3600.48", runs: option("--runs", 3), before: value("--before"))
    }
    exit(0)
}
if arguments.first == "png", arguments.count >= 2 {
    let at = arguments.firstIndex(of: "--at").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "0"
    let levels = arguments.firstIndex(of: "--levels").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "0,1,2,3,6,9"
    do {
        try pngBenchmark(path: arguments[1], at: try MediaTime(parsing: at), runs: option("--runs", 3),
                         levels: levels.split(separator: ",").compactMap { Int($0) })
    } catch {
        fail("\(error)")
    }
    exit(0)
}
let usage = """
    usage: frameseek-benchmarks steps FILE [-n STARTS] [--steps K] [--seed S]
           frameseek-benchmarks suite [FILE ...] [--out results.json]
           frameseek-benchmarks thumbnails FILE [--runs R] [--full-decode] [--before OTHER_FRAMESEEK]
           frameseek-benchmarks long FILE... [--at TIME] [--runs R] [--before OTHER_FRAMESEEK] [--http]
           frameseek-benchmarks png FILE [--at TIME] [--runs R] [--levels 0,1,2,3,6,9]
    """
if arguments.first == "suite" {
    var files: [String] = []
    var out: String?
    var rest = arguments.dropFirst()
    while let word = rest.popFirst() {
        if word == "--out" { out = rest.popFirst() } else { files.append(word) }
    }
    do { try suite(files: files, out: out) } catch { fail("\(error)") }
    exit(0)
}
guard arguments.count >= 2, arguments[0] == "steps" else { fail(usage) }
let file = arguments[1]
do {
    try stepsBenchmark(path: file, starts: option("-n", 10), steps: option("--steps", 30), seed: UInt64(option("--seed", 1)))
} catch {
    fail("\(error)")
}
