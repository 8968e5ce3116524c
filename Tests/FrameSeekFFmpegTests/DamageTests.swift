// Damaged media: a landing on a damaged frame is flagged, and no unflagged landing differs
// from FFmpeg's own decode of the damaged file. The truth is independent of the engine:
// `ffmpeg -threads 1 -f framemd5` of bad/bitflip_mdat.mp4 (committed as an oracle) and of the
// clean h264_bframes_gop250.mp4 it was made from. Frames whose MD5 differs between the two
// are downstream of the damage; frames missing from the damaged decode are undecodable.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

/// The bit-flipped MP4 and what FFmpeg's decode says about each of its frames.
struct BitflipOracle {
    static let path = Repository.fixture("bad/bitflip_mdat.mp4")
    let damaged: [Int64: String]
    let clean: [Int64: String]

    init() throws {
        damaged = try framemd5ByPTS("oracle/bitflip_mdat.mp4.s0.framemd5")
        clean = try framemd5ByPTS("oracle/h264_bframes_gop250.mp4.s0.framemd5")
    }

    /// FFmpeg's decode of this frame differs from the clean file's: the damage reached it.
    func isDownstream(_ pts: Int64) -> Bool { damaged[pts] != nil && damaged[pts] != clean[pts] }

    /// Checks one landing against the oracles: flagged when downstream of the damage, and
    /// FFmpeg's MD5 when not flagged.
    func verify(pts: Int64, damagedFlag: Bool, md5: String?, _ context: String) {
        if isDownstream(pts) { #expect(damagedFlag, "\(context): pts \(pts) is downstream of the damage but not flagged") }
        if !damagedFlag {
            #expect(
                md5 == damaged[pts],
                "\(context): pts \(pts) unflagged with MD5 \(md5 ?? "none"), FFmpeg decodes \(damaged[pts] ?? "nothing")")
        }
    }
}

@Suite("Damaged media", .ffmpegLog)
struct DamageTests {
    @Test("The oracles show what the tests rely on: some frames downstream of the damage, one FFmpeg does not produce")
    func oracleShape() throws {
        let oracle = try BitflipOracle()
        #expect(oracle.clean.count == 360)
        #expect(oracle.damaged.count == 359)
        #expect(oracle.clean.keys.filter(oracle.isDownstream).count >= 20)
    }

    @Test(
        "Exact seeks to every frame of the bit-flipped MP4, in order and shuffled: downstream frames flagged, unflagged ones FFmpeg's MD5, the undecodable one a typed error"
    )
    func exactSeeks() throws {
        let oracle = try BitflipOracle()
        var shuffled = Array(0..<360)
        var generator = SeededGenerator(seed: 10)
        shuffled.shuffle(using: &generator)
        for (name, order) in [("in order", Array(0..<360)), ("shuffled", shuffled)] {
            let engine = try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: 1))
            var flagged = 0
            for index in order {
                let frame = engine.frameTable.frames[index]
                do {
                    let landing = try engine.seek(to: frame.time, precision: .exact)
                    #expect(landing.frame.index == index, "\(name): seek to frame \(index) landed on \(landing.frame.index)")
                    #expect(landing.damaged == (landing.decodeErrors > 0))
                    if landing.damaged { flagged += 1 }
                    let md5 = try engine.landedPicture()?.md5
                    oracle.verify(pts: frame.pts, damagedFlag: landing.damaged, md5: md5, "\(name) seek to frame \(index)")
                } catch {
                    #expect(oracle.damaged[frame.pts] == nil, "\(name): frame \(index) failed (\(error)) though FFmpeg decodes it")
                    #expect(error.reason == .decodeFailed)
                }
            }
            #expect(flagged >= oracle.clean.keys.filter(oracle.isDownstream).count, "\(name): \(flagged) landings flagged")
        }
    }

    @Test("The undecodable frame fails once by decoding, then at once: the fallback is not repeated")
    func undecodableRemembered() throws {
        let oracle = try BitflipOracle()
        let engine = try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: 1))
        let missing = try #require(engine.frameTable.frames.first { oracle.damaged[$0.pts] == nil })
        let clock = ContinuousClock()
        var first: MediaError?
        let firstTime = clock.measure {
            do throws(MediaError) { _ = try engine.seek(to: missing.time, precision: .exact) } catch { first = error }
        }
        #expect(first?.reason == .decodeFailed)
        for _ in 0..<20 {
            var again: MediaError?
            let time = clock.measure {
                do throws(MediaError) { _ = try engine.seek(to: missing.time, precision: .exact) } catch { again = error }
            }
            #expect(again?.reason == .decodeFailed)
            // Remembered: no decoding at all, so far below the first attempt's GOP decodes.
            #expect(time < firstTime, "a repeated failure took \(time), the first \(firstTime)")
        }
        // The engine still lands on the frames around it.
        let after = try engine.seek(to: engine.frameTable.frames[missing.index + 1].time, precision: .exact)
        #expect(after.frame.index == missing.index + 1)
    }

    @Test(
        "Steps forward and backward over the damage: downstream frames flagged, unflagged ones FFmpeg's MD5, the undecodable frame stepped over and flagged"
    )
    func steps() throws {
        let oracle = try BitflipOracle()
        for direction in [FrameStepDirection.forward, .backward] {
            let engine = try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: 1))
            let start = direction == .forward ? 200 : 270
            _ = try engine.seek(to: engine.frameTable.frames[start].time, precision: .exact)
            var current = start
            var passedOver = 0
            for _ in 0..<70 {
                let report = engine.step(direction, count: 1)
                guard report.result.didStep, let frame = report.frame else {
                    Issue.record("\(direction) step from \(current): \(report.result)")
                    break
                }
                let expected = direction == .forward ? current + report.framesStepped : current - report.framesStepped
                #expect(frame.index == expected)
                if report.framesStepped > 1 {
                    passedOver += 1
                    #expect(report.damaged, "a step over an undecodable frame is damaged")
                    let skipped = engine.frameTable.frames[direction == .forward ? frame.index - 1 : frame.index + 1]
                    #expect(oracle.damaged[skipped.pts] == nil, "stepped over frame \(skipped.index), which FFmpeg decodes")
                }
                let md5 = try engine.landedPicture()?.md5
                oracle.verify(pts: frame.pts, damagedFlag: report.damaged, md5: md5, "\(direction) step to frame \(frame.index)")
                current = frame.index
            }
            #expect(passedOver == 1, "\(direction): stepped over \(passedOver) undecodable frames")
        }
    }

    @Test("A sequential pass over the damaged file decodes it about once: no fallback per frame")
    func sequentialPassIsBounded() throws {
        let engine = try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: 1))
        _ = try engine.seek(to: engine.frameTable.frames[0].time, precision: .exact)
        var decoded = 1
        var steps = 0
        while true {
            let report = engine.step(.forward, count: 1)
            guard report.result.didStep else { break }
            decoded += report.framesDecoded
            steps += 1
        }
        #expect(engine.currentFrameIndex == 359)
        #expect(steps == 358, "359 frames FFmpeg decodes, one stepped over")
        // One undecodable frame costs its retries once (a few GOP decodes from keyframe 0),
        // not one per later step: well under 3 decodes of the file.
        #expect(decoded < 3 * 360, "\(decoded) frames decoded for one pass")
    }
}

