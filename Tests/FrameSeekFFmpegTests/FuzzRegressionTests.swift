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

    /// A fuzz target's committed seeds (`Fuzz/seeds/TARGET`), replayed beside its findings.
    static func seeds(of target: String) -> [FuzzInput] {
        let folder = Repository.root.appendingPathComponent("Fuzz/seeds/\(target)").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted().map { FuzzInput(path: folder + "/" + $0) }
    }

    /// A target's findings and its seeds: every input `swift test` replays through its sequence.
    static func replayed(by target: String) -> [FuzzInput] { regressions(of: target) + seeds(of: target) }
}

@Suite("Fuzz regressions", .ffmpegLog)
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

    /// The media seeds in formats no fixture has (audio with no index, each opened as needed
    /// in prefixes): the sequence must reach that reader, not only the whole table's, or the
    /// fuzzer never mutates its decisions.
    @Test(
        "Media seeds land from memory and again opened as needed from a file",
        .timeLimit(.minutes(10)), arguments: FuzzInput.seeds(of: "media"))
    func mediaSeed(_ input: FuzzInput) {
        let summary = MediaExercise.run(input.bytes, name: input.testDescription)
        #expect(summary.error == nil, "\(summary)")
        #expect(summary.landingsAsNeeded > 0, "\(summary)")
        #expect(summary.landings == 2 * summary.landingsAsNeeded, "\(summary)")
    }

    @Test(
        "Parsing fuzz findings and seeds end in parse errors or values",
        arguments: FuzzInput.replayed(by: "parsing"))
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

/// The remote-input fuzz targets' findings and seeds, replayed through their sequences: every
/// input must end in typed errors or results; the seeds, real inputs, must also come out as
/// what they are, checked against a count or a reading made another way.
@Suite("Remote input fuzz regressions", .ffmpegLog)
struct RemoteInputFuzzRegressionTests {
    @Test("Playlist findings and seeds parse or fail with a typed error", arguments: FuzzInput.replayed(by: "playlists"))
    func playlistInput(_ input: FuzzInput) {
        let summary = PlaylistExercise.run(input.bytes)
        #expect(summary.kind != nil || summary.error != nil, "\(summary)")
        guard input.isSeed else { return }
        switch input.testDescription {
        case "attribute-list-line": #expect(summary.attributesRead, "\(summary)")
        case "program-date-line": #expect(summary.dateRead, "\(summary)")
        case "dash-number.mpd":
            // PT6.2S in 1 s segments: six whole and one of 0.2 s.
            #expect(summary.kind == "dash" && summary.entries == 7, "\(summary)")
        case "dash-timeline.mpd":
            // S d=23544, then d=24576 r=1 (two), then d=4092.
            #expect(summary.kind == "dash" && summary.entries == 4, "\(summary)")
        case "dash-list-periods.mpd":
            // Period 1: two SegmentURLs. Period 2 (10 s, PTO 1 s): 2 s twice from 1 s, then 1 s
            // segments from 5 s to the Period's end at media time 11 s: six.
            #expect(summary.kind == "dash" && summary.entries == 10, "\(summary)")
        case "dash-live-number.mpd":
            // An hour after availabilityStartTime, the Period (from 100 s) has 1,750 whole 2-s
            // segments; a 30-s buffer keeps the last fifteen.
            #expect(summary.kind == "dash" && summary.entries == 15, "\(summary)")
        case "segment-index.sidx":
            // ffmpeg's global sidx of the B-frame fixture: two subsegments.
            #expect(summary.indexReferences == 2, "\(summary)")
        case "dash-live-timeline.mpd":
            // Six 2-s segments from 3,588 s: all ended at 3,600 s, all inside the 12-s buffer.
            #expect(summary.kind == "dash" && summary.entries == 6, "\(summary)")
        default:
            // A real playlist reads whole: as many entries as its text has EXTINF (media) or
            // EXT-X-STREAM-INF (multivariant) lines before any second header.
            let text = String(decoding: input.bytes, as: UTF8.self)
            let first = text.ranges(of: "#EXTM3U").dropFirst().first.map { String(text[..<$0.lowerBound]) } ?? text
            let lines = first.split(whereSeparator: \.isNewline)
            let variants = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.count
            let segments = lines.filter { $0.hasPrefix("#EXTINF:") }.count
            #expect(summary.error == nil, "\(summary)")
            #expect(summary.kind == (variants > 0 ? "multivariant" : "media"))
            #expect(summary.entries == (variants > 0 ? variants : segments))
            #expect(summary.reloaded == (first != text), "a second playlist is placed on the first one's timeline")
        }
    }

