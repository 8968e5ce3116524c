import FrameSeek

/// What `seek` and `step` add to a landing's line on request: the landed frame's MD5 and its
/// PNG. Fixed before the first landing, so that decoders on other threads make theirs too.
struct LandedExtras: Sendable {
    /// `--md5`: the MD5 as `ffmpeg -f framemd5` prints it.
    let md5: Bool
    /// `--png`: where the picture goes, numbered printf-style.
    let pngPattern: String?
    /// Whether the PNG is written upright (`--no-autorotate` turns it off).
    let autorotate: Bool
    /// The PNG's bits per sample (`--png-depth 8|16`).
    var pngDepth: PNGBitDepth = .eight

    /// `--png-depth`, or its default.
    static func pngDepth(_ arguments: Arguments) throws(UsageError) -> PNGBitDepth {
        let text = arguments.valueOrDefault("--png-depth")
        guard let depth = Int(text).flatMap(PNGBitDepth.init(rawValue:)) else {
            throw UsageError(message: "--png-depth takes 8 or 16, not '\(text)'")
        }
        return depth
    }

    /// The MD5 of `engine`'s landed frame, when asked, and the path of its PNG, written as
    /// number `number` of the pattern when asked and `writesPNG`.
    func make(number: Int, engine: some SeekingEngine, writesPNG: Bool = true) throws -> (md5: String?, png: String?) {
        var md5Text: String?
        var png: String?
        if md5, let audio = try engine.landedAudio() { md5Text = audio.md5 }
        if md5 || pngPattern != nil, let picture = try engine.landedPicture() {
            if md5 { md5Text = picture.md5 }
            if let pngPattern, writesPNG {
                let path = PathPattern.expand(pngPattern, number: number)
                // Only a landing decodes a picture, and every landing sets the engine that decoded it.
                guard let converter = engine.pictureEngine else { preconditionFailure("a landed picture without its engine") }
                try picture.writePNG(to: path, autorotate: autorotate, bitDepth: pngDepth, using: converter)
                png = path
            }
        }
        return (md5Text, png)
    }
}
