/// What a media file holds, as `frameseek probe` reports it.
public struct MediaDescription: Sendable, Hashable {
    /// The file or URL as opened.
    public let path: String
    /// The demuxer's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `mpegts`, `matroska,webm`, ...).
    public let container: String
    /// The container's start time: time zero of the timeline, in seconds since the raw
    /// timestamps' zero.
    public let startTime: MediaTime
    /// The container's duration, when it states one.
    public let duration: MediaTime?
    /// Every stream, in file order.
    public let streams: [StreamDescription]
    /// The stream FrameSeek seeks in.
    public let selectedStreamIndex: Int
    /// Set when the selected stream's data ends before the container says it does: the file
    /// was cut short. Nil for a file read to its stated end.
    public let truncation: Truncation?
    /// Stretches of the selected stream that could not be read at all (an HLS segment that
    /// failed to open), in time order; empty for intact media.
    public let missingData: [MissingData]

    /// Creates a description.
    public init(
        path: String, container: String, startTime: MediaTime, duration: MediaTime?,
        streams: [StreamDescription], selectedStreamIndex: Int, truncation: Truncation? = nil,
        missingData: [MissingData] = []
    ) {
        self.path = path
        self.container = container
        self.startTime = startTime
        self.duration = duration
        self.streams = streams
        self.selectedStreamIndex = selectedStreamIndex
        self.truncation = truncation
        self.missingData = missingData
    }

    /// The selected stream's description.
    public var selectedStream: StreamDescription { streams[selectedStreamIndex] }

    /// This description with `truncation`: what a seek that read to the end of the stream
    /// found, when the open read too little to tell (a seek window).
    public func with(truncation: Truncation) -> MediaDescription {
        MediaDescription(
            path: path, container: container, startTime: startTime, duration: duration, streams: streams,
            selectedStreamIndex: selectedStreamIndex, truncation: truncation, missingData: missingData)
    }
}

/// One stream of a media file.
public struct StreamDescription: Sendable, Hashable {
    /// What a stream carries.
    public enum MediaType: String, Sendable, Hashable {
        /// Pictures: what FrameSeek seeks in first.
        case video
        /// Sound: seeked in when there is no video.
        case audio
        /// Text tracks, listed but not seeked in.
        case subtitle
        /// Timed metadata, listed but not seeked in.
        case data
        /// Fonts and the like, listed but not seeked in.
        case attachment
        /// Anything FFmpeg cannot classify.
        case unknown
    }

    /// The absolute stream index, as ffprobe numbers streams.
    public let index: Int
    /// What the stream carries.
    public let mediaType: MediaType
    /// The codec's short name (`h264`, `hevc`, `vp9`, `av1`, `aac`, ...).
    public let codec: String
    /// The unit of the stream's raw timestamps.
    public let timeBase: TimeBase
    /// Coded width and height, for video.
    public let width: Int?
    /// Coded height, for video.
    public let height: Int?
    /// The decoder's pixel format name (`yuv420p`, `yuv420p10le`, ...), for video.
    public let pixelFormat: String?
    /// Samples per second, for audio.
    public let sampleRate: Int?
    /// Channel count, for audio.
    public let channels: Int?
    /// The display transform the container asks for, for video.
    public let orientation: DisplayOrientation
    /// The sample (pixel) aspect ratio, when not square.
    public let sampleAspectRatio: TimeBase?
    /// The transfer, primaries, matrix and range, and HDR metadata, for video; nil for audio.
    public let color: ColorDescription?
    /// Whether the stream is an attached picture: cover art (an MP3's ID3 picture, a FLAC
    /// picture block, an M4A's `covr`), one still listed as a video stream. It is never chosen
    /// as the stream to seek in.
    public let isAttachedPicture: Bool

    /// Creates a stream description.
    public init(
        index: Int, mediaType: MediaType, codec: String, timeBase: TimeBase, width: Int?,
        height: Int?, pixelFormat: String?, sampleRate: Int?, channels: Int?,
        orientation: DisplayOrientation, sampleAspectRatio: TimeBase?, color: ColorDescription? = nil,
        isAttachedPicture: Bool = false
    ) {
        self.index = index
        self.mediaType = mediaType
        self.codec = codec
        self.timeBase = timeBase
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.sampleRate = sampleRate
        self.channels = channels
        self.orientation = orientation
        self.sampleAspectRatio = sampleAspectRatio
        self.color = color
        self.isAttachedPicture = isAttachedPicture
    }
}

/// How a file was found cut short: where its readable data ends and what the container
/// promised.
public struct Truncation: Sendable, Hashable, CustomStringConvertible {
    /// The end of the last frame that could be read, on the zero-based timeline.
    public let readableEnd: MediaTime
    /// The duration the container or the stream's header states, nil when the container
    /// states none (MPEG-TS: there the cut shows as an incomplete last packet).
    public let statedDuration: MediaTime?
    /// The evidence, in words ("the last 188-byte packet is incomplete").
    public let evidence: String

    /// Creates a truncation fact.
    public init(readableEnd: MediaTime, statedDuration: MediaTime?, evidence: String) {
        self.readableEnd = readableEnd
        self.statedDuration = statedDuration
        self.evidence = evidence
    }

    /// One phrase for a person: "truncated: readable to 2.629 s of 5.375 s stated (...)".
    public var description: String {
        let readable = readableEnd.secondsToTheMillisecond
        if let statedDuration {
            let stated = statedDuration.secondsToTheMillisecond
            return "truncated: readable to \(readable) s of \(stated) s stated (\(evidence))"
        }
        return "truncated: readable to \(readable) s (\(evidence))"
    }
}

extension MediaTime {
    /// Seconds rounded to the millisecond, for the one-phrase descriptions of damage.
    var secondsToTheMillisecond: Double { (seconds * 1000).rounded() / 1000 }
}
