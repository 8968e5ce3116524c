internal import CFFmpeg
import FrameSeekCore

/// An owned `AVPacket`, freed with `av_packet_free`.
///
/// Not Sendable: a packet belongs to the engine that reads it.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() {
        guard let packet = av_packet_alloc() else { fatalError("av_packet_alloc: out of memory") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var streamIndex: Int { Int(pointer.pointee.stream_index) }
    /// The raw PTS, nil for AV_NOPTS_VALUE.
    var pts: Int64? { pointer.pointee.pts == fs_nopts_value() ? nil : pointer.pointee.pts }
    /// The raw DTS, nil for AV_NOPTS_VALUE.
    var dts: Int64? { pointer.pointee.dts == fs_nopts_value() ? nil : pointer.pointee.dts }
    var duration: Int64 { pointer.pointee.duration }
    /// The payload's size in bytes.
    var size: Int64 { Int64(pointer.pointee.size) }
    /// Byte offset in the file, nil when unknown (-1).
    var position: Int64? { pointer.pointee.pos < 0 ? nil : pointer.pointee.pos }
    var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    /// Set by demuxers for packets an edit list removes from presentation.
    var isDiscarded: Bool { pointer.pointee.flags & AV_PKT_FLAG_DISCARD != 0 }
    var isCorrupt: Bool { pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 }
    /// The samples the demuxer tells the decoder to drop from this packet's frame
    /// (`AV_PKT_DATA_SKIP_SAMPLES`): priming at the start of a stream, padding at its end.
    /// Nil when the packet carries no such side data.
    var sampleTrim: SampleTrim? {
        var start: UInt32 = 0, end: UInt32 = 0
        guard fs_packet_skip_samples(pointer, &start, &end) != 0 else { return nil }
        return SampleTrim(start: Int64(start), end: Int64(end))
    }

    func unref() { av_packet_unref(pointer) }

    /// Makes this packet another reference to `other`'s data (no bytes are copied).
    ///
    /// - Throws: `FFmpegError` from `av_packet_ref` (out of memory); the packet is then empty.
    func reference(_ other: Packet) throws(FFmpegError) {
        try check(av_packet_ref(pointer, other.pointer), "av_packet_ref")
    }
}

/// Samples libavcodec drops from the frame of one audio packet, as its side data says.
struct SampleTrim: Sendable, Hashable {
    /// Samples dropped from the start (and from the frames after, while more remain).
    let start: Int64
    /// Samples dropped from the end.
    let end: Int64
}

/// An owned `AVFrame`, freed with `av_frame_free`.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() {
        guard let frame = av_frame_alloc() else { fatalError("av_frame_alloc: out of memory") }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The frame's PTS, falling back to FFmpeg's best-effort guess when the decoder gave none.
    var pts: Int64? {
        let frame = pointer.pointee
        if frame.pts != fs_nopts_value() { return frame.pts }
        if frame.best_effort_timestamp != fs_nopts_value() { return frame.best_effort_timestamp }
        return nil
    }

    /// Whether the decoder marked the frame a keyframe.
    var isKeyframe: Bool { fs_frame_is_keyframe(pointer) != 0 }

    /// Whether the decoder said this picture is not a clean decode: it flagged the frame
    /// corrupt, or set decode error bits (concealment, missing reference, invalid bitstream).
    var decoderFlaggedDamage: Bool { fs_frame_is_corrupt(pointer) != 0 || fs_frame_decode_error_flags(pointer) != 0 }

    /// The frame's duration in its time base, as the packet gave it; 0 when unknown.
    var duration: Int64 { fs_frame_duration(pointer) }

    /// The byte position of the packet the frame came from, nil when unknown. Where FFmpeg
    /// deprecates the frame's own packet position, `Decoder` carries it through `AVPacket.opaque`;
    /// see `fs_frame_packet_position`.
    var packetPosition: Int64? {
        let position = fs_frame_packet_position(pointer)
        return position < 0 ? nil : position
    }

    /// The frame's duration in ticks of `timeBase`: its own when it has one, else its audio
    /// samples at `sampleRate`; 0 or less when it has neither.
    func duration(orSamplesAt sampleRate: Int32, in timeBase: TimeBase) -> Int64 {
        let own = duration
        guard own <= 0, sampleRate > 0 else { return own }
        return TimeBase.samples(at: sampleRate).rescale(Int64(pointer.pointee.nb_samples), to: timeBase)
    }

    /// An audio frame's samples a second; 0 for video.
    var sampleRate: Int32 { pointer.pointee.sample_rate }

    /// Whether `[pts, pts + duration)` contains `target`; the duration is the packet's, else
    /// the audio samples' in the packet time base.
    func covers(_ target: Int64) -> Bool {
        guard let pts, pts <= target else { return false }
        let duration = duration(orSamplesAt: sampleRate, in: pointer.pointee.time_base.timeBase)
        return duration > 0 && target < pts &+ duration
    }

    func unref() { av_frame_unref(pointer) }

    /// Makes this frame another reference to `other`'s buffers (no pixels are copied).
    ///
    /// - Throws: `FFmpegError` from `av_frame_ref` (out of memory); the frame is then empty.
    func reference(_ other: Frame) throws(FFmpegError) {
        av_frame_unref(pointer)
        try check(av_frame_ref(pointer, other.pointer), "av_frame_ref")
    }

    /// Bytes held by the frame's buffers: what keeping it in a cache costs.
    var byteCount: Int {
        var total = 0
        withUnsafePointer(to: pointer.pointee.buf) { buffers in
            buffers.withMemoryRebound(to: UnsafeMutablePointer<AVBufferRef>?.self, capacity: 8) { list in
                for i in 0..<8 { if let buffer = list[i] { total += Int(buffer.pointee.size) } }
            }
        }
        return total
    }

    /// Moves `other`'s content into this frame, leaving `other` empty.
    func take(_ other: Frame) {
        av_frame_unref(pointer)
        av_frame_move_ref(pointer, other.pointer)
    }
}
