/// A decoder that can seek: what `Player` drives, and what the FFmpeg engine implements.
///
/// Engines are not `Sendable`: each owns decoder state that one caller at a time may touch.
/// Whoever holds an engine keeps it on one executor.
public protocol PlaybackEngine: AnyObject {
    /// The opened media.
    var media: MediaDescription { get }
    /// The selected stream's frames in presentation order.
    var frameTable: FrameTable { get }
    /// The frame the engine last landed or stepped on, nil before any.
    var currentFrameIndex: Int? { get }
    /// Seeks as the landing rules say and decodes the landed frame. The engine polls
    /// `interruption` while it decodes and throws `MediaError` with reason `.interrupted` as
    /// soon as it is set, leaving the previous landing current.
    func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding
    /// Steps `count` frames in presentation order from the current frame. Never throws:
    /// a step that cannot happen reports a typed reason.
    func step(_ direction: FrameStepDirection, count: Int) -> FrameStepReport
}

extension PlaybackEngine {
    /// Seeks with nothing able to interrupt it.
    public func seek(to time: MediaTime, precision: SeekPrecision) throws(MediaError) -> SeekLanding {
        try seek(to: time, precision: precision, interruption: nil)
    }
}
