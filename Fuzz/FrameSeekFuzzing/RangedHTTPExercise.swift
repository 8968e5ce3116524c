import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// The sequence the ranged HTTP fuzz target runs on every input: a small real MP4 served by a
/// `ScriptedHTTPServer` whose answers the input scripts, opened as
/// `http://127.0.0.1:PORT/.../media.mp4` (so through `RangedHTTPReader`, and its sample table
/// through `ByteRangeReader`), then seeked once.
///
/// The first byte places the seek in the table and picks the file: a fragmented MP4 (a `moof`
/// per GOP and a `sidx`, whose table is read from its `moof` boxes) when it is 6 modulo 8; an
/// MP3 of 107 KB opened as needed, and seeked twice, the second time farther (so its stream is
/// read in prefixes, the second longer), when it is 2 modulo 8; else by its lowest bit the
/// `moov` before or after the samples. Every three bytes after it are one
/// request's directive. No two faults come in a row, and at most one per input costs real time (see
/// `script`), so an input takes a few seconds at worst and the fuzzer still tries many. The engine reads with a
/// 2 s read timeout and no retries of FrameSeek's own.
package enum RangedHTTPExercise {
    /// What one run came to.
    package struct Summary: Sendable, CustomStringConvertible {
        /// The directives the input scripted.
        package var directives: [ScriptedHTTPServer.Directive]
        /// The requests the server answered for this run.
        package var requests = 0
        /// The open's or the seek's error, nil when both succeeded.
        package var error: String?
        /// Frames in the table, 0 when it did not open.
        package var frameCount = 0
        /// Whether the seek landed.
        package var landed = false

        package var description: String {
            "\(directives.count) directives, \(requests) requests, \(frameCount) frames, landed \(landed)"
                + (error.map { ", error: \($0)" } ?? "")
        }
    }

    /// The server, serving `Fuzz/media/tiny-h264.mp4`, the same stream with its `moov` after
    /// the samples (read by a seek past them) and fragmented, and `Fixtures/media`'s MP3 (larger
    /// than a first request, so that a prefix takes several); nil when it could not listen.
    package static let server: ScriptedHTTPServer? = ScriptedHTTPServer(
        bodies: [
            FuzzScratch.media("tiny-h264.mp4"), FuzzScratch.media("tiny-h264-moov-at-end.mp4"),
            FuzzScratch.media("tiny-h264-fragmented.mp4"), audioPath
        ].compactMap { path in FileManager.default.contents(atPath: path).map(Array.init) })

    /// The MP3 served for a first byte of 2 modulo 8.
    package static let audioPath = FuzzScratch.repository.appendingPathComponent("Fixtures/media/nasa_13013_audio.mp3").path

    /// The statuses a directive picks from: failures FFmpeg gives up on at once, ones it
    /// retries (5xx), redirects (to the same path, so a chain of them is a loop) and ones no
    /// range request should get.
    static let statuses = [404, 416, 403, 500, 503, 301, 302, 307, 204, 200, 100, 999]

    @discardableResult
    package static func run(_ bytes: [UInt8]) -> Summary {
        var summary = Summary(directives: script(bytes.dropFirst()))
        guard let server else {
            summary.error = "no loopback server"
            return summary
        }
        // The seek's place picks the body too (see the type's comment). The fragmented file
        // takes a residue no earlier seed or finding has, so they replay as they were found.
        let place = Int(bytes.first ?? 0)
        let audio = place % 8 == 2
        let run = server.beginRun(
            summary.directives, body: audio ? 3 : place % 8 == 6 ? 2 : place & 1, name: audio ? "media.mp3" : "media.mp4")
        let url = "http://127.0.0.1:\(server.port)\(run.path)"
        if audio {
            openAndSeekAudio(url, placing: bytes.first ?? 128, into: &summary)
        } else {
            openAndSeek(url, placing: bytes.first ?? 128, into: &summary)
        }
        summary.requests = server.endRun(run.id)
        return summary
    }

    /// The engine's options: no retries of FrameSeek's own, and short timeouts.
    private static var options: FFmpegEngine.Options {
        var options = MediaExercise.options
        options.network.retries = 0
        options.network.readTimeout = .seconds(2)
        options.network.timeout = .seconds(8)
        return options
    }

    /// The MP3 opened as needed, which builds no table at the open: the seeks are placed by
    /// the duration its header states (`audioTargets`).
    private static func openAndSeekAudio(_ url: String, placing place: UInt8, into summary: inout Summary) {
        var options = options
        options.indexing = .asNeeded
        do {
            let engine = try FFmpegEngine(path: url, options: options)
            for target in audioTargets(duration: engine.media.duration, placing: place) {
                let landing = try engine.seek(to: target, precision: .exact)
                summary.landed = true
                // The frames the prefix numbered, through the landing.
                summary.frameCount = max(summary.frameCount, landing.frame.index + 1)
                _ = try engine.landedAudio()?.md5
            }
        } catch {
            summary.error = "\(error)"
        }
    }

    /// The MP3's two targets, to the millisecond: half of `place`'s share of `duration`, then the share.
    package static func audioTargets(duration: MediaTime?, placing place: UInt8) -> [MediaTime] {
        let seconds = duration?.seconds ?? 0
        return [Double(place) / 510, Double(place) / 255].map { MediaTime(seconds: seconds * $0, preferredTimescale: 1000) }
    }

    private static func openAndSeek(_ url: String, placing place: UInt8, into summary: inout Summary) {
        let engine: FFmpegEngine
        do {
            engine = try FFmpegEngine(path: url, options: options)
        } catch {
            summary.error = "\(error)"
            return
        }
        let frames = engine.frameTable.frames
        summary.frameCount = frames.count
        guard !frames.isEmpty else { return }
        do {
            _ = try engine.seek(to: frames[(frames.count - 1) * Int(place) / 255].time, precision: .exact)
            summary.landed = true
        } catch {
            summary.error = "\(error)"
        }
    }

    /// The directives three bytes at a time: the first picks the kind, the other two its
    /// numbers. FFmpeg reconnects at once after a failed answer, then waits 1 s and 3 s before
    /// the next tries: so the answer after a fault (but a redirect) is honest, and after the
    /// first answer that costs time by itself (a cut, a 5xx, a held answer), the next such is too.
    static func script(_ bytes: ArraySlice<UInt8>) -> [ScriptedHTTPServer.Directive] {
        var directives: [ScriptedHTTPServer.Directive] = []
        var slowSpent = false, previousWasFault = false
        var rest = bytes
        while rest.count >= 3 {
            let kind = Int(rest[rest.startIndex]), a = Int(rest[rest.startIndex + 1]), b = Int(rest[rest.startIndex + 2])
            rest = rest.dropFirst(3)
            let directive: ScriptedHTTPServer.Directive
            switch kind % 11 {
            case 0: directive = .honest
            case 1: directive = .ignoresRange
            case 2: directive = .shiftedStart((a << 8 | b) - 32768)
            case 3:
                let totals: [Int64] = [Int64.max, Int64.max - 1, 1 << 62, 0, 1, -1, 4096, Int64(a << 8 | b)]
                directive = .claimedTotal(totals[a % totals.count])
            case 4: directive = .cutBody(share: a)
            case 5: directive = .wrongLength(b - 128)
            case 6: directive = .status(statuses[a % statuses.count])
            case 7: directive = .unknownSize
            case 8: directive = .held(milliseconds: a * 10)
            case 9: directive = .malformedRange(["bytes", "bytes */", "bytes 0-/", "bytes -1-2/3", "bytes 9-1/5", "octets 0-0/1"][a % 6])
            default: directive = .claimedTotal(Int64(a << 8 | b) - 1)
            }
            let slow: Bool
            switch directive {
            case .cutBody, .held: slow = true
            // A body shorter than its Content-Length is a cut body to FFmpeg, which reconnects.
            case let .wrongLength(delta): slow = delta > 0
            case let .status(code): slow = code >= 500 && code < 600
            default: slow = false
            }
            // FFmpeg follows redirects at once, so a chain of them (a loop) costs no time.
            let redirect: Bool
            if case let .status(code) = directive, (300..<400).contains(code) { redirect = true } else { redirect = false }
            let fault = directive != .honest && !redirect
            if (slow && slowSpent) || (fault && previousWasFault) {
                directives.append(.honest)
                previousWasFault = false
            } else {
                slowSpent = slowSpent || slow
                previousWasFault = fault
                directives.append(directive)
            }
        }
        return directives
    }
}