    @Test(
        "MP4 findings and seeds opened from a file end in typed errors or results; seeds index as from memory",
        .timeLimit(.minutes(10)), arguments: FuzzInput.replayed(by: "mp4file"))
    func mp4FileInput(_ input: FuzzInput) throws {
        let summary = MP4FileExercise.run(input.bytes)
        #expect(summary.error != nil || summary.frameCount > 0, "\(summary)")
        guard input.isSeed else { return }
        // From its path an MP4 is indexed from its boxes; from memory, by reading every packet.
        let fromMemory = try FFmpegEngine(bytes: input.bytes, name: input.testDescription, options: MediaExercise.options)
        #expect(summary.error == nil, "\(summary)")
        #expect(summary.frameCount == fromMemory.frameTable.frames.count)
        #expect(summary.landings == 2 && summary.seekErrors == 0, "\(summary)")
    }

    @Test(
        "Index cache findings and seeds are read or rejected, whole and with a valid checksum",
        .timeLimit(.minutes(10)), arguments: FuzzInput.replayed(by: "index-cache"))
    func indexCacheInput(_ input: FuzzInput) {
        let summary = IndexCacheExercise.run(input.bytes)
        for outcome in [summary.asEntry, summary.asPayload] + (summary.asPayloadOfTheStream.map { [$0] } ?? []) {
            #expect(outcome.hasPrefix("read") || outcome.hasPrefix("rejected"), "\(summary)")
        }
    }

    /// The wrapping is what lets the fuzzer's bytes reach the payload decoder: the payload the
    /// engine itself wrote, wrapped as the fuzz target wraps every input, must be read back.
    @Test("A payload the engine wrote, wrapped as the fuzz target wraps inputs, is read")
    func indexCacheWrappingReachesDecoder() throws {
        let payload = try #require(IndexCacheExercise.writtenPayload)
        let summary = IndexCacheExercise.run(payload)
        #expect(summary.payloadRead, "\(summary)")
        #expect(summary.asEntry.hasPrefix("rejected"), "a bare payload is no entry: \(summary)")
    }

    @Test(
        "Landing findings and seeds exit 0, 1 or 2 as a manifest, a catalog and results",
        .timeLimit(.minutes(10)), arguments: FuzzInput.replayed(by: "landing"))
    func landingInput(_ input: FuzzInput) {
        let summary = ManifestExercise.run(input.bytes)
        #expect(summary.allDocumented, "\(summary)")
    }

    /// The landing sequence checks what it is given: the manifest `landing record` made for
    /// the video beside it checks clean, by MD5 and by picture, and the results of that check
    /// merge clean.
    @Test("A recorded manifest and its results pass the landing sequence")
    func landingRecordedFiles() throws {
        let setup = try #require(ManifestExercise.setup)
        let manifest = try #require(FileManager.default.contents(atPath: setup.manifest))
        let asManifest = ManifestExercise.run(Array(manifest))
        #expect(asManifest.manifestRead && asManifest.check == .success, "\(asManifest)")
        // Recorded with pictures: judged by picture against them, on the same media, it passes.
        #expect(asManifest.checkByPicture == .success, "\(asManifest)")
        let results = try #require(FileManager.default.contents(atPath: setup.results))
        let asResults = ManifestExercise.run(Array(results))
        #expect(asResults.merge == .success, "\(asResults)")
    }

    @Test(
        "Scripted HTTP servers end each open in a typed error or a table; an honest one serves the file's",
        .timeLimit(.minutes(10)), arguments: FuzzInput.replayed(by: "ranged-http"))
    func rangedHTTPInput(_ input: FuzzInput) throws {
        let summary = RangedHTTPExercise.run(input.bytes)
        #expect(summary.error != nil || summary.frameCount > 0, "\(summary)")
        // honest, honest-moov-at-end and fragmented-honest: the three files the server serves,
        // whose frames are the same.
        guard input.isSeed else { return }
        if input.testDescription == "audio-honest" {
            // The MP3, read in prefixes over HTTP: its second landing is the frame the whole
            // table of the file on disk gives there.
            let local = try FFmpegEngine(path: RangedHTTPExercise.audioPath)
            let target = try #require(RangedHTTPExercise.audioTargets(duration: local.media.duration, placing: input.bytes[0]).last)
            let landing = try local.seek(to: target, precision: .exact)
            #expect(summary.landed && summary.frameCount == landing.frame.index + 1, "\(summary)")
        }
        guard input.testDescription.hasPrefix("honest") || input.testDescription == "fragmented-honest" else { return }
        let local = try FFmpegEngine(path: FuzzScratch.media("tiny-h264.mp4"))
        #expect(summary.frameCount == local.frameTable.frames.count && summary.landed, "\(summary)")
    }
}

extension FuzzInput {
    /// Whether the input is a committed seed rather than a finding.
    var isSeed: Bool { path.contains("/Fuzz/seeds/") }
}
