// Broken inputs fail with a MediaError that names the file and the cause; nothing crashes.

import Foundation
import FrameSeekFFmpeg
import FrameSeekImages
import FrameSeekTestSupport
import Testing

/// A broken input and the reasons the engine may give for it.
struct BadInput: Sendable, CustomTestStringConvertible {
    let relativePath: String
    let reasons: [MediaError.Reason]
    var testDescription: String { relativePath }
    var path: String { Repository.fixture(relativePath) }

    static let all = [
        BadInput(relativePath: "bad/empty.mp4", reasons: [.emptyFile]),
        BadInput(relativePath: "bad/does_not_exist.mp4", reasons: [.fileNotFound]),
        BadInput(relativePath: "bad/not_media.mp4", reasons: [.notMedia]),
        BadInput(relativePath: "bad/truncated_moov_at_end.mp4", reasons: [.notMedia, .truncated]),
        BadInput(relativePath: "bad/truncated_faststart.mp4", reasons: [.notMedia, .truncated])
    ]
}

@Suite("Bad input", .ffmpegLog)
struct BadInputTests {
    @Test("Opening a broken file throws the right MediaError", arguments: BadInput.all)
    func openFails(_ input: BadInput) throws {
        let exists = FileManager.default.fileExists(atPath: input.path)
        #expect(exists == (input.reasons != [.fileNotFound]), "\(input.path) presence")
        do {
            let engine = try FFmpegEngine(path: input.path, options: .init(streamIndex: nil, threads: 1))
            Issue.record("\(input.relativePath) opened with \(engine.frameTable.frames.count) frames; expected \(input.reasons)")
        } catch {
            #expect(input.reasons.contains(error.reason), "\(input.relativePath): reason \(error.reason), expected one of \(input.reasons)")
            #expect(error.path == input.path)
            #expect(error.description.hasPrefix(input.path + ": "), "description: \(error.description)")
            #expect(error.description.count > input.path.count + 3, "a cause follows the path")
            #expect(!error.description.contains("\n"), "one line")
        }
    }

    @Test("The empty file's cause says it is empty; the missing file's says so")
    func causesInWords() {
        for (relative, word) in [("bad/empty.mp4", "empty"), ("bad/does_not_exist.mp4", "no such file")] {
            let path = Repository.fixture(relative)
            do {
                _ = try FFmpegEngine(path: path, options: .init())
                Issue.record("\(relative) opened")
            } catch {
                #expect(error.cause.lowercased().contains(word), "\(relative): \(error.cause)")
            }
        }
    }

    @Test("A directory is not media")
    func directory() {
        let path = Repository.fixture("media")
        do {
            _ = try FFmpegEngine(path: path, options: .init())
            Issue.record("a directory opened")
        } catch {
            #expect(error.reason == .notMedia)
            #expect(error.path == path)
        }
    }

    @Test("Invalid seek targets are refused with .invalidRequest, and the engine still works")
    func invalidTargets() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_10bit.s0"))
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        for bad in [MediaTime.invalid, .indefinite] {
            do {
                _ = try engine.seek(to: bad, precision: .exact)
                Issue.record("seek to \(bad) succeeded")
            } catch {
                #expect(error.reason == .invalidRequest)
                #expect(error.path == fixture.path)
            }
        }
        let landing = try engine.seek(to: oracle.middle(40), precision: .exact)
        #expect(landing.frame.index == 40)
        #expect(try engine.landedPicture()?.md5 == oracle.md5s?[40])
    }

    @Test("Infinite targets clamp instead of failing")
    func infiniteTargets() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_vfr.s0"))
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        let late = try engine.seek(to: .positiveInfinity, precision: .exact)
        #expect(late.frame.index == oracle.lastIndex)
        #expect(late.plan.clamp == .clampedToEnd(oracle.time(oracle.lastIndex)))
        let early = try engine.seek(to: .negativeInfinity, precision: .exact)
        #expect(early.frame.index == 0)
        #expect(early.plan.clamp == .clampedToStart(oracle.time(0)))
    }
}
