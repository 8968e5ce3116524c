internal import CFFmpeg
import FrameSeekCore

/// Turns an open `AVFormatContext` into FrameSeek's `MediaDescription`.
enum MediaProbe {
    static func describe(
        _ demuxer: Demuxer, path: String, selectedStream: Int, truncation: Truncation?,
        missingData: [MissingData] = []
    ) -> MediaDescription {
        let streams = (0..<demuxer.streamCount).map { describeStream(demuxer.stream($0), index: $0) }
        let microseconds = TimeBase(numerator: 1, denominator: fs_time_base())
        return MediaDescription(
            path: path, container: demuxer.formatName,
            startTime: microseconds.time(ofTicks: demuxer.startTimeMicroseconds ?? 0),
            duration: demuxer.durationMicroseconds.map { microseconds.time(ofTicks: $0) },
            streams: streams, selectedStreamIndex: selectedStream, truncation: truncation,
            missingData: missingData)
    }

    static func mediaType(_ type: AVMediaType) -> StreamDescription.MediaType {
        switch type {
        case AVMEDIA_TYPE_VIDEO: return .video
        case AVMEDIA_TYPE_AUDIO: return .audio
        case AVMEDIA_TYPE_SUBTITLE: return .subtitle
        case AVMEDIA_TYPE_DATA: return .data
        case AVMEDIA_TYPE_ATTACHMENT: return .attachment
        default: return .unknown
        }
    }

    private static func describeStream(_ stream: UnsafeMutablePointer<AVStream>, index: Int) -> StreamDescription {
        let parameters = stream.pointee.codecpar.pointee
        let type = mediaType(parameters.codec_type)
        let isVideo = type == .video
        let isAudio = type == .audio
        let pixelFormat = isVideo ? av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) } : nil
        let sar = parameters.sample_aspect_ratio
        return StreamDescription(
            index: index, mediaType: type, codec: String(cString: avcodec_get_name(parameters.codec_id)),
            timeBase: stream.pointee.time_base.timeBase,
            width: isVideo ? Int(parameters.width) : nil, height: isVideo ? Int(parameters.height) : nil,
            pixelFormat: pixelFormat,
            sampleRate: isAudio ? Int(parameters.sample_rate) : nil,
            channels: isAudio ? Int(fs_codecpar_channels(stream.pointee.codecpar)) : nil,
            orientation: isVideo ? orientation(of: stream) : .identity,
            sampleAspectRatio: sar.num > 0 && sar.den > 0 && sar.num != sar.den ? sar.timeBase : nil,
            color: isVideo ? color(of: stream) : nil)
    }

    /// The display matrix read the way the ffmpeg command line reads it for autorotation, so
    /// FrameSeek's upright picture is the one `ffmpeg -i` shows.
    static func orientation(of stream: UnsafeMutablePointer<AVStream>) -> DisplayOrientation {
        guard let matrix = fs_stream_display_matrix(stream) else { return .identity }
        let rotation = av_display_rotation_get(matrix)
        // NaN for a degenerate matrix (a zero scale): no rotation FFmpeg would apply either.
        guard rotation.isFinite else { return .identity }
        var theta = -rotation.rounded()
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        if abs(theta - 90) < 1 { return matrix[3] > 0 ? .transpose : .rotate90Clockwise }
        if abs(theta - 180) < 1 {
            switch (matrix[0] < 0, matrix[4] < 0) {
            case (true, true): return .rotate180
            case (true, false): return .flipHorizontal
            case (false, true): return .flipVertical
            case (false, false): return .identity
            }
        }
        if abs(theta - 270) < 1 { return matrix[3] < 0 ? .transverse : .rotate90CounterClockwise }
        if abs(theta) < 1 && matrix[4] < 0 { return .flipVertical }
        return .identity
    }
}
