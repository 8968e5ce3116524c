/// Where a frame step goes, decided on the frame table: by index in presentation order,
/// never by `duration x count`, which drifts on variable frame rate.
extension FrameTable {
    /// The destination of a step of `count` frames from frame `current`.
    ///
    /// Near an edge the step moves as far as it can; at the edge itself it is unavailable.
    public func stepDestination(
        from current: Int, _ direction: FrameStepDirection,
        count: Int
    ) -> Result<(index: Int, moved: Int), FrameStepUnavailableReason> {
        precondition(count >= 1, "a step moves at least one frame")
        switch direction {
        case .forward:
            let last = frames.count - 1
            guard current < last else { return .failure(.endOfStream) }
            let (sum, overflow) = current.addingReportingOverflow(count)
            let index = overflow ? last : min(last, sum)
            return .success((index, index - current))
        case .backward:
            guard current > 0 else { return .failure(.startOfStream) }
            let (difference, overflow) = current.subtractingReportingOverflow(count)
            let index = overflow ? 0 : max(0, difference)
            return .success((index, current - index))
        }
    }
}
