import FrameSeekCore

// An audio stream's frames from its packets, without decoding the stream.
//
// For the codecs below, libavcodec makes one frame of each packet, holding the packet's
// samples, and then trims it by a rule of its own (decode.c, `decode_simple_internal`): a
// packet flagged discard (an edit list) makes no frame; `AV_PKT_DATA_SKIP_SAMPLES` side data
// says how many samples to drop from the start, carried over to the next frames while more
// remain, each frame moved later by what it lost, and how many to drop from the end. The
// table follows that rule, so a three-hour MP3 is read once, packet by packet, instead of
// decoded. What a decoder may add of its own (AAC's decoder skips 1024 samples of some
// streams itself) the rule cannot know, so the first packets are decoded while they are read
// and must come out as the rule says, or the table comes from a decode scan. A file cut short
// ends inside its last packet, which some parsers (ADTS, FLAC) still hand out with a whole
// frame's duration and the decoder rejects: the last packets are decoded too, once the stream
// has ended, and a last packet the decoder makes no frame of is no frame.

extension FrameTableBuilder {
    /// Whether libavcodec's decoder for `codecName` makes exactly one frame of every packet
    /// (Vorbis of every packet but its first: `firstPacketMakesNoFrame`). Codecs not listed take
    /// the decode scan.
    static func audioFramesFollowPackets(codecName: String) -> Bool {
        codecName.hasPrefix("pcm_")
            || ["mp1", "mp2", "mp3", "aac", "ac3", "eac3", "flac", "alac", "opus", "vorbis"].contains(codecName)
    }

    /// Whether the decoder for `codecName` makes no frame of the first packet after it opens or
    /// flushes: a Vorbis packet's samples overlap the packet before it, and the first has none
    /// to overlap (vorbisdec.c, `first_frame`). Its packets' timestamps and durations, which
    /// libavformat's Vorbis parser sets from the modes' block sizes, are the later frames'.
    static func firstPacketMakesNoFrame(codecName: String) -> Bool { codecName == "vorbis" }

    /// Whether `formatName`'s demuxer gives the last packet's duration with the samples its end
    /// trimming (skip side data) drops already taken off: Ogg's does (oggparsevorbis.c and
    /// oggparseopus.c shorten `pduration` to the final granule), Matroska's gives the packet's
    /// whole duration, and the decoder trims the frame.
    static func packetDurationsExcludeEndTrim(formatName: String) -> Bool { formatName == "ogg" }

    /// Whether the decoder for `codecName` trims its `delay` from the stream's start without
    /// side data saying so: the Opus decoder sets libavcodec's `skip_samples` to its header's
    /// pre-skip at open (Matroska carries it as CodecDelay, and no packet says it again).
    static func decoderTrimsItsDelay(codecName: String) -> Bool { codecName == "opus" }

    /// Whether each packet of `codecName` must begin where the one before it ended. An Opus
    /// packet's duration in Matroska is the track's default duration, which an encoder that
    /// changes frame size makes wrong; the timestamps then leave gaps, and the stream takes
    /// the decode scan.
    static func audioPacketsMustBeContiguous(codecName: String) -> Bool { ["opus", "vorbis"].contains(codecName) }

    /// How many packets are decoded while they are read, to check the rule against the
    /// decoder: past the priming of every codec above (at most a few thousand samples).
    static let audioPacketsChecked = 48

    /// Why a stream whose last packet makes no frame is truncated: the file ends inside it
    /// (what the media reports, as it reports a read that failed).
    static let cutLastPacketEvidence =
        "the file ends inside the stream's last packet, of which the decoder makes no frame"

