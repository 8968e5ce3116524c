// The live example of the article "Live windows and date seeks" (FrameSeek.docc/LiveWindows.md), call
// for call, against `import FrameSeek` alone. If the API drifts from the text, this stops
// compiling. Run on a file fixture, it checks the file branches the text promises: the not-live window,
// `notDateAddressable` with an explanation, no live edge, nothing to reload. The live branches
// are covered on the fake live engine (FrameSeekCoreTests/Live*Tests).

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

/// The example's `WindowWatcher`.
private final class WindowWatcher: SeekPrecisionListener, Sendable {
    let log = EventLog()
    func onLiveWindowChanged(_ window: LiveSeekWindow) {
        log.record(
            .completion(
                "window \(window.seekableRange) \(window.startProgramDate?.iso8601 ?? "-") "
                    + "\(window.endProgramDate?.iso8601 ?? "-") edge \(window.liveEdge)"))
    }
    func onLiveWindowReloadFailed(_ error: MediaError) { log.record(.completion("reload failed: \(error)")) }
}

@Suite("Docs: the live example", .ffmpegLog)
struct LiveReadmeExampleTests {
    @Test("The live example compiles against `import FrameSeek` and, on a file, takes the not-live branches")
    func liveExampleOnAFile() async throws {
        let fixture = try Fixtures.gop250
        let watcher = WindowWatcher()
        let lines = try await withDeadline("the live example") { () -> [String] in
            var lines: [String] = []
            do {
                let player = Player()
                player.addSeekPrecisionListener(watcher)
                try await player.load(URL(fileURLWithPath: fixture.path))
                let window = player.liveSeekWindow
                lines.append("window \(window.isLive) \(window.isDateAddressable) \(window.segmentCount)")
                if window.isDateAddressable, let start = window.startDate {
                    lines.append("dated from \(start)")
                }
                lines.append("\(window.startProgramDate?.iso8601 ?? "-") \(window.endProgramDate?.iso8601 ?? "-")")
                let kickoff = try ProgramDate(parsing: "2024-03-04T23:00:17.684Z")
                switch await player.seek(toDate: kickoff, precision: .exact) {
                case .seeked(let outcome):
                    lines.append("seeked \(outcome.landedMediaTime) \(outcome.landedDate?.iso8601 ?? "-")")
                case .unavailable(let reason):
                    lines.append(reason.explanation)
                }
                let now = await withCheckedContinuation { continuation in
                    player.seek(toDate: Date(), precision: .nearestKeyframe(tolerance: 1.0)) { result in
                        continuation.resume(returning: result)
                    }
                }
                lines.append(now.outcome == nil ? "now unavailable" : "now seeked")
                if let outcome = await player.seekToLiveEdge() {
                    lines.append("joined at \(outcome.landedMediaTime) \(outcome.landedFoundationDate as Any)")
                }
                let edge = await withCheckedContinuation { continuation in
                    player.seekToLiveEdge { continuation.resume(returning: $0) }
                }
                lines.append("edge \(edge == nil ? "none" : "some")")
                lines.append("reloaded \(try await player.reloadLiveWindow())")
            } catch {
                lines.append("error \(error)")
            }
            return lines
        }
        #expect(
            lines == [
                "window false false 0",
                "- -",
                "cannot seek to 2024-03-04T23:00:17.684Z: the playlist has no EXT-X-PROGRAM-DATE-TIME, so its media has no dates",
                "now unavailable",
                "edge none",
                "reloaded false"
            ], "\(lines)")
        #expect(watcher.log.events.isEmpty, "a file never reloads")
    }
}
