internal import CFFmpeg
import FrameSeekCore

extension Demuxer {
    /// One stream of an open demuxer (an `AVStream`): what its container and FFmpeg's probe say
    /// of it, in Swift values. It keeps its demuxer, and so the stream, alive.
    struct Stream {
        /// The stream's index in the container, as ffprobe numbers streams.
        let index: Int
        let pointer: UnsafeMutablePointer<AVStream>
        /// Owns `pointer`: the format context is closed only after every stream value is gone.
        private let demuxer: Demuxer

        fileprivate init(_ demuxer: Demuxer, index: Int) {
            self.demuxer = demuxer
            self.index = index
            pointer = demuxer.avStream(index)
        }

        /// The codec parameters FFmpeg probed for the stream.
        var parameters: AVCodecParameters { pointer.pointee.codecpar.pointee }

        /// The container's ID of the stream (an MP4 track ID).
        var id: Int { Int(pointer.pointee.id) }

        /// The time base of the stream's timestamps.
        var timeBase: TimeBase { pointer.pointee.time_base.timeBase }

        /// Video, audio, subtitles, ...
        var mediaType: StreamDescription.MediaType { StreamDescription.MediaType(parameters.codec_type) }

        /// Whether the stream is an attached picture (`AV_DISPOSITION_ATTACHED_PIC`): the cover art
        /// of an MP3's ID3 `APIC`, a FLAC `PICTURE` block or an M4A's `covr`, one still picture
        /// with no timeline, which FFmpeg lists as a video stream.
        var isAttachedPicture: Bool { pointer.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 }

        /// FFmpeg's number for the media type (`AVMediaType`), as index cache entries record it.
        var mediaTypeNumber: Int64 { Int64(parameters.codec_type.rawValue) }

        /// FFmpeg's codec of the stream (`AVCodecID`).
        var codecID: CodecID { CodecID(rawValue: Int64(parameters.codec_id.rawValue)) }

        /// The codec's name as ffprobe prints it (`avcodec_get_name`: `h264`, `aac`, ...).
        var codecName: String { String(cString: avcodec_get_name(parameters.codec_id)) }

        /// The frames the container states the stream has (`nb_frames`); 0 when it states none.
        var frameCount: Int { Int(pointer.pointee.nb_frames) }

        /// The stream's first timestamp as the container states it; nil when unknown.
        var startTime: Int64? { pointer.pointee.start_time == fs_nopts_value() ? nil : pointer.pointee.start_time }

        /// The stream's duration in its time base as the container states it (an MP4 track's);
        /// nil when unknown or not positive.
        var duration: Int64? {
            let duration = pointer.pointee.duration
            return duration != fs_nopts_value() && duration > 0 ? duration : nil
        }

        /// A video stream's width in pixels.
        var width: Int { Int(parameters.width) }
        /// A video stream's height in pixels.
        var height: Int { Int(parameters.height) }

        /// The codec's out-of-band setup bytes (an `avcC`, or Annex B parameter sets).
        var extradata: [UInt8] {
            guard let bytes = parameters.extradata, parameters.extradata_size > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: Int(parameters.extradata_size)))
        }

        /// A video stream's pixel format as ffprobe names it; nil when unknown.
        var pixelFormatName: String? { PixelFormat(rawValue: parameters.format).knownName }

        /// The ratio of a pixel's width to its height, as stated; 0/1 or 0/0 when unstated.
        var sampleAspectRatio: TimeBase { parameters.sample_aspect_ratio.timeBase }

        /// An audio stream's samples a second; 0 when unknown.
        var sampleRate: Int32 { parameters.sample_rate }

        /// An audio stream's channels.
        var channels: Int { Int(fs_codecpar_channels(pointer.pointee.codecpar)) }

        /// The display matrix the container states for a video stream (MP4 `tkhd`, Matroska
        /// projection), with the rotation FFmpeg reads from it; nil when none is stated.
        var displayMatrix: DisplayMatrix? {
            guard let matrix = fs_stream_display_matrix(pointer) else { return nil }
            return DisplayMatrix(
                entries: Array(UnsafeBufferPointer(start: matrix, count: 9)), rotation: av_display_rotation_get(matrix))
        }
    }

    /// Stream `index`, which must be in `0..<streamCount`.
    func stream(_ index: Int) -> Stream { Stream(self, index: index) }

    /// Whether `stream` is a fragmented MP4's: an MP4 or MOV whose `moov` states no samples for
    /// it, its samples listed in `moof` boxes.
    func isFragmentedMP4(_ stream: Stream) -> Bool { formatName.hasPrefix("mov") && stream.frameCount == 0 }

    /// `av_find_best_stream` for a media type: FFmpeg's own choice, or nil. Attached pictures
    /// (cover art) are never chosen: `av_find_best_stream` returns a cover as a file's video when
    /// it has no other, yet a cover is one still, not the media's pictures. When FFmpeg's choice
    /// is a cover, the first other stream of the type is chosen, or none.
    func bestStream(of type: StreamDescription.MediaType) -> Int? {
        let index = av_find_best_stream(context, type.ffmpegValue, -1, -1, nil, 0)
        guard index >= 0 else { return nil }
        guard stream(Int(index)).isAttachedPicture else { return Int(index) }
        return (0..<streamCount).first { candidate in
            let other = stream(candidate)
            return other.mediaType == type && !other.isAttachedPicture
        }
    }
}

/// A stream's display matrix (`AV_PKT_DATA_DISPLAYMATRIX`): the 3 x 3 matrix in row order, in
/// FFmpeg's fixed point, and the rotation FFmpeg reads from it (`av_display_rotation_get`,
/// degrees counterclockwise; NaN for a degenerate matrix).
struct DisplayMatrix {
    let entries: [Int32]
    let rotation: Double
}

/// An FFmpeg codec (`AVCodecID`), by FFmpeg's number for it.
struct CodecID: RawRepresentable, Hashable, Sendable {
    let rawValue: Int64
}

extension StreamDescription.MediaType {
    fileprivate init(_ type: AVMediaType) {
        switch type {
        case AVMEDIA_TYPE_VIDEO: self = .video
        case AVMEDIA_TYPE_AUDIO: self = .audio
        case AVMEDIA_TYPE_SUBTITLE: self = .subtitle
        case AVMEDIA_TYPE_DATA: self = .data
        case AVMEDIA_TYPE_ATTACHMENT: self = .attachment
        default: self = .unknown
        }
    }

    fileprivate var ffmpegValue: AVMediaType {
        switch self {
        case .video: AVMEDIA_TYPE_VIDEO
        case .audio: AVMEDIA_TYPE_AUDIO
        case .subtitle: AVMEDIA_TYPE_SUBTITLE
        case .data: AVMEDIA_TYPE_DATA
        case .attachment: AVMEDIA_TYPE_ATTACHMENT
        case .unknown: AVMEDIA_TYPE_UNKNOWN
        }
    }
}
