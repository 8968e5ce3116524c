internal import CFFmpeg
import FrameSeekCore

/// An open `AVCodecContext` for one stream: the one place FrameSeek decodes.
final class Decoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// What `receive(into:)` found.
    enum Output {
        /// A frame was written.
        case frame
        /// The decoder needs another packet first.
        case needsInput
        /// The decoder is drained; only `flush()` makes it usable again.
        case endOfStream
    }

    /// Where FFmpeg's messages about this decoder go; kept alive as long as the context.
    let log: FFmpegLogSink
    /// The name of the `AVCodec` opened (`h264`, `libdav1d`, ...): which of FFmpeg's decoders
    /// for the codec produced the pixels, since two decoders of one codec may differ.
    let codecName: String

    /// Opens the decoder FFmpeg chooses for `stream`'s codec, with `threads` threads
    /// (0 lets FFmpeg choose). FFmpeg's error messages from it, its threads included, go to
    /// `log`.
    ///
    /// - Throws: `FFmpegError` from `avcodec_find_decoder`, `avcodec_alloc_context3`,
    ///   `avcodec_parameters_to_context` or `avcodec_open2`.
    convenience init(stream: Demuxer.Stream, threads: Int, log: FFmpegLogSink) throws(FFmpegError) {
        let pointer = stream.pointer
        try self.init(parameters: pointer.pointee.codecpar, timeBase: pointer.pointee.time_base, threads: threads, log: log)
    }

    /// Opens a decoder for a stream's parameters copied out of its demuxer, as
    /// `init(stream:threads:log:)` opens one for the stream; with `toleratingDamage`, one that
    /// decodes through damage as FFmpeg's own decode does (`toleratesDamage`).
    ///
    /// - Throws: `FFmpegError` as `init(stream:threads:log:)` does.
    convenience init(
        parameters: StreamParameters, threads: Int, log: FFmpegLogSink, toleratingDamage: Bool = false
    ) throws(FFmpegError) {
        try self.init(
            parameters: parameters.codecParameters, timeBase: parameters.timeBase, threads: threads, log: log,
            toleratingDamage: toleratingDamage)
    }

    private init(
        parameters: UnsafePointer<AVCodecParameters>, timeBase: AVRational, threads: Int, log: FFmpegLogSink,
        toleratingDamage: Bool = false
    ) throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(function: "avcodec_find_decoder", code: fs_averror(ENOSYS))
        }
        guard let allocated = avcodec_alloc_context3(codec) else {
            throw FFmpegError(function: "avcodec_alloc_context3", code: fs_averror(ENOMEM))
        }
        // Frame threads copy opaque from this context, so their messages are attributed too.
        allocated.pointee.opaque = log.token
        // Before any stored property is set: a class initializer that throws once they all are
        // runs `deinit`, which would free the context a second time.
        do {
            try check(avcodec_parameters_to_context(allocated, parameters), "avcodec_parameters_to_context")
            allocated.pointee.pkt_timebase = timeBase
            allocated.pointee.thread_count = Int32(clamping: min(max(threads, 0), 64))
            // FFmpeg's HEVC decoder conceals much bitstream damage without an error code or an
            // error flag on the frame (it only logs), so a picture built on a damaged reference
            // would pass for a true one. Asked to explode, it returns AVERROR_INVALIDDATA for
            // the damaged packet, which the landing counts. Clean streams raise no error, so no
            // undamaged picture changes (every HEVC fixture's framemd5 test checks that).
            if Self.explodesOnDamage(allocated.pointee.codec_id), !toleratingDamage {
                allocated.pointee.err_recognition |= AV_EF_EXPLODE
            }
            fs_codec_context_carry_packet_positions(allocated)
            try check(avcodec_open2(allocated, codec, nil), "avcodec_open2")
        } catch {
            var toFree: UnsafeMutablePointer<AVCodecContext>? = allocated
            avcodec_free_context(&toFree)
            throw error
        }
        context = allocated
        self.log = log
        codecName = String(cString: codec.pointee.name)
        toleratesDamage = toleratingDamage && Self.explodesOnDamage(codec.pointee.id)
    }

    deinit {
        var toFree: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&toFree)
    }

    /// Sends one packet. Invalid data is reported to the caller, who decides whether a
    /// damaged packet matters.
    ///
    /// - Throws: `FFmpegError` from `avcodec_send_packet`.
    func send(_ packet: Packet) throws(FFmpegError) {
        fs_packet_carry_position(packet.pointer)
        try check(avcodec_send_packet(context, packet.pointer), "avcodec_send_packet")
    }

    /// Tells the decoder no more packets come, so it releases the frames it holds back.
    ///
    /// - Throws: `FFmpegError` from `avcodec_send_packet`.
    func sendEndOfStream() throws(FFmpegError) {
        let code = avcodec_send_packet(context, nil)
        if code == fs_averror_eof() { return }
        try check(code, "avcodec_send_packet")
    }

    /// Takes the next decoded frame, if the decoder has one.
    ///
    /// - Throws: `FFmpegError` from `avcodec_receive_frame`.
    func receive(into frame: Frame) throws(FFmpegError) -> Output {
        let code = avcodec_receive_frame(context, frame.pointer)
        if code == fs_averror_eagain() { return .needsInput }
        if code == fs_averror_eof() { return .endOfStream }
        try check(code, "avcodec_receive_frame")
        return .frame
    }

    /// The threads the decoder runs (`thread_count` as opened): each frame thread holds back
    /// one more frame before output.
    var threadCount: Int { max(1, Int(context.pointee.thread_count)) }

    /// Drops all buffered state, as after a demuxer seek.
    func flush() { avcodec_flush_buffers(context) }

    /// The samples the decoder trims from the start of the stream by itself, before any
    /// `AV_PKT_DATA_SKIP_SAMPLES` side data says otherwise: `AVCodecContext.delay`, which the
    /// Opus decoder sets from its header's pre-skip at open and also makes libavcodec's
    /// `skip_samples`. Other decoders' `delay` may mean something else (see its callers).
    var openingDelaySamples: Int64 { Int64(context.pointee.delay) }

    /// Whether this codec's "non-reference" frames are referenced by no frame at all, so that
    /// skipping them cannot change another frame's pixels. True for H.264 (nal_ref_idc 0) and
    /// MPEG-1/2/4 Part 2 (B-frames).
    ///
    /// Not for HEVC, whose sub-layer non-reference pictures can be referenced by a higher
    /// temporal layer. Not for VP8: a frame that refreshes no reference buffer can still change
    /// the segmentation map, which the next frames inherit from it (FFmpeg 5.1's skip leaves the
    /// map of the frame before, so they decode to other pixels; `vp8_segment_map.webm`). Not for
    /// VP9 either, whose decoder ignores the setting, nor for any other decoder that does.
    var nonReferenceFramesAreUnreferenced: Bool {
        switch context.pointee.codec_id {
        case AV_CODEC_ID_H264, AV_CODEC_ID_MPEG1VIDEO, AV_CODEC_ID_MPEG2VIDEO, AV_CODEC_ID_MPEG4:
            return true
        default:
            return false
        }
    }

    /// Whether the decoder marks a frame key exactly when its picture is one decoding can start
    /// from: HEVC's marks IRAP pictures (IDR, CRA, BLA). Started on any other picture, it
    /// invents the references it lacks (grey frames) without an error code or a frame flag, even
    /// asked to explode, so a container that calls such a picture a keyframe would otherwise
    /// give wrong pictures that pass for clean ones. H.264's decoder marks only IDR and
    /// recovery-point pictures, and many streams start decoding cleanly at plain I-frames.
    var marksRandomAccessPoints: Bool { context.pointee.codec_id == AV_CODEC_ID_HEVC }

    /// Whether the decoder lets damage through as FFmpeg's own decode does (`ffmpeg -i`): a
    /// decoder of a codec whose decoders explode on damage (`explodesOnDamage`), opened with its
    /// error recognition but without `AV_EF_EXPLODE`. Asked to explode, FFmpeg's HEVC decoder
    /// returns the error of a damaged packet before handing out the frame that packet's start
    /// pushed out of its reorder buffer, and that frame never comes out: the last frames before
    /// a file cut inside its last packet are lost, where FFmpeg's own decode gives them.
    ///
    /// Fixed when the decoder opens, because FFmpeg fixes it then for frame threads: each
    /// copies the error recognition when the decoder opens (FFmpeg 5.1's
    /// `update_context_from_user` does not copy it again), so a setting changed later would
    /// not reach their decode. A decoder that is to explode again is another decoder
    /// (`DecoderPool.useActiveDecoder(toleratingDamage:)`).
    let toleratesDamage: Bool

    /// Whether the decoder was opened to explode on damage (see `init`): an HEVC decoder not
    /// opened to tolerate damage.
    var explodesOnDamage: Bool { context.pointee.err_recognition & AV_EF_EXPLODE != 0 }

    /// Whether decoders of `codec` are opened to explode on damage: HEVC's.
    private static func explodesOnDamage(_ codec: AVCodecID) -> Bool { codec == AV_CODEC_ID_HEVC }

    /// Whether the decoder skips frames no other frame references (`skip_frame =
    /// AVDISCARD_NONREF`). Such frames can be dropped on the way to a target without changing
    /// any pixel of the target. Set per packet, before it is sent.
    var skipsNonReferenceFrames: Bool = false {
        didSet {
            guard skipsNonReferenceFrames != oldValue else { return }
            context.pointee.skip_frame = skipsNonReferenceFrames ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
        }
    }
}
