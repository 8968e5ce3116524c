import FrameSeekCore

/// Turns an open demuxer into FrameSeek's `MediaDescription`.
enum MediaProbe {
    static func describe(
        _ demuxer: Demuxer, path: String, selectedStream: Int, truncation: Truncation?,
        missingData: [MissingData] = []
    ) -> MediaDescription {
        let streams = (0..<demuxer.streamCount).map { describeStream(demuxer.stream($0)) }
        let microseconds = TimeBase.microseconds
        return MediaDescription(
            path: path, container: demuxer.formatName,
            startTime: microseconds.time(ofTicks: demuxer.startTimeMicroseconds ?? 0),
            duration: demuxer.durationMicroseconds.map { microseconds.time(ofTicks: $0) },
            streams: streams, selectedStreamIndex: selectedStream, truncation: truncation,
            missingData: missingData)
    }

    private static func describeStream(_ stream: Demuxer.Stream) -> StreamDescription {
        let type = stream.mediaType
        let isVideo = type == .video
        let isAudio = type == .audio
        let sar = stream.sampleAspectRatio
        return StreamDescription(
            index: stream.index, mediaType: type, codec: stream.codecName,
            timeBase: stream.timeBase,
            width: isVideo ? stream.width : nil, height: isVideo ? stream.height : nil,
            pixelFormat: isVideo ? stream.pixelFormatName : nil,
            sampleRate: isAudio ? Int(stream.sampleRate) : nil,
            channels: isAudio ? stream.channels : nil,
            orientation: isVideo ? orientation(of: stream.displayMatrix) : .identity,
            sampleAspectRatio: sar.numerator > 0 && sar.denominator > 0 && sar.numerator != sar.denominator ? sar : nil,
            color: isVideo ? color(of: stream) : nil, isAttachedPicture: stream.isAttachedPicture)
    }

    /// The display matrix read the way the ffmpeg command line reads it for autorotation, so
    /// FrameSeek's upright picture is the one `ffmpeg -i` shows.
    static func orientation(of displayMatrix: DisplayMatrix?) -> DisplayOrientation {
        guard let displayMatrix else { return .identity }
        let matrix = displayMatrix.entries, rotation = displayMatrix.rotation
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
