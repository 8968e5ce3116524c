import FrameSeekCore
import FrameSeekFFmpeg

/// The sequence the MP4 file fuzz target runs on every input: the bytes written to a file
/// named `.mp4` and opened from its path, which is what runs an MP4's own readers (the box
/// walk of `MP4SampleTable` through `ByteRangeReader`, and the index scan through
/// `PayloadSkippingReader`) that media opened from memory never reaches; then two seeks and a
/// step.
///
/// Cheaper than `MediaExercise` on purpose: the readers run while the file opens, and a run a
/// few milliseconds long lets the fuzzer try many box layouts.
package enum MP4FileExercise {
    /// The file every input is written to, in this process's own folder.
    static let path = FuzzScratch.folder("mp4file") + "/input.mp4"

    @discardableResult
    package static func run(_ bytes: [UInt8]) -> MediaExerciseSummary {
        FuzzScratch.oneAtATime { runAlone(bytes) }
    }

    private static func runAlone(_ bytes: [UInt8]) -> MediaExerciseSummary {
        FuzzScratch.write(bytes, to: path)
        var summary = MediaExerciseSummary()
        let engine: FFmpegEngine
        do {
            engine = try FFmpegEngine(path: path, options: MediaExercise.options)
        } catch {
            summary.error = error
            return summary
        }
        let table = engine.frameTable
        summary.frameCount = table.frames.count
        _ = (engine.media.duration, engine.indexScanBytes, table.source)
        let targets = MediaExercise.seekTargets(in: table)
        // The middle of the table exactly, then the end by the keyframe after it: the sample
        // positions the boxes gave are read for real.
        for (target, precision) in zip([targets.dropFirst(2).first, targets.last], [SeekPrecision.exact, .nextKeyframe]) {
            guard let target else { continue }
            do {
                _ = try engine.seek(to: target, precision: precision)
                summary.landings += 1
            } catch {
                summary.seekErrors += 1
            }
        }
        if engine.step(.backward, count: 1).result.didStep { summary.steps += 1 }
        return summary
    }
}
