import FrameSeek

/// What `frameseek seek` needs of an engine, so one loop serves files (`FFmpegEngine`) and HLS
/// playlists (`HLSEngine`) alike.
///
/// The two engines already share `PlaybackEngine` (seek, media, frame table); the picture, the
/// sound and the date of a landing are not part of it, because the player has no use for them.
protocol SeekingEngine: PlaybackEngine {
    /// The landed frame's picture; nil before any landing or for an audio stream.
    func landedPicture() throws(MediaError) -> DecodedPicture?
    /// The landed frame's samples; nil before any landing or for a video stream.
    func landedAudio() throws(MediaError) -> DecodedAudio?
    /// The engine that decoded the landed picture, which `writePNG` converts it with: for a
    /// playlist that is the landed segment's engine, not the playlist's.
    var pictureEngine: FFmpegEngine? { get }
    /// The playlist's seekable window; nil for a file, which has no dates and no live edge.
    var dateWindow: LiveSeekWindow? { get }
    /// The EXT-X-PROGRAM-DATE-TIME date of the landed frame; nil for a file, before any
    /// landing, or when the playlist has no dates.
    var landedDate: ProgramDate? { get }
    /// The variant of a multivariant playlist the landings are in; nil for a file or a media
    /// playlist.
    var variant: (position: Int, variant: HLSVariant)? { get }
}

extension FFmpegEngine: SeekingEngine {
    /// The file's engine decodes its own pictures.
    var pictureEngine: FFmpegEngine? { self }
    /// A file has no window.
    var dateWindow: LiveSeekWindow? { nil }
    /// A file has no dates.
    var landedDate: ProgramDate? { nil }
    /// A file has no variants.
    var variant: (position: Int, variant: HLSVariant)? { nil }
}

extension HLSEngine: SeekingEngine {
    /// The landed segment's engine decoded the picture.
    var pictureEngine: FFmpegEngine? { currentSegmentEngine }
    /// The window as of the playlist's load.
    var dateWindow: LiveSeekWindow? { liveSeekWindow }
}
