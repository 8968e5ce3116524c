// The C boundary: FFmpeg's errors reach the engine that caused them, failed conversions are
// errors rather than black pictures, and the log policy decides what FrameSeek installs.

import CFFmpeg
import Foundation
import FrameSeekCore
@testable import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("C boundary", .ffmpegLog)
struct CBoundaryTests {
    /// A Matroska file whose EBML header is cut short: FFmpeg logs "EBML header parsing failed",
    /// a message no MP4 produces.
    static func writeBrokenMatroska() throws -> URL {
        let url = testScratchPath("ebml-\(UUID().uuidString).mkv")
        try Data([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0xFF, 0xFF, 0xFF, 0xFF])
            .write(to: url)
        return url
    }

    @Test("Engines failing at once on different threads each quote their own FFmpeg error")
    func errorsStayWithTheirEngine() throws {
        let matroska = try Self.writeBrokenMatroska()
        defer { try? FileManager.default.removeItem(at: matroska) }
        // The two causes as ffprobe prints them for these files.
        let cases = [
            (path: Repository.fixture("bad/truncated_moov_at_end.mp4"), own: "moov atom not found", other: "EBML"),
            (path: matroska.path, own: "EBML header parsing failed", other: "moov atom")
        ]
        let problems = Locked<[String]>([])
        // With one process-wide "last error", one engine takes the other's message (or clears
        // it) whenever their opens overlap; 2 x 30 opens on two threads make that near certain.
        DispatchQueue.concurrentPerform(iterations: 60) { i in
            let item = cases[i % 2]
            do throws(MediaError) {
                _ = try FFmpegEngine(path: item.path)
                problems.withLock { $0.append("\(item.path) opened") }
            } catch {
                if error.path != item.path || !error.cause.contains(item.own) || error.cause.contains(item.other) {
                    problems.withLock { $0.append("\(item.path): \(error.cause)") }
                }
            }
        }
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) of 60 errors misattributed; first: \(found.prefix(3))")
    }

    @Test("A message is routed by its context's opaque token to the live sink that owns it, and to no other")
    func routingByContext() throws {
        let context = try #require(avformat_alloc_context())
        defer { avformat_free_context(context) }
        var sink: FFmpegLogSink? = FFmpegLogSink()
        let other = FFmpegLogSink()
        context.pointee.opaque = sink!.token
        #expect(FFmpegLog.sink(for: UnsafeMutableRawPointer(context)) === sink)
        #expect(FFmpegLog.sink(for: UnsafeMutableRawPointer(context)) !== other)
        #expect(FFmpegLog.sink(for: nil) == nil)
        sink = nil  // the engine is gone: its contexts' messages go nowhere, never to a stranger
        #expect(FFmpegLog.sink(for: UnsafeMutableRawPointer(context)) == nil)
        context.pointee.opaque = nil
        #expect(FFmpegLog.sink(for: UnsafeMutableRawPointer(context)) == nil, "a context FrameSeek did not open")
    }

    @Test("The log policy: leaveCallbackAlone touches nothing, FRAMESEEK_FFMPEG_LOG prints, else errors are captured")
    func logPolicy() {
        // The decision alone: installing is once per process, and a test that changed the
        // process-wide policy would change what every other test's engines report.
        #expect(FFmpegLog.choose(policy: .leaveCallbackAlone, environment: nil) == .untouched)
        #expect(FFmpegLog.choose(policy: .leaveCallbackAlone, environment: "debug") == .untouched)
        #expect(FFmpegLog.choose(policy: .captureErrors, environment: nil) == .captureErrors)
        #expect(FFmpegLog.choose(policy: .captureErrors, environment: "nonsense") == .captureErrors)
        #expect(FFmpegLog.choose(policy: .captureErrors, environment: "warning") == .printToStandardError(level: AV_LOG_WARNING))
        #expect(FFmpegLog.choose(policy: .captureErrors, environment: "quiet") == .printToStandardError(level: AV_LOG_QUIET))
        #expect(FFmpegEngine.logPolicy == .captureErrors, "the default")
    }

    @Test("A conversion swscale cannot do is a MediaError naming the file, never a black picture")
    func conversionFailures() throws {
        let path = Repository.fixture("media/h264_bframes_gop250.mp4")
        let engine = try FFmpegEngine(path: path)
        _ = try engine.seek(to: .zero, precision: .exact)
        for (width, height) in [(0, 90), (160, -1), (100_000, 100_000)] {
            do {
                let image = try engine.landedImage(width: width, height: height)
                Issue.record("\(width)x\(height) converted to \(image.map { "\($0.width)x\($0.height)" } ?? "nil")")
            } catch {
                #expect(error.reason == .conversionFailed && error.path == path, "\(error)")
                #expect(error.cause.contains("\(width)x\(height)"), "\(error.cause)")
                if width == 100_000 {
                    // FFmpeg's own message, logged with no context on the engine's thread.
                    #expect(error.cause.contains("Picture size 100000x100000 is invalid"), "\(error.cause)")
                }
            }
        }
        // The engine's converter is still good after a refusal.
        let image = try #require(try engine.landedImage(width: 160, height: 90))
        #expect(image.width == 160 && image.height == 90 && image.pixels.contains { $0 != 0 })
    }

    @Test("sws_init_context refusing a format is an FFmpegError, not an empty picture")
    func unsupportedFormat() {
        let converter = PixelConverter()
        var plane = [UInt8](repeating: 0, count: 64 * 64)
        plane.withUnsafeMutableBufferPointer { buffer in
            do throws(FFmpegError) {
                let image = try converter.rgb(
                    planes: [UnsafePointer(buffer.baseAddress), nil, nil, nil], strides: [64, 0, 0, 0],
                    format: PixelFormat(AV_PIX_FMT_VAAPI), width: 64, height: 64)
                Issue.record("a hardware surface format converted to \(image.width)x\(image.height)")
            } catch {
                #expect(error.function == "sws_init_context", "\(error)")
            }
        }
    }

    @Test("A picture converts through its engine's converter to the same pixels as the landed frame")
    func pictureThroughEngineConverter() throws {
        let engine = try FFmpegEngine(path: Repository.fixture("media/h264_10bit.mp4"))
        _ = try engine.seek(to: MediaTime(value: 1, timescale: 1), precision: .exact)
        let picture = try #require(try engine.landedPicture())
        let fromPicture = try picture.rgbImage(using: engine)
        let fromFrame = try #require(try engine.landedImage())
        #expect(fromPicture == fromFrame)
    }

    /// A container's index states each sample's position and size; an MP4's `co64` may put a
    /// sample 2 bytes short of 2^63, where its end is past 64 bits.
    @Test("An index entry whose position and size pass 64 bits has no byte range; one that ends at 2^63 - 1 has")
    func indexEntryBytesOverflow() {
        let past = ContainerIndexEntry(position: .max - 1, timestamp: 0, size: 13, isKeyframe: true, isDiscarded: false)
        #expect(past.bytes == nil)
        let atEnd = ContainerIndexEntry(position: .max - 13, timestamp: 0, size: 13, isKeyframe: true, isDiscarded: false)
        #expect(atEnd.bytes == (Int64.max - 13)..<Int64.max)
    }
}
