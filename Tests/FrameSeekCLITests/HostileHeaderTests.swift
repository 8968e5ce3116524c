// Headers that claim more entries than the file holds. FFmpeg's demuxers size some tables by
// the claimed count before reading the entries, so a few kilobytes can ask for gigabytes. Each
// case runs the built `frameseek` as a process of its own, bounded in time, and reads its peak
// memory with wait4; the input is a committed fragmented MP4 with one count rewritten.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Command line: headers that claim more than the file holds", .ffmpegLog)
struct HostileHeaderTests {
    /// The seed fragmented MP4 with the sample count of its first `trun` box set to `count`.
    static func fragmentedMP4(claimingSamples count: UInt32, in directory: TemporaryDirectory) throws -> String {
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Repository.root.path + "/Fuzz/seeds/mp4file/fragmented.mp4")))
        let type = Array("trun".utf8)
        let at = try #require((4..<(bytes.count - 12)).first { Array(bytes[$0..<$0 + 4]) == type }, "no trun box in the seed")
        // A full box: its size, its type, version and flags, then the sample count.
        let size = bytes[(at - 4)..<at].reduce(0) { $0 << 8 | Int($1) }
        try #require(size >= 16 && at - 4 + size <= bytes.count, "the trun box's size \(size) does not fit the file")
        let original = bytes[(at + 8)..<(at + 12)].reduce(0) { $0 << 8 | UInt32($1) }
        try #require(original > 0 && original < 1000, "the seed's trun claims \(original) samples")
        for index in 0..<4 { bytes[at + 8 + index] = UInt8(truncatingIfNeeded: count >> (24 - 8 * index)) }
        let path = directory.file("claims-\(count).mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // 40 million samples: FFmpeg asks for 955 MB of index entries and 318 MB of composition
    // offsets (under its own 2 GiB limit), and ffprobe peaks at about 370 MB on this 3.7 KB
    // file. 400 million: over FFmpeg's own limit, refused by FFmpeg alone.
    @Test("A trun that claims millions of samples is one error line, in bounded memory", arguments: [40_000_000, 400_000_000] as [UInt32])
    func trunClaimingMillions(count: UInt32) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.fragmentedMP4(claimingSamples: count, in: directory)
        let run = try runBounded([Repository.builtExecutable("frameseek"), "seek", path, "0.1"], bound: .seconds(60))
        #expect(!run.timedOut && run.signal == nil, "\(count): ended by \(run.signal.map { "signal \($0)" } ?? "the bound")")
        #expect(run.exitStatus == 2, "\(count): exit \(run.exitStatus ?? -1), stderr \(run.stderr)")
        #expect(run.errorLines.count == 1 && run.stderr.contains(path), "\(count): stderr \(run.stderr)")
        #expect(run.stdout.isEmpty, "\(count): printed \(run.stdout)")
        #expect(run.peakResidentBytes < 128 << 20, "\(count): peak RSS \(run.peakResidentBytes >> 20) MiB")
    }
}
