/// A preview picture for a proposed scrub position.
public struct ScrubPreview: Sendable, Hashable {
    /// The proposed time.
    public let requestedTime: MediaTime
    /// The time of the frame shown.
    public let actualTime: MediaTime
    /// The picture, upright, in the display aspect.
    public let image: RGBImage

    /// Creates a preview.
    public init(requestedTime: MediaTime, actualTime: MediaTime, image: RGBImage) {
        self.requestedTime = requestedTime
        self.actualTime = actualTime
        self.image = image
    }
}

/// Makes scrub previews with a decoder of its own: asking for one never moves the playhead.
/// `FrameSeekImages.ThumbnailPreviewProvider` is the FFmpeg-backed one.
public protocol ScrubPreviewProvider: Sendable {
    /// The preview for `time`, or nil when none can be made.
    func preview(at time: MediaTime) async -> ScrubPreview?
}