@Suite("Truncation and damaged headers", .ffmpegLog)
struct TruncationTests {
    /// ffprobe's format duration and the last packet's end time of the cut files, measured
    /// with the ffprobe CLI when the fixtures were made: (file, stated seconds, readable end).
    static let cut: [(String, Double?, Double)] = [
        ("bad/truncated_half.mkv", 5.375, 2.675),
        ("bad/truncated_half.webm", 4.0, 2.0),
        ("bad/truncated_half.ts", nil, 3.16)
    ]

    @Test("Matroska, WebM and MPEG-TS cut in half open with a truncation fact: where the data ends and what the header states")
    func truncationReported() throws {
        for (relative, stated, readable) in Self.cut {
            let engine = try FFmpegEngine(path: Repository.fixture(relative), options: .init(threads: 1))
            let truncation = try #require(engine.media.truncation, "\(relative): no truncation reported")
            #expect(abs(truncation.readableEnd.seconds - readable) < 0.05, "\(relative): readable end \(truncation.readableEnd.seconds)")
            if let stated {
                #expect(
                    abs((truncation.statedDuration?.seconds ?? 0) - stated) < 0.001,
                    "\(relative): stated \(String(describing: truncation.statedDuration))")
            } else {
                #expect(truncation.statedDuration == nil)
            }
            #expect(truncation.description.hasPrefix("truncated"))
            // A seek past the readable end clamps, and says the file is truncated.
            let landing = try engine.seek(to: MediaTime(value: 100, timescale: 1), precision: .exact)
            #expect(landing.plan.clamp.didClamp)
            #expect(landing.plan.clamp.explanation(truncation: engine.media.truncation).contains("truncated"))
        }
    }

    @Test("No fixture read to its end is called truncated")
    func completeFilesAreNotTruncated() throws {
        for fixture in FixtureCatalog.all {
            let engine = try FFmpegEngine(path: fixture.path, options: .init(streamIndex: fixture.stream, threads: 1))
            #expect(engine.media.truncation == nil, "\(fixture.id): \(String(describing: engine.media.truncation))")
        }
    }

    @Test("Errors name the real cause: a damaged moov is a damaged header, not memory; an MP4 without moov is truncated; text is not media")
    func causes() {
        let cases: [(String, MediaError.Reason, String)] = [
            ("bad/damaged_moov.mp4", .damagedHeader, "damaged header"),
            ("bad/truncated_moov_at_end.mp4", .truncated, "truncated"),
            ("bad/truncated_faststart.mp4", .truncated, "truncated"),
            ("bad/not_media.mp4", .notMedia, "not a media file")
        ]
        for (relative, reason, words) in cases {
            let path = Repository.fixture(relative)
            do {
                _ = try FFmpegEngine(path: path, options: .init(threads: 1))
                Issue.record("\(relative) opened")
            } catch {
                #expect(error.reason == reason, "\(relative): \(error.reason)")
                #expect(error.cause.contains(words), "\(relative): \(error.cause)")
                #expect(
                    !error.cause.contains("Cannot allocate memory") || error.cause.hasPrefix("damaged header"),
                    "\(relative): memory named as the cause: \(error.cause)")
                #expect(!error.description.contains("\n"))
            }
        }
    }
}
