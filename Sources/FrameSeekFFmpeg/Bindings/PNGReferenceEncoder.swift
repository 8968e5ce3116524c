internal import CFFmpeg
import FrameSeekCore

/// FFmpeg's own PNG encoder (libavcodec `png`) on 8-bit RGB pictures of one size: the
/// reference FrameSeek's libpng writer is measured against (`frameseek-benchmarks png`).
/// With no level given it runs as `ffmpeg -i F out.png` does: zlib's default level (6), no
/// row prediction (`-pred none`), one thread.
///
/// Not Sendable: it owns an `AVCodecContext`. Use it from one thread.
package final class PNGReferenceEncoder {
    /// The picture width every `encode` takes.
    package let width: Int
    /// The picture height every `encode` takes.
    package let height: Int
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame = Frame()
    private let packet = Packet()

    /// Opens the encoder for `width` x `height` RGB pictures, at zlib level `compressionLevel`
    /// (0-9; nil for FFmpeg's default).
    ///
    /// - Throws: `PNGReferenceEncoderError` when libavcodec has no PNG encoder or
    ///   `avcodec_open2` refuses the size.
    package init(width: Int, height: Int, compressionLevel: Int? = nil) throws(PNGReferenceEncoderError) {
        guard width > 0, height > 0, width <= Int(Int32.max) / 3, height <= Int(Int32.max) else {
            throw PNGReferenceEncoderError(message: "a \(width)x\(height) picture cannot be encoded")
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw PNGReferenceEncoderError(message: "libavcodec has no PNG encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw PNGReferenceEncoderError(message: "avcodec_alloc_context3: out of memory")
        }
        self.context = context
        self.width = width
        self.height = height
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        // Encoders refuse a zero time base; a still picture's is arbitrary.
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.thread_count = 1
        if let compressionLevel { context.pointee.compression_level = Int32(min(9, max(0, compressionLevel))) }
        let opened = avcodec_open2(context, codec, nil)
        if opened < 0 {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw PNGReferenceEncoderError(FFmpegError(function: "avcodec_open2", code: opened))
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// The PNG file's bytes for `image`, which must be `width` x `height`.
    ///
    /// - Throws: `PNGReferenceEncoderError` for a picture of another size, or from
    ///   `avcodec_send_frame` or `avcodec_receive_packet`.
    package func encode(_ image: RGBImage) throws(PNGReferenceEncoderError) -> [UInt8] {
        guard image.width == width, image.height == height else {
            throw PNGReferenceEncoderError(message: "a \(image.width)x\(image.height) picture for a \(width)x\(height) encoder")
        }
        let sent = image.pixels.withUnsafeBufferPointer { pixels -> Int32 in
            frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
            frame.pointer.pointee.width = Int32(width)
            frame.pointer.pointee.height = Int32(height)
            frame.pointer.pointee.data.0 = UnsafeMutablePointer(mutating: pixels.baseAddress)
            frame.pointer.pointee.linesize.0 = Int32(width * 3)
            // The frame has no buffer of its own, so avcodec_send_frame copies the pixels
            // before this closure returns and the pointer dies.
            defer { av_frame_unref(frame.pointer) }
            return avcodec_send_frame(context, frame.pointer)
        }
        do {
            try check(sent, "avcodec_send_frame")
            try check(avcodec_receive_packet(context, packet.pointer), "avcodec_receive_packet")
        } catch {
            throw PNGReferenceEncoderError(error)
        }
        defer { packet.unref() }
        return Array(UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size)))
    }
}

/// The reference PNG encoder failed: the FFmpeg function and its message.
package struct PNGReferenceEncoderError: Error, Sendable, CustomStringConvertible {
    /// What failed, one line.
    package let message: String
    /// The message.
    package var description: String { message }

    init(message: String) { self.message = message }

    init(_ error: FFmpegError) { message = error.description }
}
