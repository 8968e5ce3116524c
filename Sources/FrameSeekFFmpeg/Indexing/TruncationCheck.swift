import Foundation
import FrameSeekCore

/// Whether the selected stream's readable data ends well before the container says it does.
///
/// The index is built from the packets that could be read, so a file cut short shows as an
/// index that ends early: Matroska and WebM state a duration in their header (Segment Info),
/// MP4 per track, and FFmpeg reports it. MPEG-TS states none (FFmpeg estimates the duration
/// from the last timestamps it finds, which a cut moves with it); there a cut shows as a file
/// that ends inside a transport packet. A cut exactly on a packet boundary leaves no trace in
/// a TS file, only a damaged last frame, which the landing reports.
enum TruncationCheck {
    /// The gap that counts as "well before": a second, or a tenth of the stated duration if
    /// more. Rounding, a last frame's duration and an audio track a little longer than the
    /// video stay below it; a file cut short by any real amount does not.
    static func tolerance(for stated: MediaTime) -> MediaTime {
        // In the stated duration's own ticks: a header may state a duration near Int64.max,
        // which a round trip through Double seconds cannot convert back (found by fuzzing).
        guard stated.isNumeric else { return MediaTime(value: 1, timescale: 1) }
        let tenth = MediaTime(value: stated.value / 10, timescale: stated.timescale)
        return max(MediaTime(value: 1, timescale: 1), tenth)
    }

    /// MPEG-TS packet sizes: plain, M2TS (4-byte timecode prefix) and with Reed-Solomon parity.
    static let transportPacketSizes: [Int64] = [188, 192, 204]

    /// The truncation of `table`'s stream in `demuxer`'s file, or nil when it reads to its end.
    /// `readError` is why the packet scan stopped early, if it did. `stated` is the duration
    /// the header stated (`statedDuration`), taken when the demuxer opened: a fragmented MP4's
    /// demuxer updates a track's duration from the fragments it reads on.
    static func check(_ demuxer: Demuxer, table: FrameTable, readError: String?, stated: MediaTime?) -> Truncation? {
        guard let last = table.frames.last else { return nil }
        let readableEnd = last.end
        if let readError {
            return Truncation(readableEnd: readableEnd, statedDuration: stated, evidence: readError)
        }
        if let stated, stated - readableEnd > tolerance(for: stated) {
            return Truncation(
                readableEnd: readableEnd, statedDuration: stated,
                evidence: "the stream's packets end before the duration the \(demuxer.formatName) header states")
        }
        if demuxer.formatName == "mpegts", let size = fileSize(demuxer.path),
            !transportPacketSizes.contains(where: { size % $0 == 0 })
        {
            return Truncation(
                readableEnd: readableEnd, statedDuration: nil,
                evidence: "the file ends inside a transport packet (\(size) bytes is no whole number of 188-byte packets)")
        }
        return nil
    }

    /// Why a file whose stream has no frame at all fails: truncated when its header states a
    /// duration (the data ends before the first complete frame), else nil.
    static func emptyStreamCause(_ demuxer: Demuxer, streamIndex: Int) -> String? {
        guard demuxer.durationIsStated, let duration = demuxer.durationMicroseconds else { return nil }
        let stated = TimeBase.microseconds.time(ofTicks: duration)
        return
            "truncated: the file ends before the first complete frame of stream \(streamIndex), though its \(demuxer.formatName) header states \(stated.seconds) s"
    }

    /// The duration the header states for the stream, on the zero-based timeline: the stream's
    /// own (MP4 track) when it has one, else the container's when the demuxer read it from the
    /// header rather than estimated it from timestamps or the bit rate.
    static func statedDuration(_ demuxer: Demuxer, streamIndex: Int, originPTS: Int64) -> MediaTime? {
        let stream = demuxer.stream(streamIndex)
        if let duration = stream.duration {
            let start = stream.startTime ?? originPTS
            let (end, overflow) = start.addingReportingOverflow(duration)
            let (sinceOrigin, overflow2) = end.subtractingReportingOverflow(originPTS)
            if !overflow && !overflow2 { return stream.timeBase.time(ofTicks: sinceOrigin) }
        }
        guard demuxer.durationIsStated, let duration = demuxer.durationMicroseconds else { return nil }
        return TimeBase.microseconds.time(ofTicks: duration)
    }

    private static func fileSize(_ path: String) -> Int64? {
        guard !path.contains("://") else { return nil }
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
    }

}
