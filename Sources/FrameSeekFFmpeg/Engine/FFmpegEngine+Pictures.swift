import FrameSeekCore

// The engine's landed frame as a picture, and pictures converted by the engine's converter
// (`PixelConverter`): public API of the engine, kept on it.

extension FFmpegEngine {
    /// The frame the last seek landed on, copied out of the decoder (only when asked: seeks
    /// themselves convert and copy nothing). Nil for audio streams or before any landing.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`, naming the file) when FFmpeg cannot copy
    ///   the frame's planes out, as for a format with no planes in memory.
    public func landedPicture() throws(MediaError) -> DecodedPicture? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .video else { return nil }
        do {
            return try DecodedPicture(
                frame: landedFrame, orientation: media.selectedStream.orientation,
                stream: media.selectedStream.color)
        } catch {
            throw MediaError(
                path: path, reason: .conversionFailed,
                cause: "cannot copy frame \(index) out of the decoder: \(error.description)")
        }
    }

    /// Converts `picture` with this engine's converter, to packed RGB of `depth`.
    func packedRGB(of picture: DecodedPicture, depth: RGBDepth) throws(MediaError) -> (width: Int, height: Int, pixels: [UInt8]) {
        do {
            // Read in place: swscale and a filter graph's buffer source only read the planes.
            return try picture.bytes.withUnsafeBufferPointer { (buffer) throws(FFmpegError) in
                let (planes, strides) = try picture.pixelFormatID.planes(
                    packedAt: buffer.baseAddress, width: picture.width, height: picture.height)
                return try FFmpegLog.attributing(to: conversionLog) { () throws(FFmpegError) in
                    try converter.packedRGB(
                        planes: planes, strides: strides,
                        format: picture.pixelFormatID, width: picture.width, height: picture.height,
                        color: picture.color, outputWidth: nil, outputHeight: nil, depth: depth)
                }
            }
        } catch {
            throw conversionError(error, of: "the picture at pts \(picture.pts)", width: nil, height: nil)
        }
    }
}

extension FFmpegEngine {
    /// The landed frame as 8-bit RGB in coded orientation, converted straight from the
    /// decoder's buffers by the engine's converter (HDR tone-mapped as `Options.toneMapping`
    /// says). Nil for audio or before any landing.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`, naming the file) when the frame cannot be
    ///   converted; never a black or grey picture instead.
    public func landedImage() throws(MediaError) -> RGBImage? {
        try landedRGB(width: nil, height: nil)
    }

    /// The landed frame converted by the engine's converter, scaled when a size is given.
    func landedRGB(width: Int?, height: Int?) throws(MediaError) -> RGBImage? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .video else { return nil }
        do {
            let (w, h, pixels) = try FFmpegLog.attributing(to: conversionLog) { () throws(FFmpegError) in
                try converter.rgb(landedFrame, stream: media.selectedStream.color, width: width, height: height)
            }
            return RGBImage(width: w, height: h, pixels: pixels)
        } catch {
            throw conversionError(error, of: "frame \(index)", width: width, height: height)
        }
    }

    /// A `MediaError` naming the file, for a failed conversion of `what`.
    func conversionError(_ error: FFmpegError, of what: String, width: Int?, height: Int?) -> MediaError {
        let size = width.flatMap { w in height.map { h in " to \(w)x\(h)" } } ?? ""
        if error.code == FFmpegError.Code.filterNotFound {
            return MediaError(
                path: path, reason: .conversionFailed,
                cause: "cannot tone-map \(what), an HDR picture, to SDR: \(error.function) found no filter "
                    + "(\(FilterLibrary.soname) missing, or FFmpeg built without libzimg); "
                    + "--tonemap none converts it without tone mapping")
        }
        return MediaError(
            path: path, reason: .conversionFailed,
            cause: "cannot convert \(what) to RGB\(size): \(error.function): \(conversionLog.message(for: error))")
    }
}
