// The fuzzers' findings, replayed by the ordinary suite: every file of Fixtures/fuzz-regressions
// goes through the very sequence its fuzz target ran (FrameSeekFuzzing), and must end in typed
// errors or results. A crash here is a crash the fuzzer found coming back.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekFuzzing
import FrameSeekTestSupport
import Testing

/// One input file to replay through a fuzz target's sequence.
struct FuzzInput: Sendable, CustomTestStringConvertible {
    let path: String
    var testDescription: String { (path as NSString).lastPathComponent }
    var bytes: [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    /// `Fixtures/fuzz-regressions/TARGET-*`, the findings of one fuzz target.
    static func regressions(of target: String) -> [FuzzInput] {
        let folder = Repository.fixture("fuzz-regressions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("\(target)-") }.sorted().map { FuzzInput(path: folder + "/" + $0) }
    }

    /// The bad inputs the media fuzzer is seeded with, so the sequence is replayed on hostile
    /// bytes even while the regression folder holds few files.
    static let badFixtures: [FuzzInput] = {
        let folder = Repository.fixture("bad")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().map { FuzzInput(path: folder + "/" + $0) }
    }()

    /// The parsing fuzzer's committed seeds (Fuzz/seeds/parsing), replayed beside its findings.
    static let parsingSeeds: [FuzzInput] = {
        let folder = Repository.root.appendingPathComponent("Fuzz/seeds/parsing").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().map { FuzzInput(path: folder + "/" + $0) }
    }()
}

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    // The limit catches a hang, not slowness (the fuzzer's own -timeout=10 does that): the 16
    // inputs run a few at a time on 2 cores, and under ThreadSanitizer a case's clock runs while
    // it waits for a thread, so 3 minutes failed every case at once in one clean-clone CI run
    // (and passed in the one before).
    @Test(
        "Media fuzz findings and bad fixtures end in typed errors or results, opened from memory",
        .timeLimit(.minutes(10)), arguments: FuzzInput.regressions(of: "media") + FuzzInput.badFixtures)
    func mediaInput(_ input: FuzzInput) {
        let summary = MediaExercise.run(input.bytes, name: input.testDescription)
        // Either it opened and every step ran, or the typed error says why not.
        #expect(summary.error != nil || summary.frameCount > 0, "\(summary)")
    }

    @Test(
        "Parsing fuzz findings and seeds end in parse errors or values",
        arguments: FuzzInput.regressions(of: "parsing") + FuzzInput.parsingSeeds)
    func parsingInput(_ input: FuzzInput) {
        let summary = ParsingExercise.run(input.bytes)
        #expect([.success, .usageOrInput].contains(summary.exitCode), "exit \(summary.exitCode)")
    }

    /// The fuzzer reads media through the custom AVIOContext; it is only worth fuzzing if that
    /// reader reads and seeks as a file does. The same frame table, and the same landed
    /// pixels, from memory as from the file, in four containers.
    @Test(
        "Media opened from memory indexes and lands as the file does",
        arguments: [
            "media/h264_bframes_gop250.mp4", "media/h264_vfr.mkv", "media/h264_mpegts_offset.ts",
            "media/vp9_altref.webm"
        ])
    func memoryMatchesFile(_ relative: String) throws {
        let path = Repository.fixture(relative)
        let bytes = Array(try Repository.stableContents(of: path))
        let fromFile = try FFmpegEngine(path: path)
        let fromMemory = try FFmpegEngine(bytes: bytes, name: (path as NSString).lastPathComponent)
        #expect(fromMemory.frameTable.frames == fromFile.frameTable.frames)
        let frames = fromFile.frameTable.frames
        for index in [frames.count * 2 / 3, frames.count / 3] {
            let target = frames[index].time
            let fileLanding = try fromFile.seek(to: target, precision: .exact)
            let memoryLanding = try fromMemory.seek(to: target, precision: .exact)
            #expect(memoryLanding.frame == fileLanding.frame)
            #expect(try fromMemory.landedPicture()?.md5 == fromFile.landedPicture()?.md5)
        }
    }
}
