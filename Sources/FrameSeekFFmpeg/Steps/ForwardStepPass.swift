import FrameSeekCore

/// A pass of forward steps over many frames (`FFmpegEngine.stepForward(count:repeats:decoders:each:delivered:)`):
/// where every step goes is known from the frame table before anything is decoded, so the
/// steps' frames are landed as a batch split between decoders, and the pass falls back to
/// `FrameStepLoop` step after step when a landing fails.
struct ForwardStepPass<Output: Sendable> {
    /// The engine the pass steps on: its executor lands the steps, its batch decoders share them.
    let engine: FFmpegEngine
    /// Frames per step.
    let count: Int
    /// What to make of each step, on the thread of the decoder that landed it.
    let each: @Sendable (_ ordinal: Int, _ report: FrameStepReport, _ engine: FFmpegEngine) throws -> Output

    /// Takes up to `repeats` steps from frame `start` of a video stream's complete table on
    /// `decoders` decoders (more than one: `stepForward` sends one decoder, and audio, step
    /// by step through `FFmpegEngine.step`), handing each step's report and output to
    /// `delivered` in step order.
    func run(
        from start: Int, repeats: Int, decoders: Int,
        delivered: (_ report: FrameStepReport, _ output: Output) throws -> Void
    ) throws {
        // `each` may step on the engine, which decodes ahead on another thread: the executor is
        // reached anew after it (`FFmpegEngine.executorForBatch`), never held across it.
        let table = engine.executor.table
        var destinations: [(index: Int, moved: Int)] = []
        var edge: FrameStepUnavailableReason?
        var current = start
        while destinations.count < repeats, edge == nil {
            switch table.stepDestination(from: current, .forward, count: max(1, count)) {
            case .success(let found):
                destinations.append(found)
                current = found.index
            case .failure(let reason):
                edge = reason
            }
        }
        var done = 0
        var lastFrame = start
        do {
            let plans = try destinations.map { destination throws(LandingError) in try table.planLanding(onFrame: destination.index) }
            let moved = destinations.map(\.moved)
            let count = self.count, each = self.each
            try engine.land(plans, decoders: decoders) { position, landing, engine in
                let report = FrameStepReport(
                    result: .stepped(.forward, landedMediaTime: landing.frame.time), direction: .forward,
                    requestedCount: count, framesStepped: moved[position], frame: landing.frame,
                    framesDecoded: landing.framesDecoded, latency: landing.latency,
                    decodeErrors: landing.decodeErrors)
                return StepOutcome(report: report, output: try each(position, report, engine))
            } deliver: { run in
                for landed in run {
                    do { try delivered(landed.output.report, landed.output.output) } catch { throw DeliveryFailure(error: error) }
                    done += 1
                    lastFrame = landed.landing.frame.index
                }
            }
        } catch let failure as DeliveryFailure {
            throw failure.error
        } catch is MediaError, is LandingError {
            return try oneByOne(from: lastFrame, repeats: repeats - done, firstOrdinal: done, delivered: delivered)
        }
        if let edge {
            let report = FrameStepReport(
                result: .unavailable(edge), direction: .forward, requestedCount: count, framesStepped: 0,
                frame: engine.executorForBatch.landedFrameIndex.map { table.frames[$0] }, framesDecoded: 0, latency: .zero)
            try delivered(report, try each(done, report, engine))
        }
    }

    /// A forward step of `count` frames from frame `start`, up to `repeats` times, on the
    /// engine alone; the first step is number `firstOrdinal`.
    func oneByOne(
        from start: Int, repeats: Int, firstOrdinal: Int,
        delivered: (_ report: FrameStepReport, _ output: Output) throws -> Void
    ) throws {
        var current = start
        for ordinal in firstOrdinal..<(firstOrdinal + max(0, repeats)) {
            let report = FrameStepLoop(executor: engine.executorForBatch).step(.forward, count: count, from: current)
            try delivered(report, try each(ordinal, report, engine))
            guard report.result.didStep, let frame = report.frame else { return }
            current = frame.index
        }
    }
}

/// An error `delivered` threw, told apart from a landing's.
private struct DeliveryFailure: Error {
    let error: any Error
}

/// A step landed by one of a pass's decoders, and what `each` made of it there.
private struct StepOutcome<Output: Sendable>: Sendable {
    let report: FrameStepReport
    let output: Output
}
