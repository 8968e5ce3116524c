import Foundation

/// How alike two pictures are, by FFmpeg's own `ssim` and `psnr` filters (measured by
/// `PictureScore.measure` in FrameSeekFFmpeg): what a landing check
/// judges a re-encode's picture by (`PictureTolerance`).
///
/// Both pictures are 8-bit RGB as a viewer sees them (`displayImage`). The picture is scaled to
/// the reference's size (bicubic), and both are converted to 4:2:0 YUV (BT.601, limited range,
/// swscale's defaults) before the filters compare them, so the scores are over the luma and
/// chroma planes, weighted by their sizes, as `ffmpeg -lavfi "[0]format=yuv420p[r];
/// [1]format=yuv420p[p];[r][p]ssim"` prints them for two PNGs.
public struct PictureScore: Sendable, Hashable {
    /// SSIM over Y, U and V (`lavfi.ssim.All`): 1 for identical pictures.
    public let ssim: Double
    /// PSNR in dB over Y, U and V (`lavfi.psnr.psnr_avg`): infinite for identical pictures.
    public let psnr: Double

    /// Creates a score.
    public init(ssim: Double, psnr: Double) {
        self.ssim = ssim
        self.psnr = psnr
    }

    /// The value of `metric`.
    public subscript(metric: PictureMetric) -> Double {
        switch metric {
        case .ssim: return ssim
        case .psnr: return psnr
        }
    }
}

/// A picture metric a landing check can hold a landing to.
public enum PictureMetric: String, Sendable, Hashable, CaseIterable, Codable {
    /// Structural similarity, 0 to 1.
    case ssim
    /// Peak signal-to-noise ratio, in dB.
    case psnr
}

/// The least score a picture may have to count as the reference's: `ssim:0.95`, `psnr:35`.
public struct PictureTolerance: Sendable, Hashable, CustomStringConvertible {
    /// The metric.
    public let metric: PictureMetric
    /// The least score that passes.
    public let minimum: Double

    /// Reads `ssim:S` (0 < S <= 1) or `psnr:DB` (DB > 0).
    ///
    /// - Throws: `PictureToleranceParseError` saying what is wrong.
    public init(parsing text: String) throws(PictureToleranceParseError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let metric = PictureMetric(rawValue: parts[0]) else {
            throw PictureToleranceParseError(message: "\"\(text)\" is not ssim:S or psnr:DB")
        }
        guard let value = Double(parts[1]), value.isFinite else {
            throw PictureToleranceParseError(message: "\"\(text)\": \(parts[1]) is not a number")
        }
        switch metric {
        case .ssim where !(value > 0 && value <= 1):
            throw PictureToleranceParseError(message: "\"\(text)\": an SSIM tolerance is above 0 and at most 1")
        case .psnr where !(value > 0 && value <= 1000):
            throw PictureToleranceParseError(message: "\"\(text)\": a PSNR tolerance is above 0 dB and at most 1000 dB")
        default: break
        }
        self.metric = metric
        self.minimum = value
    }

    /// Whether `score` is within the tolerance.
    public func admits(_ score: PictureScore) -> Bool { score[metric] >= minimum }

    /// `ssim:0.95`.
    public var description: String { "\(metric.rawValue):\(Self.number(minimum))" }

    /// A score as people read it: SSIM to 4 places, PSNR to 2, `inf` for identical pictures.
    public static func number(_ value: Double) -> String {
        if value.isInfinite { return "inf" }
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

/// A `--tolerance` that does not read as `ssim:S` or `psnr:DB`.
public struct PictureToleranceParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    public let message: String
    /// The message.
    public var description: String { message }
}
