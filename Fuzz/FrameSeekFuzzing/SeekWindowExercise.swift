import FrameSeekCore
import FrameSeekFFmpeg

/// The part of the media sequence that needs a file: media opened as needed
/// (`FrameIndexing.asNeeded`), which is not done for media opened from memory. Matroska,
/// MPEG-TS and MP4 are read in seek windows through the container's own index; audio in
/// files with no index (MP3, ADTS AAC, AC-3, E-AC-3, Ogg, FLAC, WAV, AIFF) in prefixes of the
/// stream read through each target. The input is written to a file named for its container
/// and opened from its path; then seeks with each precision, steps both ways (past the
/// window's or the prefix's end), and the landed audio's samples.
enum SeekWindowExercise {
    /// The file an input is written to, by the extension its container's demuxer is known by.
    static func path(for container: String) -> String? {
        let folder = FuzzScratch.folder("seek-window")
        switch container {
        case "matroska,webm": return folder + "/input.mkv"
        case "mpegts": return folder + "/input.ts"
        case let name where name.hasPrefix("mov"): return folder + "/input.mp4"
        // The names FFmpeg gives these demuxers are also their files' extensions.
        case "mp3", "aac", "ac3", "eac3", "ogg", "flac", "wav", "aiff": return folder + "/input." + container
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
                    summary.landingsAsNeeded += 1
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
