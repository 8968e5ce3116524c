import Foundation
import FrameSeekCore

/// The decode floor of a set of landings: the same frames decoded by a bare libavcodec loop,
/// with the same decoder and thread count, and nothing else: no frame table, no planning, no
/// decoder pool, no cache, no picture conversion. What FrameSeek spends above it is its own
/// overhead (`frameseek bench --floor`).
///
/// The loop keeps one decoder. A landing in the same GOP as the one before and after it goes
/// on decoding forward; any other seeks the demuxer to the landing's keyframe, as FrameSeek's
/// executor seeks it (`Demuxer.seek(streamIndex:toKeyframe:)`), flushes, and decodes until
/// the landed frame comes out. With `skipsNonReferenceFrames`, as FrameSeek's own setting,
/// packets presented before the landed frame are sent with `skip_frame = AVDISCARD_NONREF`
/// (for the codecs where no frame refers to those), which needs their PTS alone, not a plan.
public enum DecodeFloor {
    /// One landing: the keyframe decoding starts from, and the landed frame's raw PTS.
    public typealias Landing = (keyframe: RandomAccessPoint, framePTS: Int64)

    /// The time of each landing in the bare loop, in order.
    ///
    /// - Throws: `MediaError` naming `path` when it cannot be opened or decoded, or a landed
    ///   frame never comes out of the decoder.
    public static func latencies(
        path: String, streamIndex: Int, threads: Int, skipsNonReferenceFrames: Bool, landings: [Landing]
    ) throws(MediaError) -> [Duration] {
        FFmpegLog.installOnce()
        let log = FFmpegLogSink()
        let demuxer = try MediaOpener.openDemuxer(path, log: log, memory: nil, options: FFmpegEngine.Options())
        demuxer.selectOnly(streamIndex: streamIndex)
        let decoder: Decoder
        do { decoder = try Decoder(stream: demuxer.stream(streamIndex), threads: threads, log: log) } catch {
            throw MediaError(path: path, reason: .decodeFailed, cause: "cannot open the decoder: \(error.description)")
        }
        let packet = Packet(), frame = Frame()
        let skips = skipsNonReferenceFrames && decoder.nonReferenceFramesAreUnreferenced
        let clock = ContinuousClock()
        var last: Landing?
        var latencies: [Duration] = []
        latencies.reserveCapacity(landings.count)
        for landing in landings {
            let start = clock.now
            do {
                if last?.keyframe != landing.keyframe || (last?.framePTS ?? .max) >= landing.framePTS {
                    try demuxer.seek(streamIndex: streamIndex, toKeyframe: landing.keyframe)
                    decoder.flush()
                }
                guard try decode(until: landing.framePTS, demuxer, decoder, packet, frame, stream: streamIndex, skipping: skips) else {
                    throw MediaError(path: path, reason: .decodeFailed, cause: "the frame at PTS \(landing.framePTS) never came out")
                }
            } catch let error as MediaError {
                throw error
            } catch {
                throw MediaError(path: path, reason: .decodeFailed, cause: "the bare decode loop: \(error)")
            }
            latencies.append(clock.now - start)
            last = landing
        }
        return latencies
    }

    /// Feeds packets until the frame with PTS `target` comes out; false when a later frame
    /// comes out first, or at the end of the stream.
    private static func decode(
        until target: Int64, _ demuxer: Demuxer, _ decoder: Decoder, _ packet: Packet, _ frame: Frame, stream: Int,
        skipping: Bool
    ) throws -> Bool {
        var ended = false
        defer { decoder.skipsNonReferenceFrames = false }
        while true {
            while case .frame = try decoder.receive(into: frame) {
                defer { frame.unref() }
                // Frames come out in presentation order: one past the target means it is not coming.
                if let pts = frame.pts, pts >= target { return pts == target }
            }
            if ended { return false }
            if try demuxer.read(into: packet) {
                defer { packet.unref() }
                guard packet.streamIndex == stream else { continue }
                if skipping { decoder.skipsNonReferenceFrames = packet.pts.map { $0 < target } ?? false }
                try decoder.send(packet)
            } else {
                try decoder.sendEndOfStream()
                ended = true
            }
        }
    }
}
