// Shared by the manifest tests: which seeks a manifest records for a fixture, and what the
// oracles (ffprobe's frame table, ffmpeg's framemd5) say each one must land on.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// The precisions every test manifest records, with their window as the oracle takes it
/// (nil: an unbounded side).
let recordedPrecisions: [(precision: SeekPrecision, before: MediaTime?, after: MediaTime?)] = [
    (.exact, .zero, .zero),
    (.previousKeyframe, nil, .zero),
    (
        .tolerance(before: MediaTime(value: 1, timescale: 2), after: MediaTime(value: 1, timescale: 4)),
        MediaTime(value: 1, timescale: 2), MediaTime(value: 1, timescale: 4)
    )
]

/// Targets spread over the stream: before its start (clamped), the middles of the first frame,
/// of frames a third and two thirds in, and of the last.
func recordedTargets(_ oracle: Oracle) -> [MediaTime] {
    [MediaTime(value: -1, timescale: 1)] + [0, oracle.count / 3, 2 * oracle.count / 3, oracle.lastIndex].map(oracle.middle)
}

/// The frame the oracle says entry `entry` must land on.
func oracleLanding(_ oracle: Oracle, _ entry: ManifestEntry) -> Int {
    let window = recordedPrecisions.first { $0.precision == entry.precision }!
    return oracle.expectedLanding(at: entry.target, before: window.before, after: window.after)
}

/// Records `fixture` into a manifest at `directory/<fixture id>.landing.json` and writes it.
func recordFixture(
    _ fixture: Fixture, in directory: URL, barcode: Bool = false,
    mediaPath: String? = nil
) throws -> (manifest: Manifest, path: String) {
    let oracle = try Oracle(fixture)
    let path = directory.appendingPathComponent("\(fixture.id).landing.json").path
    let manifest = try ManifestRecorder.record(
        mediaPath: mediaPath ?? fixture.path, manifestPath: path,
        targets: recordedTargets(oracle),
        precisions: recordedPrecisions.map(\.precision), barcode: barcode,
        options: .init(streamIndex: fixture.stream))
    try manifest.write(to: path)
    return (manifest, path)
}

/// Runs the ffmpeg command line (installed beside the libraries), failing the test on error.
func runFFmpeg(_ arguments: [String]) throws {
    try runTool(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
}

/// The manifest JSON at `path` as an object, edited by `edit`, written back.
func editManifestJSON(_ path: String, _ edit: (inout [String: Any]) -> Void) throws {
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    edit(&object)
    try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        .write(to: URL(fileURLWithPath: path))
}
