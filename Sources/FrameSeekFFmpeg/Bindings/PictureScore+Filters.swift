internal import CFFmpeg
import FrameSeekCore

extension PictureScore {
    /// Scores `picture` against `reference`, each metric in a one-use libavfilter graph of two
    /// `buffer` sources.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) naming `path`, with the FFmpeg call that
    ///   failed: libavfilter cannot be opened or lacks the filters, a graph cannot be built or
    ///   run, or a filter wrote no score.
    public static func measure(
        _ picture: RGBImage, against reference: RGBImage, naming path: String
    ) throws(MediaError) -> PictureScore {
        do { return try measure(picture, against: reference) } catch {
            throw MediaError(path: path, reason: .conversionFailed, cause: "cannot compare the pictures: \(error)")
        }
    }

    private static func measure(_ picture: RGBImage, against reference: RGBImage) throws(FFmpegError) -> PictureScore {
        let scale = "scale=\(reference.width):\(reference.height):flags=bicubic,format=yuv420p"
        func run(_ filter: String, key: String) throws(FFmpegError) -> Double {
            // ssim and psnr pass on their first input's frame with the scores in its metadata.
            let description = "[in0]format=yuv420p[reference];[in1]\(scale)[picture];[reference][picture]\(filter)[out]"
            let graph = try FilterGraph(
                sources: [
                    .init(width: reference.width, height: reference.height, format: .rgb24),
                    .init(width: picture.width, height: picture.height, format: .rgb24)
                ], description: description)
            let out = try reference.pixels.withUnsafeBufferPointer { referenceBytes throws(FFmpegError) in
                try picture.pixels.withUnsafeBufferPointer { pictureBytes throws(FFmpegError) in
                    let frames = [(referenceBytes, reference), (pictureBytes, picture)].map { bytes, image in
                        let frame = Frame(
                            wrapping: [bytes.baseAddress], strides: [Int32(image.width * 3)], format: .rgb24,
                            width: image.width, height: image.height)
                        frame.pointer.pointee.pts = 0
                        return frame
                    }
                    return try graph.run(frames, last: true)
                }
            }
            guard let entry = av_dict_get(out.pointer.pointee.metadata, key, nil, 0), let value = entry.pointee.value,
                let score = Double(String(cString: value))
            else {
                throw FFmpegError(function: "\(filter): no \(key) in the frame's metadata", code: FFmpegError.Code.external)
            }
            return score
        }
        return PictureScore(ssim: try run("ssim", key: "lavfi.ssim.All"), psnr: try run("psnr", key: "lavfi.psnr.psnr_avg"))
    }
}
