// ManifestCheck: a fresh manifest passes; one edited to expect another frame fails with what
// moved and a diff picture; a re-encoded copy is refused unless allowed, then reported; a
// manifest from a newer schema is refused. The edits take their values from the oracles.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

@Suite("Landing manifests: checking", .ffmpegLog)
struct ManifestCheckTests {
    @Test("Record, write, load and check passes on every fixture", arguments: FixtureCatalog.all)
    func roundTripPasses(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("landing-roundtrip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (recorded, path) = try recordFixture(fixture, in: directory, barcode: fixture.hasBarcode)
        let loaded = try Manifest.load(from: path)
        #expect(loaded == recorded)
        var options = ManifestCheck.Options()
        options.diffDirectory = directory.appendingPathComponent("diffs").path
        let report = try ManifestCheck.run(loaded, manifestPath: path, options: options)
        #expect(report.passed && !report.mediaChanged)
        #expect(report.results.count == recorded.entries.count)
        for result in report.results {
            #expect(result.matches && result.diffPicture == nil, "\(fixture.id): \(result.summary)")
        }
        #expect(!FileManager.default.fileExists(atPath: options.diffDirectory!))
    }

    @Test(
        "A manifest edited to expect the next frame fails with frame_index and pixels, and writes a diff PNG",
        arguments: FixtureCatalog.barcoded)
    func editedManifestFails(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("landing-edited")
        defer { try? FileManager.default.removeItem(at: directory) }
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        let (recorded, path) = try recordFixture(fixture, in: directory, barcode: true)
        // Entry 7 is the exact seek to the middle of the frame a third in (see recordedTargets).
        let edited = 6
        let landed = recorded.entries[edited].frameIndex
        try #require(recorded.entries[edited].precision == .exact && landed == oracle.count / 3)
        try editManifestJSON(path) { object in
            var entries = object["entries"] as! [[String: Any]]
            entries[edited]["frame_index"] = landed + 1
            entries[edited]["md5"] = md5s[landed + 1]
            object["entries"] = entries
        }
        var options = ManifestCheck.Options()
        options.diffDirectory = directory.appendingPathComponent("diffs/nested").path
        let report = try ManifestCheck.run(Manifest.load(from: path), manifestPath: path, options: options)
        #expect(!report.passed)
        for (index, result) in report.results.enumerated() where index != edited {
            #expect(result.matches, "\(fixture.id): \(result.summary)")
        }
        let result = report.results[edited]
        #expect(result.changes == [.frameIndex, .pixels])
        #expect(result.summary.hasSuffix("exact: frame \(landed + 1) -> \(landed), pixels differ"), "\(result.summary)")
        let png = try #require(result.diffPicture)
        #expect(png == directory.appendingPathComponent("diffs/nested/\(fixture.id).landing-\(edited + 1).png").path)
        let size = try pngDimensions(png)
        let display = try #require(oracle.frames[landed].width)
        #expect(size.width > 2 * min(display, oracle.frames[landed].height ?? 0))
    }

    @Test("A re-encoded copy is refused as other media, and checked with allowChangedMedia reports what moved")
    func reencodedCopy() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let directory = try temporaryDirectory("landing-reencoded")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mp4").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: clip)
        let (recorded, path) = try recordFixture(fixture, in: directory, barcode: true, mediaPath: clip)
        #expect(recorded.media.path == "clip.mp4")
        // Half the frames, another GOP and quality: the late entries' frames are gone.
        let kept = oracle.count / 2
        let copy = directory.appendingPathComponent("copy.mp4").path
        try runFFmpeg([
            "-i", clip, "-map", "0:v:0", "-c:v", "libx264", "-g", "12", "-bf", "0", "-crf", "38",
            "-frames:v", String(kept), copy
        ])
        try FileManager.default.removeItem(atPath: clip)
        try FileManager.default.moveItem(atPath: copy, toPath: clip)

        let manifest = try Manifest.load(from: path)
        // The copy is in a temporary folder, outside the current directory the check's root
        // defaults to.
        var refusing = ManifestCheck.Options()
        refusing.root = .folder(directory.path)
        let error = #expect(throws: ManifestCheckError.self) {
            try ManifestCheck.run(manifest, manifestPath: path, options: refusing)
        }
        #expect(error?.reason == .mediaChanged)
        let line = error?.description ?? ""
        #expect(line.hasPrefix(clip + ": not the recorded media") && line.contains(String(recorded.media.sha256.prefix(12))))
        #expect(line.contains("--allow-changed-media") && !line.contains("\n"))

        var options = refusing
        options.allowChangedMedia = true
        options.diffDirectory = directory.appendingPathComponent("diffs").path
        let report = try ManifestCheck.run(manifest, manifestPath: path, options: options)
        #expect(report.mediaChanged && !report.passed)
        for result in report.results {
            // Independent truth: the barcode the re-encode still carries names its frame.
            #expect(result.landed.barcode == result.landed.frameIndex + fixture.barcodeOffset, "\(result.summary)")
            #expect(result.changes.contains(.pixels), "\(result.summary)")
            if result.expected.frameIndex < kept && result.expected.precision == .exact {
                #expect(!result.changes.contains(.frameIndex), "\(result.summary)")
            }
            if result.expected.frameIndex >= kept {
                // Past the new end: an exact seek clamps to the new last frame. The expected
                // frame is gone, so its panel is black, not a crash.
                #expect(result.landed.frameIndex < kept && result.changes.contains(.frameIndex), "\(result.summary)")
                if result.expected.precision == .exact { #expect(result.landed.frameIndex == kept - 1) }
            }
            let png = try #require(result.diffPicture, "\(result.summary)")
            #expect(FileManager.default.fileExists(atPath: png))
        }
    }

    @Test("A manifest of schema_version 99 is refused, naming the file and both versions")
    func newerSchemaRefused() throws {
        let fixture = try #require(FixtureCatalog.fixture("aac_sine.s0"))
        let directory = try temporaryDirectory("landing-schema")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, path) = try recordFixture(fixture, in: directory)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try #require(text.contains("\"schema_version\" : 1\n"))
        try text.replacingOccurrences(of: "\"schema_version\" : 1\n", with: "\"schema_version\" : 99\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: ManifestError.self) { try Manifest.load(from: path) }
        #expect(error?.reason == .newerSchema)
        let line = error?.description ?? ""
        #expect(line.hasPrefix(path + ": ") && line.contains("schema_version 99") && line.contains("schema_version 1)"))
        #expect(!line.contains("\n"))
    }

    @Test("Missing, non-JSON and foreign files are refused as unreadable or malformed")
    func unreadableAndMalformed() throws {
        let directory = try temporaryDirectory("landing-malformed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("none.json").path
        #expect(throws: ManifestError(path: missing, reason: .unreadable, cause: "does not exist")) {
            try Manifest.load(from: missing)
        }
        for (name, text) in [
            ("garbage.json", "not json"), ("foreign.json", "{\"format\": \"other\"}"),
            ("partial.json", "{\"format\": \"frameseek-landing-manifest\", \"schema_version\": 1}")
        ] {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let error = #expect(throws: ManifestError.self) { try Manifest.load(from: path) }
            #expect(error?.reason == .malformed && error?.description.hasPrefix(path + ": ") == true)
        }
    }
}
