/// The landing rules: where a seek lands, decided on the frame table in exact media time.
///
/// This is the one place a landing is decided. The engines only carry the plan out
/// (the FFmpeg engine's `LandingExecutor.land(_:mode:interruption:)`, Landing/LandingExecutor.swift).
///
/// 1. Clamp: a target before the first frame moves to the first frame; a target at or past
///    the end of the last frame moves to the last frame, unless missing media lies there (a
///    stretch at an edge of the timeline is not past it). The requested time stays as given.
/// 2. If a keyframe's presentation time lies in `[T - before, T + after]`, land on the
///    keyframe nearest to T (ties go to the earlier one), as Media3's SeekParameters do.
/// 3. Otherwise land on the frame covering `T - before` (for `.exact`, the frame covering T),
///    decoding forward from the random access point at or before it.
extension FrameTable {
    /// Plans the landing for `requested` at `precision`.
    ///
    /// - Throws: `LandingError.emptyStream` when the table has no frames,
    ///   `LandingError.invalidTarget` for an invalid or indefinite time.
    public func planLanding(at requested: MediaTime, precision: SeekPrecision) throws(LandingError) -> LandingPlan {
        guard let first = frames.first, let last = frames.last else { throw .emptyStream }
        try Self.checkRequest(requested, precision: precision)
        let (before, after) = precision.window

        var (clamp, target) = SeekClamp.resolve(requested, firstFrame: first.time, lastFrame: last.time, end: last.end)
        // Missing media at an edge is part of the timeline, not beyond it: a target there lands
        // on the nearest frame, flagged by the stretch (`SeekLanding.missingData`), unclamped.
        if clamp.didClamp, missingData.contains(where: { $0.contains(requested) }) {
            (clamp, target) = (.none, requested)
        }

        // Exact: `MediaTime`'s `-` rounds where the timescales' multiple passes Int32 (a target
        // to the nanosecond against 1/30000), and half a nanosecond can cross a frame's edge.
        let windowStart = ExactTime(target, minus: before)
        let landing: Int
        let onKeyframe: Bool
        if let keyframe = nearestKeyframe(to: target, before: before, after: after) {
            landing = keyframe
            onKeyframe = true
        } else {
            landing = frameIndex(coveringWhere: { ExactTime($0) <= windowStart }) ?? 0
            onKeyframe = false
        }
        guard let startPoint = randomAccessPoint(forFrame: landing) else { throw .noRandomAccessPoint }
        return LandingPlan(
            requested: requested, precision: precision, target: target, clamp: clamp,
            frameIndex: landing, randomAccessPoint: startPoint,
            landedOnKeyframeInWindow: onKeyframe)
    }

    /// Checks that `requested` is a time a seek can aim at (a number or an infinity) and that
    /// `precision`'s tolerances are zero or more: what any table, whole or a window, asks first.
    ///
    /// - Throws: `LandingError.invalidTarget` or `LandingError.invalidTolerance`.
    public static func checkRequest(_ requested: MediaTime, precision: SeekPrecision) throws(LandingError) {
        switch requested.kind {
        case .invalid, .indefinite: throw .invalidTarget(requested)
        case .numeric, .positiveInfinity, .negativeInfinity: break
        }
        let (before, after) = precision.window
        guard before >= .zero, after >= .zero, before.isNumeric || before == .positiveInfinity,
            after.isNumeric || after == .positiveInfinity
        else {
            throw .invalidTolerance(precision)
        }
    }

    /// Plans the landing on frame `index` itself: what a frame step asks for.
    ///
    /// A step moves by index, not by time, so the frame is given rather than found; the plan
    /// is the exact landing at its presentation time, decoded from its random access point.
    ///
    /// - Throws: `LandingError.frameOutOfRange` when the table has no frame `index`.
    public func planLanding(onFrame index: Int) throws(LandingError) -> LandingPlan {
        guard frames.indices.contains(index) else { throw .frameOutOfRange(index) }
        guard let startPoint = randomAccessPoint(forFrame: index) else { throw .noRandomAccessPoint }
        let time = frames[index].time
        return LandingPlan(
            requested: time, precision: .exact, target: time, clamp: .none, frameIndex: index,
            randomAccessPoint: startPoint, landedOnKeyframeInWindow: frames[index].isKeyframe)
    }

    /// The keyframe in `[target - before, target + after]` nearest to `target`, ties to the earlier.
    private func nearestKeyframe(to target: MediaTime, before: MediaTime, after: MediaTime) -> Int? {
        let keyframes = keyframePositions
        return Self.nearestKeyframe(
            count: keyframes.count, time: { frames[keyframes[$0]].time }, to: target, before: before, after: after
        )
        .map { keyframes[$0] }
    }

    /// Rule 2 on keyframe times alone: of `count` keyframes whose times `time` gives in
    /// ascending order, the position of the one in `[target - before, target + after]` nearest
    /// to `target`, ties to the earlier; nil when none lies there. The window's edges and the
    /// distances are exact (`ExactTime`). The table's own landings and a landing on the
    /// keyframes a container's index lists (`FFmpegEngine`'s Matroska Cues) decide by this one
    /// rule.
    package static func nearestKeyframe(
        count: Int, time: (Int) -> MediaTime, to target: MediaTime, before: MediaTime, after: MediaTime
    ) -> Int? {
        // Position of the first keyframe whose time is after the target.
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if time(mid) <= target { low = mid + 1 } else { high = mid }
        }
        let candidateBefore = low > 0 && ExactTime(time(low - 1)) >= ExactTime(target, minus: before) ? low - 1 : nil
        let candidateAfter = low < count && ExactTime(time(low)) <= ExactTime(target, plus: after) ? low : nil
        switch (candidateBefore, candidateAfter) {
        case (nil, nil): return nil
        case (let b?, nil): return b
        case (nil, let a?): return a
        case (let b?, let a?): return ExactTime(time(a), minus: target) < ExactTime(target, minus: time(b)) ? a : b
        }
    }
}

/// A landing decided by `FrameTable.planLanding(at:precision:)`, before any decoding.
public struct LandingPlan: Sendable, Hashable {
    /// The time the caller asked for, unclamped.
    public let requested: MediaTime
    /// The precision the caller asked for.
    public let precision: SeekPrecision
    /// The target after clamping: the time the rules were applied to.
    public let target: MediaTime
    /// Whether and where the target was clamped.
    public let clamp: SeekClamp
    /// The frame to land on, in presentation order.
    public let frameIndex: Int
    /// Where decoding must start to produce that frame.
    public let randomAccessPoint: RandomAccessPoint
    /// True when a keyframe inside the tolerance window decided the landing (rule 2).
    public let landedOnKeyframeInWindow: Bool
}

/// Why a landing could not be planned.
public enum LandingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream has no frames.
    case emptyStream
    /// The target is an invalid or indefinite time.
    case invalidTarget(MediaTime)
    /// A tolerance is negative, invalid or indefinite.
    case invalidTolerance(SeekPrecision)
    /// The stream has frames but no packet decoding could start from.
    case noRandomAccessPoint
    /// A landing on a frame index the table does not have.
    case frameOutOfRange(Int)

    /// One line for a person.
    public var description: String {
        switch self {
        case .emptyStream: return "the stream has no frames"
        case .invalidTarget(let t): return "not a seekable time: \(t)"
        case .invalidTolerance(let p): return "invalid tolerance in \(p)"
        case .noRandomAccessPoint: return "the stream has no keyframe to start decoding from"
        case .frameOutOfRange(let index): return "no frame \(index) in the stream"
        }
    }
}
