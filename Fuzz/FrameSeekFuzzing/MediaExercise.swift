import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekImages

/// What one run of `MediaExercise` came to, kept so a replaying test can say what each
/// regression input does now.
package struct MediaExerciseSummary: Sendable, CustomStringConvertible {
    /// The typed error that ended the run early (the open failing, most often), nil when every
    /// step ran.
    package var error: MediaError?
    /// The frames the engine indexed, 0 when it did not open.
    package var frameCount = 0
    /// Seeks that landed.
    package var landings = 0
    /// Of those, the seeks that landed in media opened as needed from a file
    /// (`SeekWindowExercise`).
    package var landingsAsNeeded = 0
    /// Seeks that threw a `MediaError` (each is typed; the sequence goes on after it).
    package var seekErrors = 0
    /// Steps that moved.
    package var steps = 0
    /// Whether a thumbnail was made.
    package var thumbnail = false

    package var description: String {
        "frames \(frameCount), landings \(landings) (\(landingsAsNeeded) as needed), seek errors \(seekErrors), steps \(steps), thumbnail \(thumbnail)"
            + (error.map { ", error: \($0)" } ?? "")
    }
}

/// The sequence the media fuzz target runs on every input, and the regression tests replay on
/// every file of `Fixtures/fuzz-regressions`: open the bytes from memory, probe, seek with each
/// precision (and before the start and past the end), step both ways, convert and hash the
/// landed frame, seek and step again in seek windows from a file (`SeekWindowExercise`), and
/// make a thumbnail with an engine of its own.
///
/// Every failure must be a thrown `MediaError` or a typed step reason; a trap, a crash, a
/// sanitizer report, a hang or unbounded memory is a bug, whatever the bytes.
package enum MediaExercise {
    /// The engine options: one decoder thread (as by default; the fuzzer's runs stay
    /// deterministic) and a small frame cache, so a run's memory is bounded by the decoder's
    /// own needs rather than by the cache.
    package static let options = FFmpegEngine.Options(threads: 1, cacheBytes: 8 << 20)

    /// The precisions every input is seeked with, one seek each.
    package static let precisions: [SeekPrecision] = [
        .exact, .previousKeyframe, .nextKeyframe,
        .nearestKeyframe(tolerance: MediaTime(value: 1, timescale: 1)),
        .tolerance(before: MediaTime(value: 1, timescale: 2), after: MediaTime(value: 1, timescale: 4))
    ]

    /// Runs the sequence on `bytes`; `name` is what FFmpeg probes by (an extension helps it as
    /// a file's would) and what errors name.
    @discardableResult
    package static func run(_ bytes: [UInt8], name: String = "fuzz-input") -> MediaExerciseSummary {
        var summary = MediaExerciseSummary()
        let engine: FFmpegEngine
        do {
            engine = try FFmpegEngine(bytes: bytes, name: name, options: options)
        } catch {
            summary.error = error
            return summary
        }
        // The probe: everything `frameseek probe` prints is read here.
        let media = engine.media
        _ = (media.container, media.duration, media.startTime, media.streams.count, media.selectedStream.codec)
        let table = engine.frameTable
        summary.frameCount = table.frames.count
        _ = (table.seekableRange, table.keyframeIndices.count)

        let targets = seekTargets(in: table)
        for (ordinal, target) in targets.enumerated() {
            let precision = precisions[ordinal % precisions.count]
            do {
                _ = try engine.seek(to: target, precision: precision)
                summary.landings += 1
            } catch {
                summary.seekErrors += 1
            }
        }
        // Conversion and hashing of whatever the last seek landed on.
        do {
            _ = try engine.landedPicture()?.md5
            _ = try engine.landedImage()
        } catch {
            summary.seekErrors += 1
        }
        for (direction, count) in [(FrameStepDirection.forward, 1), (.forward, 3), (.backward, 1), (.backward, 5), (.forward, 2)] {
            if engine.step(direction, count: count).result.didStep { summary.steps += 1 }
        }
        SeekWindowExercise.run(bytes, container: media.container, targets: targets, into: &summary)

        guard media.selectedStream.mediaType == .video else { return summary }
        do {
            let generator = try ThumbnailGenerator(
                engine: FFmpegEngine(bytes: bytes, name: name, options: options))
            let middle = targets.count > 2 ? targets[2] : .zero
            _ = try generator.thumbnail(at: middle)
            summary.thumbnail = true
        } catch {
            summary.error = error
        }
        return summary
    }

    /// One target per precision inside the table, at the first and last frames and in
    /// between (mid-frame, so the tolerances matter), then one before the start and one past
    /// the end, which clamp.
    static func seekTargets(in table: FrameTable) -> [MediaTime] {
        let frames = table.frames
        guard let first = frames.first, let last = frames.last else { return [] }
        var targets: [MediaTime] = []
        for share in 0..<precisions.count {
            let frame = frames[(frames.count - 1) * share / max(1, precisions.count - 1)]
            // Halfway into the frame when its duration is known and finite.
            let half =
                frame.duration.isNumeric && frame.duration.timescale < Int32.max / 2
                ? MediaTime(value: frame.duration.value, timescale: frame.duration.timescale * 2) : .zero
            targets.append(frame.time + half)
        }
        targets.append(first.time - MediaTime(value: 5, timescale: 1))
        targets.append(last.end + MediaTime(value: 5, timescale: 1))
        return targets
    }
}
