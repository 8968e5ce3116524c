/// One frame of the selected stream, in presentation order.
public struct FrameEntry: Sendable, Hashable {
    /// Position in presentation order, from 0.
    public let index: Int
    /// The raw presentation timestamp, in the stream's time base.
    public let pts: Int64
    /// The presentation time on the zero-based timeline.
    public let time: MediaTime
    /// How long the frame is shown, in ticks of the stream's time base.
    public let durationTicks: Int64
    /// How long the frame is shown.
    public let duration: MediaTime
    /// Whether the frame is a keyframe (decoding can start at it).
    public let isKeyframe: Bool
    /// Position of the frame's packet in decode order, counting every packet of the stream
    /// (also those an edit list discards), from 0.
    public let decodeOrder: Int
    /// Byte offset of the frame's packet in the file, when the demuxer knows it.
    public let packetPosition: Int64?
    /// The end of the interval the frame covers: the next frame's time, or for the last
    /// frame `time + duration`. Not `time + duration` in general: a container's duration can
    /// be shorter than the gap to the next frame (Matroska rounds, VFR gaps vary), and a target
    /// in that gap is still covered by this frame.
    public internal(set) var end: MediaTime

    /// Creates an entry; the frame table builder is the only producer in practice.
    public init(
        index: Int, pts: Int64, time: MediaTime, durationTicks: Int64, duration: MediaTime,
        isKeyframe: Bool, decodeOrder: Int, packetPosition: Int64?
    ) {
        self.index = index
        self.pts = pts
        self.time = time
        self.durationTicks = durationTicks
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.decodeOrder = decodeOrder
        self.packetPosition = packetPosition
        self.end = time + duration
    }
}

/// A packet decoding can start from: a keyframe packet of the stream.
///
/// Kept apart from `FrameEntry` because an edit list can discard the keyframe that the first
/// presented frames depend on: it is a place to start decoding without being a frame.
public struct RandomAccessPoint: Sendable, Hashable {
    /// The packet's raw presentation timestamp.
    public let pts: Int64
    /// The packet's raw decode timestamp, when known.
    public let dts: Int64?
    /// Position of the packet in decode order.
    public let decodeOrder: Int
    /// The frame this packet presents, or nil when an edit list discards it.
    public let frameIndex: Int?

    /// Creates a random access point.
    public init(pts: Int64, dts: Int64?, decodeOrder: Int, frameIndex: Int?) {
        self.pts = pts
        self.dts = dts
        self.decodeOrder = decodeOrder
        self.frameIndex = frameIndex
    }
}
