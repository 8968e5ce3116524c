// What ManifestRecorder writes, against the independent oracles: ffprobe's frame table for the
// frame, its PTS and time; ffmpeg's framemd5 for the pixels and samples; the barcode each
// synthetic fixture carries for the frame number.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

@Suite("Landing manifests: recording", .ffmpegLog)
struct ManifestRecordingTests {
    @Test("Recorded video entries land where ffprobe's table says, with framemd5's MD5", arguments: FixtureCatalog.video)
    func videoAgreesWithOracle(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("landing-record")
        defer { try? FileManager.default.removeItem(at: directory) }
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        let (manifest, _) = try recordFixture(fixture, in: directory)
        #expect(manifest.entries.count == recordedTargets(oracle).count * recordedPrecisions.count)
        // Targets outer, precisions inner, in the order given.
        #expect(manifest.entries.map(\.precision) == Array(repeating: recordedPrecisions.map(\.precision), count: 5).flatMap { $0 })
        for entry in manifest.entries {
            let expected = oracleLanding(oracle, entry)
            let context = "\(fixture.id) \(entry.target) \(entry.precision)"
            #expect(entry.frameIndex == expected, "\(context)")
            #expect(entry.pts == oracle.frames[expected].pts, "\(context)")
            #expect(entry.time == oracle.time(expected), "\(context)")
            #expect(entry.md5 == md5s[expected], "\(context)")
            #expect(!entry.damaged && entry.barcode == nil, "\(context)")
        }
        #expect(manifest.media.streamIndex == fixture.stream)
        #expect(manifest.media.size == Int64(try Data(contentsOf: URL(fileURLWithPath: fixture.path)).count))
    }

    @Test(
        "Every barcoded fixture's entries read their frame number plus the fixture's offset",
        arguments: FixtureCatalog.barcoded)
    func barcodes(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("landing-barcode")
        defer { try? FileManager.default.removeItem(at: directory) }
        let oracle = try Oracle(fixture)
        let (manifest, _) = try recordFixture(fixture, in: directory, barcode: true)
        #expect(manifest.barcode)
        for entry in manifest.entries {
            let expected = oracleLanding(oracle, entry)
            #expect(entry.barcode == expected + fixture.barcodeOffset, "\(fixture.id) \(entry.target) \(entry.precision)")
            #expect(entry.frameIndex == expected && entry.time == oracle.time(expected) && entry.md5 == oracle.md5s?[expected])
        }
    }

    @Test("Recorded audio entries carry ffmpeg's framemd5 of the frame's 16-bit samples", arguments: FixtureCatalog.audio)
    func audioAgreesWithOracle(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("landing-audio")
        defer { try? FileManager.default.removeItem(at: directory) }
        let oracle = try Oracle(fixture)
        let md5s = try framemd5Column(fixture)
        try #require(md5s.count == oracle.count)
        let (manifest, _) = try recordFixture(fixture, in: directory)
        for entry in manifest.entries {
            let expected = oracleLanding(oracle, entry)
            #expect(entry.frameIndex == expected && entry.time == oracle.time(expected), "\(fixture.id) \(entry.target)")
            #expect(entry.md5 == md5s[expected], "\(fixture.id) frame \(expected)")
        }
    }

    @Test("The manifest names the media relative to itself, its SHA-256 as sha256sum prints it, and the environment")
    func mediaAndEnvironment() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let directory = try temporaryDirectory("landing-media")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (manifest, path) = try recordFixture(fixture, in: directory)
        #expect(manifest.mediaPath(relativeTo: path) == URL(fileURLWithPath: fixture.path).standardizedFileURL.path)
        #expect(manifest.media.path.hasPrefix("../"))
        // Independent truth: coreutils' sha256sum.
        let output = try runTool(["sha256sum", fixture.path])
        #expect(manifest.media.sha256 == output.split(separator: " ").first.map(String.init))
        #expect(manifest.environment.decoder == "h264")
        #expect(manifest.environment.frameseek == FrameSeekVersion.current)
        for library in ["libavcodec", "libavformat", "libavutil", "libswscale"] {
            let version = try #require(manifest.environment.ffmpeg[library], "\(library) missing")
            #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil })
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("}\n") && text.contains("\"format\" : \"frameseek-landing-manifest\""))
        #expect(text.contains("\"schema_version\" : 1") && text.contains("\"target\" : \"-1/1\""))
    }
}
