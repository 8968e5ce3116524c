// `frameseek --version`: FrameSeek's release and the FFmpeg libraries it runs on. The
// libraries are checked against the ffmpeg command line's own `-version`, not FrameSeek's code.

import FrameSeekCLI
import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Command-line version", .ffmpegLog)
struct CLIVersionTests {
    @Test(
        "--version (and version): exit 0, FrameSeek's version, libavcodec's as ffmpeg -version states it",
        arguments: ["--version", "version"])
    func version(_ spelling: String) throws {
        let result = frameseek([spelling])
        #expect(result.code == .success)
        #expect(result.stderr.text.isEmpty)
        #expect(result.out.first == "frameseek \(FrameSeekVersion.current)")
        let libavcodec = try #require(try BenchReportTests.ffmpegLibraryVersion("libavcodec"))
        #expect(
            result.out.contains { $0.split(separator: " ") == ["libavcodec", Substring(libavcodec)] },
            "ffmpeg says libavcodec \(libavcodec): \(result.stdout.text)")
    }
}
