// The ffmpeg CLI's MD5 of a picture's pixels as rgb24: the independent check that a PNG (any
// compression level, any encoder) holds exactly the pixels it was given.

import Foundation

/// ffmpeg's MD5 of the pixels it decodes, converted to rgb24 (`-pix_fmt rgb24 -f md5 -`), as
/// `MD5=<hex>`. `input` are the arguments that name the input: `["-i", "a.png"]`, or a raw
/// RGB file with `-f rawvideo -pixel_format rgb24 -video_size WxH` before its `-i`.
package func ffmpegRGB24MD5(_ input: [String]) throws -> String {
    try runTool(["ffmpeg", "-nostdin", "-v", "error"] + input + ["-pix_fmt", "rgb24", "-f", "md5", "-"])
        .trimmingCharacters(in: .whitespacesAndNewlines)
}
