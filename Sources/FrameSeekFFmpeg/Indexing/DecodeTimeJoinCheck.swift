import FrameSeekCore

/// Refuses an MPEG-TS stream whose decode timestamps go back: two recordings joined byte for
/// byte (`cat a.ts b.ts`), the second's timestamps starting over, or anywhere behind the first's.
///
/// FrameSeek places every frame on one timeline by its PTS. Past such a join the second
/// recording's frames repeat the first's times, or fall between them (a table that interleaves
/// two pictures), or before the first keyframe (taken for its leading pictures and dropped),
/// and a seek lands on either recording's picture as the demuxer's bisection happens to go.
/// Within one recording a stream's decode timestamps only go forward (the decoder takes its
/// packets in that order), so a DTS below the one before it marks the join even where no PTS
/// repeats. Refused rather than answered wrongly, wherever packets are read in decode order: the
/// whole stream's scan and the packets a seek window reads. A window that never reaches the
/// join is answered as `ffmpeg -ss` answers it.
///
/// Equal DTS are not a join: muxers write them for packets FFmpeg's parsers split (an MPEG-PS
/// H.264 stream has one), and a join whose times happen to meet exactly repeats a PTS, which
/// the table refuses. Packets without a DTS are passed over. FFmpeg's 33-bit wrap correction
/// keeps a genuine wrap going forward, and moves a jump back of more than 60 s far forward:
/// neither is seen here, and both land as ffmpeg decodes them.
///
/// Only MPEG-TS, where each packet's DTS is the one its PES header states: FFmpeg guesses a
/// Matroska packet's DTS from the presentation times, and an MP4's come from its sample table.
struct DecodeTimeJoinCheck {
    private let path: String
    private let timeBase: TimeBase
    private let originPTS: Int64
    /// The DTS of the last packet read that had one.
    private var lastDTS: Int64?

    /// The check of `builder`'s stream, nil where its container is not MPEG-TS.
    init?(_ builder: FrameTableBuilder) {
        guard builder.demuxer.formatName == "mpegts" else { return nil }
        path = builder.demuxer.path
        timeBase = builder.timeBase
        originPTS = builder.originPTS
    }

    /// Takes the stream's next packet in decode order; throws where its DTS goes back.
    mutating func check(_ packet: Packet) throws(MediaError) {
        guard let dts = packet.dts else { return }
        defer { lastDTS = dts }
        guard let lastDTS, dts < lastDTS else { return }
        let place = packet.position.map { "at byte \($0)" } ?? "at a packet of unknown position"
        throw MediaError(
            path: path, reason: .unsupported,
            cause:
                "timestamps go back \(place) (decode time from \(seconds(lastDTS)) to \(seconds(dts))): two recordings joined? FrameSeek cannot place both on one timeline"
        )
    }

    /// `dts` in seconds to the millisecond on the stream's timeline, whose zero is the seek
    /// targets' zero.
    private func seconds(_ dts: Int64) -> String {
        let (sinceOrigin, overflow) = dts.subtractingReportingOverflow(originPTS)
        return overflow ? "\(dts) ticks" : "\((timeBase.time(ofTicks: sinceOrigin).seconds * 1000).rounded() / 1000) s"
    }
}
