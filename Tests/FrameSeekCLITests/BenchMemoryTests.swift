// Peak memory per workload: a small workload after a big one reports its own peak, not the
// big one's. Run in a process of its own (the built `frameseek`), since the test process's
// memory is every parallel test's.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Bench peak memory per workload", .ffmpegLog)
struct BenchMemoryTests {
    /// Whether this kernel lets a process reset its own peak RSS (Linux 4.0 and later, /proc
    /// mounted writable): the condition for a per-workload peak at all.
    static let canResetPeak = FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")

    @Test("thumbnails after 4K exact seeks: its peak is its own, below the seeks' and the process's")
    func smallAfterBig() throws {
        // A 4K clip: the seeks fill the frame cache with 4K frames; thumbnails decode a handful of keyframes.
        let clip = Repository.fixture("media/android_h264_portrait_4k60.mp4")
        let output = try runTool([
            Repository.builtExecutable("frameseek"), "bench", clip, "--workload", "random,thumbnails",
            "-n", "6", "--json"
        ])
        let lines = output.split(separator: "\n").compactMap { JSON.object(String($0)) }
        let big = try #require(lines.first), small = try #require(lines.last)
        guard Self.canResetPeak else {
            // Not measured rather than the process's peak passed off as the workload's.
            #expect(big["peak_rss_mb"] is NSNull && small["peak_rss_mb"] is NSNull)
            return
        }
        let bigPeak = try #require(JSON.double(big["peak_rss_mb"])), smallPeak = try #require(JSON.double(small["peak_rss_mb"]))
        let processPeak = try #require(JSON.double(small["process_peak_rss_mb"]))
        // Decoded 4K frames are 12 MB each in YUV (35 MB in RGB): the cache alone is far above 20 MB.
        #expect(smallPeak + 20 < bigPeak, "thumbnails \(smallPeak) MB after random \(bigPeak) MB")
        #expect(smallPeak < processPeak && bigPeak <= processPeak, "process \(processPeak) MB")
        #expect((JSON.double(big["process_peak_rss_mb"]) ?? 0) >= bigPeak)
    }
}
