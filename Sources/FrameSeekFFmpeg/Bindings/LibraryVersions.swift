internal import CFFmpeg

/// The versions of the FFmpeg libraries FrameSeek runs against (linked at run time, which may
/// differ from the headers it was built with): what a landing manifest records and
/// `frameseek --version` prints, since a new libavcodec may decode the same bytes to other pixels.
public enum FFmpegLibraries {
    /// `libavcodec`, `libavformat`, `libavutil`, `libswscale` and `libswresample`, each as
    /// `major.minor.micro` (e.g. `"59.37.100"`), from `avcodec_version()`,
    /// `avformat_version()`, `avutil_version()`, `swscale_version()` and `swresample_version()`.
    public static var versions: [String: String] {
        [
            "libavcodec": dotted(avcodec_version()),
            "libavformat": dotted(avformat_version()),
            "libavutil": dotted(avutil_version()),
            "libswscale": dotted(swscale_version()),
            "libswresample": dotted(swresample_version())
        ]
    }

    /// FFmpeg's own version string, from `av_version_info()` (e.g. `"5.1.6-0+deb12u1"`): the
    /// release the libraries come from, with the distribution's suffix, which the library
    /// numbers alone do not name.
    public static var release: String {
        String(cString: av_version_info())
    }

    /// Splits an `AV_VERSION_INT` (major << 16 | minor << 8 | micro). The `AV_VERSION_MAJOR`
    /// family are macros Swift cannot import, so the shifts are spelled here.
    static func dotted(_ version: UInt32) -> String {
        "\(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)"
    }
}
