// FFmpeg's log in a test's transcript: what FFmpeg logs for an engine goes to the transcript of
// the task that made the engine, from whichever thread it logs. The truth is the fixture's
// README: decoding bad/bitflip_mdat.mp4 logs "Invalid NAL unit size" (the ffmpeg command line
// prints it too).

import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("FFmpeg's log in a transcript, per scope", .ffmpegLog)
struct FFmpegLogTranscriptTests {
    /// Decodes across the bit-flipped MP4's damage (frames 217 to 249 differ from the clean
    /// decode, frame 222 never comes out).
    static func decodeAcrossDamage(_ engine: FFmpegEngine) {
        for index in [230, 240] {
            _ = try? engine.seek(to: engine.frameTable.frames[index].time, precision: .exact)
        }
    }

    static func reportsDamage(_ transcript: FFmpegLogTranscript) -> Bool {
        transcript.text.contains { $0.hasPrefix("error [h264]") && $0.contains("Invalid NAL unit size") }
    }

    @Test("An engine made in a scope copies FFmpeg's errors into that scope's transcript, from its decoder's threads too")
    func engineInScope() throws {
        for threads in [1, 2] {
            let transcript = FFmpegLogTranscript(), other = FFmpegLogTranscript()
            let engine = try FFmpegLogTranscript.$current.withValue(transcript) {
                try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: threads))
            }
            // Decoding in another scope: the decoder's messages still belong to the engine's.
            // The other scope may get those of the demuxer's own parser, which no engine owns.
            FFmpegLogTranscript.$current.withValue(other) { Self.decodeAcrossDamage(engine) }
            #expect(Self.reportsDamage(transcript), "threads \(threads): \(transcript.text)")
            #expect(!Self.reportsDamage(other), "threads \(threads): \(other.text)")
        }
    }

    @Test("An engine made outside any scope logs into the transcript of the scope that decodes on its own thread")
    func engineOutsideScope() throws {
        let engine = try FFmpegLogTranscript.$current.withValue(nil) {
            try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: 1))
        }
        let transcript = FFmpegLogTranscript()
        FFmpegLogTranscript.$current.withValue(transcript) { Self.decodeAcrossDamage(engine) }
        #expect(Self.reportsDamage(transcript), "\(transcript.text)")
    }

    @Test("A transcript keeps its newest lines and says how many it dropped")
    func limit() throws {
        let transcript = FFmpegLogTranscript(limit: 1)
        let engine = try FFmpegLogTranscript.$current.withValue(transcript) {
            try FFmpegEngine(path: BitflipOracle.path, options: .init(threads: 1))
        }
        Self.decodeAcrossDamage(engine)
        let text = transcript.text
        #expect(text.count == 2, "\(text)")
        #expect(text.first?.hasPrefix("(") == true && text.first?.hasSuffix("earlier lines dropped)") == true, "\(text)")
    }
}
