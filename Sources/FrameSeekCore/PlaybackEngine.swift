/// A decoder that can seek: what `Player` drives, and what the FFmpeg engine implements.
///
/// Engines are not `Sendable`: each owns decoder state that one caller at a time may touch.
/// Whoever holds an engine keeps it on one executor.
public protocol PlaybackEngine: AnyObject {
    /// The opened media.
    var media: MediaDescription { get }
    /// The selected stream's frames in presentation order, indexed first if they are not yet.
    var frameTable: FrameTable { get }
    /// The frame table when it is already indexed, nil when reading it would fetch media (a
    /// playlist opened as needed): what a player reads at load, so that loading costs no more
    /// than the engine's open.
    var indexedFrameTable: FrameTable? { get }
    /// Where seeks may land, known without the frame table: the table's range, or a playlist's
    /// window.
    var seekableRange: Range<MediaTime>? { get }
    /// The frame the engine last landed or stepped on, nil before any.
    var currentFrameIndex: Int? { get }
    /// That frame, known without numbering the frames (a playlist or a file opened as needed
    /// lands on frames it has not numbered): its time and duration say when the next is due.
    /// Nil before any landing. Its `index` is the stream's only when `currentFrameIndex` is set.
    var currentFrame: FrameEntry? { get }
    /// That frame's time; nil before any landing.
    var currentFrameTime: MediaTime? { get }
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
    /// An engine that indexes at its open has its table.
    public var indexedFrameTable: FrameTable? { frameTable }
    /// The table's range.
    public var seekableRange: Range<MediaTime>? { frameTable.seekableRange }
    /// The current frame in the table.
    public var currentFrame: FrameEntry? { currentFrameIndex.map { frameTable.frames[$0] } }
    /// The current frame's time.
    public var currentFrameTime: MediaTime? { currentFrame?.time }

    /// Seeks with nothing able to interrupt it.
    public func seek(to time: MediaTime, precision: SeekPrecision) throws(MediaError) -> SeekLanding {
        try seek(to: time, precision: precision, interruption: nil)
    }
}
