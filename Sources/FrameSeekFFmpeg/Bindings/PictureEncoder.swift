internal import CFFmpeg
import FrameSeekCore

/// FFmpeg's own still-picture encoders on 8-bit RGB pictures of one size: JPEG (libavcodec's
/// `mjpeg`) and WebP (`libwebp`) for thumbnails and sheets, and PNG (`png`), the reference
/// FrameSeek's libpng writer is measured against (`frameseek-benchmarks png`).
///
/// JPEG and WebP take YUV 4:2:0: the RGB picture is converted by libavfilter's auto-inserted
/// swscale (`format=yuvj420p`, full range, for JPEG as `ffmpeg -i in.png out.jpg` does;
/// `format=yuv420p` for WebP), one graph kept per encoder.
///
/// Not Sendable: it owns an `AVCodecContext`. Use it from one thread.
package final class PictureEncoder {
    /// What to encode, and how hard.
    package enum Codec: Sendable, Hashable {
        /// PNG at zlib `compressionLevel` (0-9; nil for FFmpeg's default, 6, as
        /// `ffmpeg -i F out.png` writes it, with no row prediction).
        case png(compressionLevel: Int?)
        /// JPEG at `quality` 1-100 (see `PictureQuality`).
        case jpeg(quality: Int)
        /// WebP, lossy, at `quality` 1-100 (libwebp's own scale).
        case webp(quality: Int)
    }

    /// The picture width every `encode` takes.
    package let width: Int
    /// The picture height every `encode` takes.
    package let height: Int
    private let codec: Codec
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let conversion: FilterGraph?
    private let frame = Frame()
    private let packet = Packet()

    /// Opens the encoder for `width` x `height` RGB pictures, on one thread.
    ///
    /// - Throws: `PictureEncoderError` when libavcodec has no such encoder, `avcodec_open2`
    ///   refuses the size, or the conversion graph cannot be built.
    package init(_ codec: Codec, width: Int, height: Int) throws(PictureEncoderError) {
        guard width > 0, height > 0, width <= Int(Int32.max) / 3, height <= Int(Int32.max) else {
            throw PictureEncoderError(message: "a \(width)x\(height) picture cannot be encoded")
        }
        let found: UnsafePointer<AVCodec>?
        let format: AVPixelFormat
        switch codec {
        case .png: (found, format) = (avcodec_find_encoder(AV_CODEC_ID_PNG), AV_PIX_FMT_RGB24)
        case .jpeg: (found, format) = (avcodec_find_encoder(AV_CODEC_ID_MJPEG), AV_PIX_FMT_YUVJ420P)
        case .webp: (found, format) = (avcodec_find_encoder_by_name("libwebp"), AV_PIX_FMT_YUV420P)
        }
        guard let found else { throw PictureEncoderError(message: "libavcodec has no \(codec.encoderName) encoder") }
        guard let context = avcodec_alloc_context3(found) else {
            throw PictureEncoderError(message: "avcodec_alloc_context3: out of memory")
        }
        self.context = context
        self.codec = codec
        self.width = width
        self.height = height
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = format
        // Encoders refuse a zero time base; a still picture's is arbitrary.
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.thread_count = 1
        switch codec {
        case .png(let level?): context.pointee.compression_level = Int32(min(9, max(0, level)))
        case .png(nil): break
        case .jpeg(let quality):
            // mjpeg's quantizer scale, 2 (finest) to 31, as `-q:v` sets it.
            context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            context.pointee.global_quality = Int32(PictureQuality.jpegScale(quality)) * FF_QP2LAMBDA
        case .webp(let quality):
            // libwebp reads its 0-100 quality from global_quality in lambda units.
            context.pointee.global_quality = Int32(PictureQuality.clamped(quality)) * FF_QP2LAMBDA
        }
        let opened = avcodec_open2(context, found, nil)
        if opened < 0 {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw PictureEncoderError(FFmpegError(function: "avcodec_open2", code: opened))
        }
        if format == AV_PIX_FMT_RGB24 {
            conversion = nil
        } else {
            do {
                conversion = try FilterGraph(
                    width: width, height: height, format: .rgb24, description: "format=\(PixelFormat(format).name)")
            } catch {
                var owned: UnsafeMutablePointer<AVCodecContext>? = context
                avcodec_free_context(&owned)
                throw PictureEncoderError(error)
            }
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&owned)
    }

    /// The file's bytes for `image`, which must be `width` x `height`.
    ///
    /// - Throws: `PictureEncoderError` for a picture of another size, or from the conversion,
    ///   `avcodec_send_frame` or `avcodec_receive_packet`.
    package func encode(_ image: RGBImage) throws(PictureEncoderError) -> [UInt8] {
        guard image.width == width, image.height == height else {
            throw PictureEncoderError(message: "a \(image.width)x\(image.height) picture for a \(width)x\(height) encoder")
        }
        let sent = image.pixels.withUnsafeBufferPointer { pixels -> Result<Int32, FFmpegError> in
            let rgb = Frame(
                wrapping: [pixels.baseAddress], strides: [Int32(width * 3)], format: .rgb24, width: width, height: height)
            // The frame has no buffer of its own, so it is copied (by the graph, or by
            // avcodec_send_frame) before this closure returns and the pointer dies.
            defer { av_frame_unref(rgb.pointer) }
            guard let conversion else { return .success(avcodec_send_frame(context, rgb.pointer)) }
            rgb.pointer.pointee.pts = 0
            do throws(FFmpegError) {
                let converted = try conversion.run(rgb)
                // mjpeg takes its fixed quantizer from each frame, as the ffmpeg CLI sets it.
                converted.pointer.pointee.quality = context.pointee.global_quality
                return .success(avcodec_send_frame(context, converted.pointer))
            } catch {
                return .failure(error)
            }
        }
        do throws(FFmpegError) {
            try check(try sent.get(), "avcodec_send_frame")
            try check(avcodec_receive_packet(context, packet.pointer), "avcodec_receive_packet")
        } catch {
            throw PictureEncoderError(error)
        }
        defer { packet.unref() }
        return Array(UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size)))
    }
}

extension PictureEncoder.Codec {
    /// The libavcodec encoder's name.
    var encoderName: String {
        switch self {
        case .png: "png"
        case .jpeg: "mjpeg"
        case .webp: "libwebp"
        }
    }
}

/// A picture encoder failed: the FFmpeg function and its message.
package struct PictureEncoderError: Error, Sendable, CustomStringConvertible {
    /// What failed, one line.
    package let message: String
    /// The message.
    package var description: String { message }

    init(message: String) { self.message = message }

    init(_ error: FFmpegError) { message = error.description }
}
