// The README's "The Player in ten lines", line for line, so that it compiles against the API as
// it is, with every warning an error, as the SDK's documents beside it do.
import Foundation
import FrameSeek

/// The README's ten lines, in a function of their own: compiled, not run.
public func readmeTenLines() async throws {
    let player = Player()                                    // decodes with FFmpeg
    try await player.load(URL(fileURLWithPath: "talk.mp4"))
    let outcome = await player.seek(to: 92.5, precision: .exact)
    print(outcome.landedTime, outcome.accuracy.delta, outcome.accuracy.withinRequestedTolerance)
    player.seek(to: 92.5, precision: .nearestKeyframe(tolerance: 0.5)) { print($0.landedMediaTime) }
    guard let scrub = player.scrubSession else { return }
    scrub.beginScrubbing(at: player.getCurrentTime())
    scrub.updateScrubbing(to: 40.0)                          // no seek: a drag lands once, at its end
    scrub.endScrubbing(at: 41.5, precision: .exact) { print($0.sampleCount) }
    let step = await player.stepFrame(.backward, count: 1)   // .stepped, or .unavailable(reason)
    print(step)
}
