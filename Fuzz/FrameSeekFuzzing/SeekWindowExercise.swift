import FrameSeekCore
import FrameSeekFFmpeg

/// The part of the media sequence that needs a file: seek windows (`FrameIndexing.asNeeded`),
/// which read Matroska, MPEG-TS and fragmented MP4 through the container's own index and
/// are not used for media opened from memory. The input is written to a file named for its
/// container and opened from its path; then seeks with each precision, steps both ways (past
/// the window's edges), and the landed audio's samples.
enum SeekWindowExercise {
    /// The file an input is written to, by the extension its container's demuxer is known by.
    static func path(for container: String) -> String? {
        let folder = FuzzScratch.folder("seek-window")
        switch container {
        case "matroska,webm": return folder + "/input.mkv"
        case "mpegts": return folder + "/input.ts"
        case let name where name.hasPrefix("mov"): return folder + "/input.mp4"
        default: return nil
        }
    }

    /// Runs the window sequence on `bytes` when `container` reads seek windows, adding what
    /// it came to to `summary`; the targets are those the whole table gave.
    static func run(_ bytes: [UInt8], container: String, targets: [MediaTime], into summary: inout MediaExerciseSummary) {
        guard let path = path(for: container) else { return }
        FuzzScratch.oneAtATime {
            FuzzScratch.write(bytes, to: path)
            var options = MediaExercise.options
            options.indexing = .asNeeded
            guard let engine = try? FFmpegEngine(path: path, options: options) else { return }
            for (ordinal, target) in targets.enumerated() {
                do {
                    _ = try engine.seek(to: target, precision: MediaExercise.precisions[ordinal % MediaExercise.precisions.count])
                    summary.landings += 1
                    _ = try engine.landedAudio()?.md5
                } catch {
                    summary.seekErrors += 1
                }
                // Steps from the landing cross the window's edges, reading the next window.
                for direction in [FrameStepDirection.forward, .backward] {
                    if engine.step(direction, count: ordinal + 1).result.didStep { summary.steps += 1 }
                }
            }
        }
    }
}
