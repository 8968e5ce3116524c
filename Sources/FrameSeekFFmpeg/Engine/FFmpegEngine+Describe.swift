import FrameSeekCore

extension FFmpegEngine {
    /// The streams of media held in memory, read from its header alone: a CMAF init section
    /// (`ftyp` and `moov`, no samples) describes its streams as a whole segment does, without a
    /// frame table. FFmpeg finds no pixel format there (it is decoded, not declared), so
    /// `pixelFormat` may be nil.
    ///
    /// - Throws: `MediaError` naming `name` as opening the media does.
    package static func describe(bytes: [UInt8], name: String, options: Options) throws(MediaError) -> MediaDescription {
        FFmpegLog.installOnce()
        guard !bytes.isEmpty else { throw MediaError(path: name, reason: .emptyFile, cause: "empty file (0 bytes)") }
        let demuxer = try MediaOpener.openDemuxer(name, log: FFmpegLogSink(), memory: MemoryInput(bytes: bytes), options: options)
        let selected = try MediaOpener.selectStream(in: demuxer, requested: options.streamIndex, path: name)
        return MediaProbe.describe(demuxer, path: name, selectedStream: selected, truncation: nil)
    }
}
