// Long files: one exact seek and one open, each a whole process, beside ffmpeg's own.
import FrameSeek
import FrameSeekCLI
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What one process cost: its wall time, CPU time (user and system) and peak resident memory.
struct ProcessCost {
    let wall: Duration
    let cpu: Duration
    let peakKiB: Int
    let output: String
}

/// Runs `arguments` (found on PATH) to completion and measures it through `wait4`, which
/// reports that one child's own peak RSS (getrusage's RUSAGE_CHILDREN keeps the largest of all
/// children ever waited for). Nil when it cannot start or exits with a failure.
func measureProcess(_ arguments: [String]) -> ProcessCost? {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return nil }
    close(pipe[1])
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(pipe[0], &buffer, buffer.count)
        if count <= 0 { break }
        output.append(contentsOf: buffer[0..<count])
    }
    close(pipe[0])
    var status: Int32 = 0
    var usage = rusage()
    guard wait4(pid, &status, 0, &usage) == pid else { return nil }
    let wall = ContinuousClock.now - start
    // WIFEXITED and WEXITSTATUS, which Swift does not import.
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
    let cpu = Duration.microseconds(Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
                                    + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec))
    return ProcessCost(wall: wall, cpu: cpu, peakKiB: usage.ru_maxrss, output: String(decoding: output, as: UTF8.self))
}

/// The MD5 in the last framemd5 line of `output` (`0, pts, pts, duration, size, md5`), or the
/// `md5` field frameseek's `seek --md5` prints.
func landedMD5(in output: String) -> String? {
    for line in output.split(whereSeparator: \.isNewline).reversed() {
        if line.hasPrefix("#") { continue }
        if let range = line.range(of: #"md5[ =:"]+([0-9a-f]{32})"#, options: .regularExpression) {
            return String(line[range].suffix(32))
        }
        if let last = line.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), last.count == 32,
           last.allSatisfy(\.isHexDigit) { return last }
    }
    return nil
}

/// One exact seek to `at` on each file, as a whole process: `frameseek seek F T --md5` against
/// `ffmpeg -threads 1 -ss T -i F -frames:v 1 -f framemd5 -` (an accurate input seek on one
/// thread), and `before`'s frameseek when given; each file's open alone (`frameseek probe F`);
/// and the seek again from the index cache. Each round runs every command once, in turn;
/// medians of `runs`.
func longFileBenchmark(files: [String], at: String, runs: Int, before: String?) {
    let frameseek = frameseekExecutable()
    for path in files {
        let ffmpegAt = ffmpegSeekTime(frameseek: frameseek, path: path, at: at)
        // The cached way reads the entry `frameseek index` makes here, in a cache folder of
        // this run's own; the others read no cache, as a first open.
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("frameseek-long-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: cache) }
        setenv("XDG_CACHE_HOME", cache.path, 1)
        guard measureProcess([frameseek, "index", path]) != nil else { fail("frameseek index \(path) failed") }
        // Audio: ffmpeg's input seek decodes without pre-roll, so its first frame's samples are
        // not a decode from the start's; the MD5 to match comes from an output seek, which is.
        let frames = isAudio(frameseek: frameseek, path: path) ? "-frames:a" : "-frames:v"
        var ways: [(name: String, command: [String])] = [
            ("frameseek seek F \(at) --md5 --no-index-cache", [frameseek, "seek", path, at, "--md5", "--no-index-cache"]),
            ("ffmpeg -threads 1 -ss \(ffmpegAt) -i F \(frames) 1 -f framemd5 -",
             ["ffmpeg", "-v", "error", "-threads", "1", "-ss", ffmpegAt, "-i", path, frames, "1", "-f", "framemd5", "-"]),
            ("frameseek probe F --no-index-cache (the open alone)", [frameseek, "probe", path, "--no-index-cache"]),
            ("ffprobe -v error -show_format F (the open alone)", ["ffprobe", "-v", "error", "-show_format", path]),
            ("frameseek seek F \(at) --md5, from the index cache", [frameseek, "seek", path, at, "--md5"]),
        ]
        if frames == "-frames:a" {
            ways.append(("ffmpeg -threads 1 -i F -ss \(ffmpegAt) -frames:a 1 -f framemd5 - (a decode from the start)",
                         ["ffmpeg", "-v", "error", "-threads", "1", "-i", path, "-ss", ffmpegAt, "-frames:a", "1", "-f", "framemd5", "-"]))
        }
        if let before {
            ways.append(("the seek with \(before) (before)", [before, "seek", path, at, "--md5", "--no-index-cache"]))
            ways.append(("the open with \(before) (before)", [before, "probe", path, "--no-index-cache"]))
        }
        var walls = [LatencySamples](repeating: LatencySamples(), count: ways.count), cpus = walls
        var peaks = [Int](repeating: 0, count: ways.count)
        var md5s = [String?](repeating: nil, count: ways.count)
        for _ in 0..<runs {
            for (i, way) in ways.enumerated() {
                guard let cost = measureProcess(way.command) else { fail("failed: \(way.command.joined(separator: " "))") }
                walls[i].add(cost.wall)
                cpus[i].add(cost.cpu)
                peaks[i] = max(peaks[i], cost.peakKiB)
                md5s[i] = landedMD5(in: cost.output)
            }
        }
        print("file: \(path)")
        print("whole processes; medians of \(runs) rounds, the ways in turn in each round; peak RSS is the largest of the rounds")
        print("wall_ms  / ffmpeg    cpu_ms  peak_MiB  md5                               way")
        let ffmpegWall = walls[1].median
        for (i, way) in ways.enumerated() {
            let md5 = (md5s[i] ?? "-").padding(toLength: 32, withPad: " ", startingAt: 0)
            print("\(fmt(walls[i].median))  \(fmt(walls[i].median / ffmpegWall))  \(fmt(cpus[i].median))  \(fmt(Double(peaks[i]) / 1024))  \(md5)  \(way.name)")
        }
        let reference = frames == "-frames:a" ? md5s[5] : md5s[1]
        if md5s[0] != reference { print("!! frameseek's MD5 differs from ffmpeg's") }
    }
}

/// Whether the stream `frameseek probe` selects in `path` is audio.
func isAudio(frameseek: String, path: String) -> Bool {
    guard let probed = measureProcess([frameseek, "probe", path, "--json", "--no-index-cache"]),
          let object = (try? JSONSerialization.jsonObject(with: Data(probed.output.utf8))) as? [String: Any],
          let streams = object["streams"] as? [[String: Any]], let selected = object["stream_index"] as? Int
    else { return false }
    return streams.first { ($0["index"] as? Int) == selected }?["type"] as? String == "audio"
}

/// The time to give ffmpeg's `-ss` for the frame `frameseek seek F T` lands on. ffmpeg's -ss
/// outputs the first frame at or after its time, frameseek's exact seek the frame covering it:
/// ffmpeg is given the start of that frame (in whole microseconds, rounded down, as it parses
/// -ss), so both land on, and decode up to, the same frame.
func ffmpegSeekTime(frameseek: String, path: String, at: String) -> String {
    guard let landed = measureProcess([frameseek, "seek", path, at, "--json", "--no-index-cache"]),
          let object = (try? JSONSerialization.jsonObject(with: Data(landed.output.utf8))) as? [String: Any],
          let rational = object["landed_rational"] as? String, let start = try? MediaTime(parsing: rational)
    else { fail("frameseek seek \(path) \(at) failed") }
    let micros = start.value * 1_000_000 / Int64(start.timescale)
    return "\(micros / 1_000_000).\(String(format: "%06lld", micros % 1_000_000))"
}