    /// The table of an audio stream from a scan of its packets, or `.declined` when its codec
    /// does not make one frame per packet, a packet lacks a PTS or a duration, frames do not
    /// come in PTS order, or the decoded first packets disagree with the rule. No packet is
    /// kept: each becomes its frame as it is read, and the frames are kept as runs
    /// (`FrameRuns`), so the scan of a long file holds a few megabytes.
    ///
    /// With `stop`, the scan ends at the first frame presented after that PTS (once the checked
    /// packets are read): the table is the stream's prefix (`FrameTable.Source.streamPrefix`),
    /// every frame through `stop` in it, unless the stream ended first.
    func audioTableFromPackets(
        decodeWith makeDecoder: () throws(FFmpegError) -> Decoder, through stop: Int64? = nil
    ) throws(MediaError) -> TableOutcome {
        let stream = demuxer.stream(streamIndex)
        let sampleRate = stream.sampleRate, streamTimeBase = stream.timeBase
        guard sampleRate > 0, Self.audioFramesFollowPackets(codecName: stream.codecName),
            let decoder = try? makeDecoder()
        else { return .declined(movedDemuxer: false) }
        var check = AudioFrameCheck(decoder: decoder, timeBase: streamTimeBase, packetLimit: Self.audioPacketsChecked)
        var trimmer = AudioFrameTrimmer(
            timeBase: streamTimeBase, sampleRate: sampleRate,
            skippingAtStart: Self.decoderTrimsItsDelay(codecName: stream.codecName) ? max(0, decoder.openingDelaySamples) : 0,
            firstPacketMakesNoFrame: Self.firstPacketMakesNoFrame(codecName: stream.codecName),
            durationsExcludeEndTrim: Self.packetDurationsExcludeEndTrim(formatName: demuxer.formatName))
        let contiguous = Self.audioPacketsMustBeContiguous(codecName: stream.codecName)
        var packetEnd: Int64?
        var frames = FrameList.Builder(timeBase: timeBase, originPTS: originPTS)
        var frameCount = 0, lastPTS: Int64?, followsRule = true, passedStop = false
        var ruleFrames: [(pts: Int64, duration: Int64)] = []  // of the packets `check` decodes
        var corrupt: Set<Int> = []
        // The latest frame waits here until the next packet is read or the stream ends, when
        // the decoder decides whether the last packet makes one (`AudioStreamTail`).
        var pending: PendingAudioFrame?
        var tail = AudioStreamTail(keepingFrom: demuxer.byteSize.map { $0 - AudioStreamTail.bytesBeforeEnd })
        func appendPending() {
            guard let frame = pending else { return }
            if frame.isCorrupt { corrupt.insert(frameCount) }
            frames.append(
                pts: frame.pts, durationTicks: frame.duration, isKeyframe: true, decodeOrder: frame.packetIndex,
                position: frame.position)
            frameCount += 1
            pending = nil
        }
        let (_, scanError, missingData) = try scanPackets(keepingPackets: false) { packet, index in
            check.decode(packet, index: index)
            tail.keep(packet, index: index)
            if contiguous, let pts = packet.pts {
                // Matroska keeps milliseconds: a packet may start a tick from where the last
                // ended. The numbers are the file's: overflow is a gap, not a trap.
                let (end, overflow) = pts.addingReportingOverflow(packet.duration)
                let (gap, gapOverflow) = pts.subtractingReportingOverflow(packetEnd ?? pts)
                if overflow || gapOverflow || gap > 1 || gap < -1 {
                    followsRule = false
                    return false
                }
                packetEnd = end
            }
            switch trimmer.frame(of: packet) {
            case nil:
                followsRule = false
                return false
            case .dropped?:
                return true
            case .shown(let pts, let duration)?:
                guard lastPTS.map({ $0 < pts }) ?? true else {
                    followsRule = false
                    return false
                }
                lastPTS = pts
                if index < Self.audioPacketsChecked { ruleFrames.append((pts, duration)) }
                appendPending()
                pending = PendingAudioFrame(
                    pts: pts, duration: duration, packetIndex: index, position: packet.position, isCorrupt: packet.isCorrupt)
                if let stop, pts > stop, index >= Self.audioPacketsChecked - 1 { passedStop = true }
                return !passedStop
            }
        }
        // Media the HLS demuxer skipped is placed by the packet tables' rules; not here.
        guard followsRule, pending != nil, missingData.isEmpty, check.agrees(with: ruleFrames) else {
            return .declined(movedDemuxer: true)
        }
        var readError = scanError
        // The first packets were decoded by `check`: a last packet among them that makes no
        // frame has already sent the stream to the decode scan.
        if !passedStop, let last = pending, last.packetIndex >= Self.audioPacketsChecked,
            tail.lastPacketIndex == last.packetIndex, tail.lastPacketMakesNoFrame(decoder: check.decoder)
        {
            pending = nil
            readError = readError ?? Self.cutLastPacketEvidence
        }
        appendPending()
        guard frameCount > 0 else { return .declined(movedDemuxer: true) }
        let list = frames.finish(endingAtOwnDuration: [])
        let table = FrameTable(
            streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS, frames: list,
            randomAccessPoints: .keyframes(of: list), source: passedStop ? .streamPrefix : .audioPackets)
        // After a seek a decoder may keep priming the table saw trimmed (MP3, Opus), so the
        // engine lands on the decoded frame covering the target, as on a decode-scanned table,
        // rather than recognising packets by PTS.
        return .built(Result(table: table, packetOrder: .unknown, readError: readError, corruptFrames: corrupt))
    }
}

