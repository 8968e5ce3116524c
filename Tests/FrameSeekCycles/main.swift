// frameseek-cycles FILE CYCLES WARMUP: opens FILE, seeks, steps both ways, makes a thumbnail and
// closes, CYCLES times, and prints one JSON line with the process's open file descriptors and
// resident memory after WARMUP cycles and at the end.
//
// A process of its own, launched by CycleSoakTests: /proc/self counts every descriptor and every
// page of the process, and in the test process those of the tests running beside it would
// come and go. Here nothing else runs, so the counts are the cycles' alone.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekImages

/// Entries of /proc/self/fd: every descriptor the process holds (the listing's own included,
/// which is the same one every time).
func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// VmRSS of /proc/self/status, in KiB.
func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
    }
    return -1
}

/// The bytes a sanitizer's allocator holds for the program, where one runs (ASan, TSan): there
/// the resident size is the allocator's high-water mark and its shadow memory, which a burst of
/// allocations on a loaded machine raises for good without anything being held, so the test
/// compares what is allocated instead. Nil in an ordinary build.
let sanitizerAllocatedBytes = dlsym(nil, "__sanitizer_get_current_allocated_bytes").map {
    unsafeBitCast($0, to: (@convention(c) () -> Int).self)
}

/// KiB the sanitizer's allocator holds, as JSON: null in an ordinary build.
func allocatedKiB() -> String { sanitizerAllocatedBytes.map { String($0() / 1024) } ?? "null" }

/// One cycle: every resource an open engine and a thumbnail generator hold is released when
/// they go out of scope at its end.
func cycle(_ path: String) throws(MediaError) {
    let engine = try FFmpegEngine(path: path)
    let frames = engine.frameTable.frames
    _ = try engine.seek(to: frames[frames.count / 2].time, precision: .exact)
    _ = try engine.landedImage()
    _ = engine.step(.forward, count: 1)
    _ = engine.step(.backward, count: 2)
    let generator = try ThumbnailGenerator(path: path)
    _ = try generator.thumbnail(at: frames[frames.count / 3].time)
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let cycles = Int(arguments[2]), let warmup = Int(arguments[3]), warmup < cycles else {
    FileHandle.standardError.write(Data("usage: frameseek-cycles FILE CYCLES WARMUP\n".utf8))
    exit(2)
}
let path = arguments[1]
let clock = ContinuousClock()
let start = clock.now
var warm: (fds: Int, rss: Int, allocated: String) = (0, 0, "null")
var peakRSS = 0
do {
    for index in 1...cycles {
        try cycle(path)
        if index == warmup { warm = (openDescriptors(), residentKiB(), allocatedKiB()) }
        if index % 100 == 0 { peakRSS = max(peakRSS, residentKiB()) }
    }
} catch {
    FileHandle.standardError.write(Data("frameseek-cycles: \(error)\n".utf8))
    exit(1)
}
let seconds = Double((clock.now - start).components.attoseconds) / 1e18 + Double((clock.now - start).components.seconds)
print(
    "{\"cycles\":\(cycles),\"warmup\":\(warmup),\"fds_after_warmup\":\(warm.fds),\"fds_end\":\(openDescriptors()),"
        + "\"rss_kib_after_warmup\":\(warm.rss),\"rss_kib_end\":\(residentKiB()),\"rss_kib_peak\":\(peakRSS),"
        + "\"allocated_kib_after_warmup\":\(warm.allocated),\"allocated_kib_end\":\(allocatedKiB()),\"seconds\":\(seconds)}")
