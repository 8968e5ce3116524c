// The barcode band as users stamp it: the filter the docs give is the one the fixtures were
// made with, and a clip stamped with it reads back its frame numbers through FrameBarcode.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

@Suite("Landing manifests: barcodes", .ffmpegLog)
struct BarcodeStampTests {
    /// The BARCODE filter of Fixtures/make-fixtures.sh, as its shell assignment quotes it.
    static func fixtureFilter() throws -> String {
        let script = try String(contentsOfFile: Repository.fixture("make-fixtures.sh"), encoding: .utf8)
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("BARCODE=\"") })
        return String(line.dropFirst("BARCODE=\"".count).dropLast())
    }

    @Test("The documented filter is the fixtures' filter, and a clip stamped with it reads its frame numbers")
    func stampedClipReadsBack() throws {
        let filter = try Self.fixtureFilter()
        let docs = try String(
            contentsOf: Repository.root.appendingPathComponent("Sources/FrameSeek/FrameSeek.docc/LandingManifests.md"),
            encoding: .utf8)
        #expect(docs.contains(filter))
        let directory = try temporaryDirectory("landing-stamp")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("stamped.mp4").path
        // A colourful source, so only the band can read as a number.
        try runFFmpeg([
            "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25", "-vf", filter, "-frames:v", "40",
            "-c:v", "libx264", "-g", "10", clip
        ])
        let targets = [0, 7, 23, 39].map { MediaTime(value: Int64(2 * $0 + 1), timescale: 50) }
        let manifest = try ManifestRecorder.record(
            mediaPath: clip, manifestPath: directory.appendingPathComponent("m.json").path,
            targets: targets, precisions: [.exact], barcode: true)
        #expect(manifest.entries.map(\.barcode) == [0, 7, 23, 39])
        #expect(manifest.entries.map(\.frameIndex) == [0, 7, 23, 39])
    }

    @Test("Pictures without a clear band read as no barcode")
    func noBand() {
        let grey = RGBImage(width: 320, height: 20, pixels: [UInt8](repeating: 128, count: 320 * 20 * 3))
        #expect(FrameBarcode.read(from: grey) == nil)
        let narrow = RGBImage(width: 319, height: 20, pixels: [UInt8](repeating: 0, count: 319 * 20 * 3))
        #expect(FrameBarcode.read(from: narrow) == nil)
        let black = RGBImage(width: 320, height: 20, pixels: [UInt8](repeating: 0, count: 320 * 20 * 3))
        #expect(FrameBarcode.read(from: black) == 0)
    }

    @Test(
        "Precisions spell exactly and parse back to themselves",
        arguments: [
            SeekPrecision.exact, .previousKeyframe, .nextKeyframe,
            .nearestKeyframe(tolerance: MediaTime(value: 1001, timescale: 30000)),
            .tolerance(before: MediaTime(value: 1, timescale: 2), after: .positiveInfinity),
            .tolerance(before: MediaTime(value: 3, timescale: 1), after: MediaTime(value: 1, timescale: 3))
        ])
    func precisionSpelling(_ precision: SeekPrecision) throws {
        #expect(try SeekPrecision(parsing: precision.description) == precision)
    }
}