/// A frame of the audio packet scan not yet in the table: the last one read so far.
private struct PendingAudioFrame {
    let pts: Int64
    let duration: Int64
    /// Its packet's place in the stream's decode order.
    let packetIndex: Int
    let position: Int64?
    let isCorrupt: Bool
}

/// The last packets of an audio stream, kept while the scan reads on, and whether the decoder
/// makes a frame of the very last.
///
/// A file cut short ends inside its last packet. FFmpeg's ADTS and FLAC parsers hand out what
/// is left as a packet with a whole frame's duration, which the AAC and FLAC decoders reject
/// ("Input buffer exhausted", "invalid residual"), so ffprobe lists no frame of it; the MP3
/// and AC-3 decoders make a frame of theirs. Only decoding tells, so the last packets are
/// decoded once the stream has ended: the ones before the last give the decoder what it
/// carries over (a Vorbis packet's overlap, an MP3's bit reservoir), as a landing's pre-roll
/// does.
private struct AudioStreamTail {
    /// Packets kept: the last and three before it, more than any codec of the rule carries
    /// over from packet to packet.
    static let packetsKept = 4
    /// How far before the input's end packets start to be kept: a reference per packet costs
    /// a three-hour MP3's scan a fifth of its time, and the last four audio packets lie within
    /// a mebibyte of the end of any file but one with that much after them.
    static let bytesBeforeEnd: Int64 = 1 << 20
    /// The byte offset from which packets are kept; nil, every packet (an input of unknown size).
    private let keepingFrom: Int64?
    /// The kept packets, a ring: each slot references a packet's data (no bytes are copied).
    private var packets: [Packet] = []
    /// The slot the next packet goes to.
    private var next = 0
    /// Whether a reference failed (out of memory): the tail is then not known.
    private var broken = false
    /// The decode-order index of the last packet read.
    private(set) var lastPacketIndex: Int?
    /// The decode-order index of the last packet kept: the tail is known when it is the last read.
    private var lastKeptIndex: Int?

    init(keepingFrom: Int64?) { self.keepingFrom = keepingFrom }

    mutating func keep(_ packet: Packet, index: Int) {
        lastPacketIndex = index
        if let keepingFrom, let position = packet.position, position < keepingFrom { return }
        lastKeptIndex = index
        if packets.count < Self.packetsKept {
            packets.append(Packet())
        } else {
            packets[next].unref()
        }
        do { try packets[next].reference(packet) } catch { broken = true }
        next = (next + 1) % Self.packetsKept
    }

    /// Whether `decoder`, flushed and fed the kept packets in order, makes no frame of the last
    /// one. False when that cannot be told: a decoder that holds a frame back would give one
    /// after the last packet all the same, and the last frame is then kept as before.
    func lastPacketMakesNoFrame(decoder: Decoder) -> Bool {
        guard !broken, !packets.isEmpty, lastKeptIndex == lastPacketIndex else { return false }
        decoder.flush()
        defer { decoder.flush() }
        let frame = Frame()
        func drain() -> Int {
            var made = 0
            while case .frame? = try? decoder.receive(into: frame) {
                made += 1
                frame.unref()
            }
            return made
        }
        let oldest = packets.count < Self.packetsKept ? 0 : next
        for offset in 0..<packets.count - 1 {
            // A damaged packet before the last is the decoder's to conceal or skip.
            try? decoder.send(packets[(oldest + offset) % packets.count])
            _ = drain()
        }
        let last = packets[(oldest + packets.count - 1) % packets.count]
        var made = 0
        if (try? decoder.send(last)) != nil { made += drain() }
        try? decoder.sendEndOfStream()
        made += drain()
        return made == 0
    }
}

/// libavcodec's trimming of audio frames (decode.c, `decode_simple_internal`), followed packet
/// by packet in decode order.
struct AudioFrameTrimmer {
    /// What a packet becomes.
    enum Outcome: Equatable {
        /// No frame: an edit list discards the packet, or every sample of it is trimmed.
        case dropped
        /// A frame starting at `pts` and lasting `duration` ticks, once samples are trimmed.
        case shown(pts: Int64, duration: Int64)
    }

    let timeBase: TimeBase
    let sample: TimeBase
    /// See `FrameTableBuilder.packetDurationsExcludeEndTrim`.
    let durationsExcludeEndTrim: Bool
    /// libavcodec's `skip_samples`, carried from frame to frame.
    private var skip: Int64 = 0
    /// Whether the next packet is one the decoder makes no frame of (see
    /// `FrameTableBuilder.firstPacketMakesNoFrame`).
    private var makesNoFrame: Bool

