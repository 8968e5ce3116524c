// `frameseek-benchmarks png`: what writing one landed frame as PNG costs, libpng at each zlib
// level and row filter against FFmpeg's own PNG encoder, on the same RGB pixels.
import FrameSeek
import FrameSeekCLI
import FrameSeekFFmpeg
import Foundation

/// Runs `arguments` (a tool on PATH), returning its standard output, or nil when it fails.
func output(of arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
}

/// The MD5 of a file's pixels as rgb24, decoded by the ffmpeg CLI (`-f md5`): the independent
/// check that an encoder kept every pixel. `input` are the arguments before `-i`'s file.
func ffmpegRGBMD5(_ input: [String]) -> String? {
    output(of: ["ffmpeg", "-v", "error"] + input + ["-pix_fmt", "rgb24", "-f", "md5", "-"])?
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Lands on `at` in `path` (exactly, upright as `seek --png` writes it), converts to RGB once,
/// then times each encoder on those pixels: each round runs every setting once, in turn, and
/// the table shows medians of `runs` rounds, the ratio to FFmpeg's encoder at its defaults, the
/// file size, and whether the ffmpeg CLI decodes the file to the very pixels encoded.
func pngBenchmark(path: String, at: MediaTime, runs: Int, levels: [Int]) throws {
    let engine = try FFmpegEngine(path: path)
    let landing = try engine.seek(to: at, precision: .exact)
    guard let picture = try engine.landedPicture() else { fail("\(path): no video frame at \(at)") }
    let image = try picture.displayImage(using: engine)
    let reference = try PictureEncoder(.png(compressionLevel: nil), width: image.width, height: image.height)
    let referenceFast = try PictureEncoder(.png(compressionLevel: 1), width: image.width, height: image.height)
    var settings: [(name: String, encode: () throws -> [UInt8])] = [
        ("FFmpeg png encoder, defaults (level 6, pred none)", { try reference.encode(image) }),
        ("FFmpeg png encoder, -compression_level 1", { try referenceFast.encode(image) }),
    ]
    for level in levels {
        for filter in PNGFilter.allCases {
            let compression = PNGCompression(level: level, filter: filter)
            let mark = compression == .default ? " (default)" : ""
            settings.append(("libpng level \(level), filter \(filter.rawValue)\(mark)",
                             { try PNGFile.encode(image, compression: compression) }))
        }
    }
    var samples = [LatencySamples](repeating: LatencySamples(), count: settings.count)
    var sizes = [Int](repeating: 0, count: settings.count)
    var files = [[UInt8]](repeating: [], count: settings.count)
    for round in 0..<runs {
        for (i, setting) in settings.enumerated() {
            let start = ContinuousClock.now
            let bytes = try setting.encode()
            samples[i].add(ContinuousClock.now - start)
            sizes[i] = bytes.count
            if round == 0 { files[i] = bytes }
        }
    }
    // The pixels, checked outside the timing by the ffmpeg CLI: the raw RGB frame's MD5
    // against each PNG's, decoded to rgb24.
    let scratch = NSTemporaryDirectory() + "frameseek-png-\(getpid())"
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    try Data(image.pixels).write(to: URL(fileURLWithPath: scratch + "/frame.rgb"))
    let truth = ffmpegRGBMD5(["-f", "rawvideo", "-pixel_format", "rgb24", "-video_size", "\(image.width)x\(image.height)",
                              "-i", scratch + "/frame.rgb"])
    let base = samples[0].median
    print("file: \(path), landed on frame \(landing.frame.index) at \(landing.frame.time.seconds) s, \(image.width)x\(image.height) RGB")
    print("encode time alone, in memory; medians of \(runs) rounds, every setting once per round, in turn")
    print("median_ms  / FFmpeg      bytes  same pixels  setting")
    for (i, setting) in settings.enumerated() {
        let file = scratch + "/\(i).png"
        try Data(files[i]).write(to: URL(fileURLWithPath: file))
        let same = truth != nil && ffmpegRGBMD5(["-i", file]) == truth
        print("\(fmt(samples[i].median))  \(fmt(samples[i].median / base))  \(String(sizes[i]).leftPadded(9))  \(same ? "yes" : "NO ")          \(setting.name)")
    }
    if truth == nil { print("(the ffmpeg CLI could not decode the raw frame: no pixel check)") }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
