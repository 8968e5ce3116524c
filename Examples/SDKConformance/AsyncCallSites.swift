import FrameSeek

// The same calls in an `async` context, where `await` must pick the async forms: with every
// warning an error, an `await` that found only a synchronous form ("no 'async' operations
// occur within 'await'") or a result left unused fails the build, and the annotated types fail
// it if the async seek were not chosen.

/// Seeks and steps with the `async` forms and returns what they returned.
func awaitSeekAndStep(_ player: Player, to seconds: Double) async -> (outcome: SeekOutcome, step: FrameStepResult) {
    let outcome: SeekOutcome = await player.seek(to: seconds, precision: .exact)
    let step: FrameStepResult = await player.stepFrame(.forward, count: 1)
    await player.seek(to: seconds)  // a discarded outcome is no warning
    return (outcome, step)
}