    /// `skippingAtStart` is what the decoder trims from the first frames by itself.
    init(
        timeBase: TimeBase, sampleRate: Int32, skippingAtStart: Int64 = 0, firstPacketMakesNoFrame: Bool = false,
        durationsExcludeEndTrim: Bool = false
    ) {
        self.timeBase = timeBase
        sample = .samples(at: sampleRate)
        skip = skippingAtStart
        makesNoFrame = firstPacketMakesNoFrame
        self.durationsExcludeEndTrim = durationsExcludeEndTrim
    }

    /// The frame `packet` makes; nil when it lacks a PTS, a duration or the keyframe flag,
    /// without which the rule cannot be followed, or when its numbers overflow the rule's.
    mutating func frame(of packet: Packet) -> Outcome? {
        frame(
            pts: packet.pts, duration: packet.duration, isKeyframe: packet.isKeyframe, isDiscarded: packet.isDiscarded,
            trim: packet.sampleTrim)
    }

    /// The frame a packet with these numbers and skip side data `trim` makes.
    mutating func frame(pts: Int64?, duration: Int64, isKeyframe: Bool, isDiscarded: Bool, trim: SampleTrim?) -> Outcome? {
        guard let pts, duration > 0, isKeyframe else { return nil }
        var dropAtEnd: Int64 = 0
        if let trim {
            skip = trim.start
            dropAtEnd = durationsExcludeEndTrim ? 0 : trim.end
        }
        if makesNoFrame {
            makesNoFrame = false
            return .dropped
        }
        if skip == 0 && dropAtEnd == 0 { return isDiscarded ? .dropped : .shown(pts: pts, duration: duration) }
        // The numbers are the file's: a rescale that overflows (`av_rescale_q` gives Int64.min)
        // or a shifted PTS past Int64 is a frame the rule cannot place, not a trap.
        var samples = timeBase.rescale(duration, to: sample)
        guard samples >= 0 else { return nil }
        if isDiscarded {
            let (left, overflow) = skip.subtractingReportingOverflow(samples)
            guard !overflow else { return nil }
            skip = max(0, left)
            return .dropped
        }
        var start = pts, kept = duration
        if skip > 0 {
            if samples <= skip {
                skip -= samples
                return .dropped
            }
            let shift = sample.rescale(skip, to: timeBase)
            let (shifted, overflow) = start.addingReportingOverflow(shift)
            guard shift >= 0, !overflow else { return nil }
            start = shifted
            if kept >= shift { kept -= shift }
            samples -= skip
            skip = 0
        }
        if dropAtEnd > 0 && dropAtEnd <= samples {
            if dropAtEnd == samples { return .dropped }
            kept = sample.rescale(samples - dropAtEnd, to: timeBase)
            guard kept >= 0 else { return nil }
        }
        return .shown(pts: start, duration: kept)
    }
}

/// The first packets of an audio stream decoded while the scan reads them, and whether their
/// frames are the ones the trimming rule made of them.
private struct AudioFrameCheck {
    /// Decodes the first packets; once they are checked, the last ones (`AudioStreamTail`).
    let decoder: Decoder
    let timeBase: TimeBase
    let packetLimit: Int
    private let frame = Frame()
    /// Each decoded frame's PTS and duration, as a decode scan would list it.
    private var decoded: [(pts: Int64, duration: Int64)] = []
    private var failed = false

    init(decoder: Decoder, timeBase: TimeBase, packetLimit: Int) {
        self.decoder = decoder
        self.timeBase = timeBase
        self.packetLimit = packetLimit
    }

    mutating func decode(_ packet: Packet, index: Int) {
        guard index < packetLimit, !failed else { return }
        do {
            try decoder.send(packet)
            try collect()
        } catch {
            failed = true  // damage at the start: the decode scan decides what is there
        }
    }

    /// Whether the frames decoded from the first packets are `expected`, those the rule made of
    /// the same packets (all of them, when the stream has no more).
    mutating func agrees(with expected: [(pts: Int64, duration: Int64)]) -> Bool {
        guard !failed else { return false }
        do {
            try decoder.sendEndOfStream()
            try collect()
        } catch {
            return false
        }
        return expected.count == decoded.count
            && zip(expected, decoded).allSatisfy { $0.pts == $1.pts && $0.duration == $1.duration }
    }

    private mutating func collect() throws(FFmpegError) {
        while case .frame = try decoder.receive(into: frame) {
            defer { frame.unref() }
            guard let pts = frame.pts else {
                failed = true
                continue
            }
            decoded.append((pts, frame.duration(orSamplesAt: frame.sampleRate, in: timeBase)))
        }
    }
}
