// Headers that claim more entries than the file holds. FFmpeg's demuxers size some tables by
// the claimed count before reading the entries, so a few kilobytes can ask for gigabytes. Each
// case runs the built `frameseek` as a process of its own, bounded in time, and reads its peak
// memory with wait4; the input is a committed fragmented MP4 with one count rewritten. Likewise
// a few hundred kilobytes of PNG in Matroska hold a picture whose RGB is larger than one
// allocation may take.

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

    /// RGB of 9600x9600 takes 276,480,000 bytes (16-bit: twice that), above the 268,435,456
    /// (`ProcessMemory.ffmpegBlockLimit`) FFmpeg may take at once, while the gray picture
    /// itself, 92 MB, decodes.
    @Test("A picture whose RGB is larger than one allocation may take is one line, exit 2, at 8 and 16 bits", arguments: ["8", "16"])
    func pictureLargerThanOneAllocation(depth: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("gray-9600.mkv")
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=gray:size=9600x9600:rate=1", "-frames:v", "1",
            "-c:v", "png", "-pix_fmt", "gray", path
        ])
        let run = try runBounded(
            [Repository.builtExecutable("frameseek"), "seek", path, "0", "--png", directory.file("out.png"), "--png-depth", depth],
            bound: .seconds(120))
        #expect(!run.timedOut && run.signal == nil, "\(depth) bits: ended by \(run.signal.map { "signal \($0)" } ?? "the bound")")
        #expect(run.exitStatus == 2, "\(depth) bits: exit \(run.exitStatus ?? -1), stderr \(run.stderr)")
        #expect(
            run.errorLines.count == 1 && run.stderr.contains(path) && run.stderr.contains("above the 268435456"),
            "\(depth) bits: stderr \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.png")), "\(depth) bits: a PNG was written")
        // The decoded picture and its packed copy, 92 MB each; the RGB would have taken 276 MB more.
        #expect(run.peakResidentBytes < 400 << 20, "\(depth) bits: peak RSS \(run.peakResidentBytes >> 20) MiB")
    }

    @Test("A 4K picture still converts to 16-bit RGB, within one allocation")
    func largeFixtureStillConverts() throws {
        let directory = try TemporaryDirectory()
        let png = directory.file("4k.png")
        let run = try runBounded(
            [
                Repository.builtExecutable("frameseek"), "seek", Repository.fixture("media/android_h264_portrait_4k60.mp4"), "0.5",
                "--png", png, "--png-depth", "16"
            ], bound: .seconds(120))
        #expect(run.exitStatus == 0 && run.stderr.isEmpty, "exit \(run.exitStatus ?? -1), stderr \(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: png))
    }
}
