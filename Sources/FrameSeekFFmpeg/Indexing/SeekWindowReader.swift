import FrameSeekCore

/// Reads the seek window of one landing: the packets from the random access point at or before
/// the target to just past it, found where the container's own index puts the demuxer. This is
/// what a player reads for a seek, and all an exact landing needs (the Landing rules article,
/// "Landing without the whole stream's table").
///
/// The demuxer seeks to the window's start with FFmpeg's own index: Matroska's Cues, a
/// fragmented MP4's `sidx`, MPEG-TS's bisection by timestamp. None of them promises a keyframe
/// at or before the time (MPEG-TS lands on any packet; an MP4 index is by decode time), so the
/// packets read are checked, and the seek goes further back until a keyframe at or before the
/// start is among them. What an earlier try read is joined on rather than read again. A
/// fragmented MP4's seek is taken again from the keyframe it went to, so that the packets read
/// follow one another (`seekAgainFromLandedKeyframe`).
struct SeekWindowReader {
    /// Packets in a row presented after the window's end after which no later packet can be
    /// presented inside it: more than the 16 pictures H.264 and HEVC may reorder. Only needed
    /// where packets carry no decode time of their own (Matroska).
    static let reorderBound = 17
    /// The most packets one window holds, with what earlier tries read joined on. Media that
    /// never reaches the window's end within them (hostile, or a stream with no keyframe) is
    /// left to the whole stream's table.
    static let defaultPacketLimit = 1 << 20
    /// How many times the seek goes further back, doubling the step each time, before it reads
    /// from the start of the stream.
    static let stepsBack = 16

    /// The stream, its time origin, and the demuxer to read through (the active decoder's).
    let builder: FrameTableBuilder
    /// The earliest PTS of the stream: a seek at or before it reads from the stream's start.
    let streamStart: Int64
    /// Whether the container gives each packet its own decode time: then the first packet
    /// decoded after the window's end ends it. Matroska stores presentation times only.
    let packetsCarryDecodeTime: Bool
    /// Whether the stream is audio. An audio frame is its packet's samples only where no
    /// trimming applies: the stream's first packets (priming, pre-skip, an edit list) and its
    /// last (padding) are left to the whole table, which follows libavcodec's trimming rule.
    let isAudio: Bool
    /// `defaultPacketLimit`, lower in tests.
    var packetLimit = Self.defaultPacketLimit
    /// Makes the decoder that checks the audio packet rule on a stream's first packets, for a
    /// container with no index to seek by (`readsPrefix`); nil where the index finds windows.
    var prefixDecoder: ((Demuxer) throws(FFmpegError) -> Decoder)?
    /// The PTS through which the prefix the engine plans on lists every frame, if it plans on
    /// one: a later prefix reads at least twice as far into the stream.
    var previousPrefixEnd: Int64?

    /// Whether seeks in `stream` of `demuxer` are read as windows: Matroska/WebM, MPEG-TS and
    /// fragmented MP4, which have no index that lists every frame (a fragmented MP4's `moov`
    /// states no samples). A progressive MP4's video table comes whole from its sample table,
    /// for what it costs is its boxes; its audio table would come from a pass over every packet
    /// (the trimming rule reads their side data), so audio reads windows there too.
    static func reads(_ demuxer: Demuxer, stream: Demuxer.Stream) -> Bool {
        let format = demuxer.formatName
        return format == "matroska,webm" || format == "mpegts"
            || demuxer.isFragmentedMP4(stream) || (format.hasPrefix("mov") && stream.mediaType == .audio)
            || readsPrefix(demuxer, stream: stream)
    }

    /// Whether a window of `stream` is its prefix, read from its first packet through the
    /// target: audio in a container that no window is read from, whose whole table would come
    /// from a pass over every packet. An MP3's, an ADTS AAC's or a raw AC-3's frames follow one
    /// another with nothing that says where a time lies (a Xing table of contents is in percent
    /// of the file, a constant bit rate a guess) nor which frame a packet is, so only counting
    /// from the start places one exactly; Ogg's granule positions and FLAC's seek table place
    /// some frames, but the trimming rule is only proven from the stream's start. A seek reads
    /// the stream up to its target rather than the whole file; `ffmpeg -ss` reads as far
    /// through its generic index in the first three.
    static func readsPrefix(_ demuxer: Demuxer, stream: Demuxer.Stream) -> Bool {
        stream.mediaType == .audio && prefixFormats.contains(demuxer.formatName)
    }

    /// FFmpeg's names of the containers `readsPrefix` reads prefixes of.
    static let prefixFormats: Set<String> = ["mp3", "aac", "ac3", "eac3", "ogg", "flac", "wav", "aiff"]

    /// How far before an audio target a window starts: room for the two pre-roll decodes
    /// that give a landing's samples (`FFmpegEngine.audioPreroll`), 128 Opus frames of up to
    /// 60 ms, with a margin.
    static let audioLeadIn = MediaTime(value: 10, timescale: 1)

    /// Whether `demuxer`'s packets carry a decode time of their own; Matroska stores only the
    /// presentation time, and FFmpeg's decode times for it are guesses.
    static func packetsCarryDecodeTime(_ demuxer: Demuxer) -> Bool {
        demuxer.formatName != "matroska,webm"
    }

    /// What one window read gave.
    struct Window {
        let result: FrameTableBuilder.Result
        /// The greatest PTS up to which every frame of the stream is in the window; `Int64.max`
        /// when the window runs to the end of the stream.
        let completeThrough: Int64
        /// Why reading stopped before the end of the file, when a read failed after packets were
        /// read: there the readable stream ends, as for a whole scan.
        let readError: String?
        /// The demuxer seeks it took.
        let demuxerSeeks: Int
        /// Whether its first keyframe is the stream's first: no frame comes before the window.
        let startsStream: Bool
        /// What demuxers other than the one given read for it (a prefix's, opened anew).
        var separateReads = MediaReads.none
    }

    /// Why no window could be read: the whole stream's table must answer instead.
    struct Unavailable: Error {
        let reason: String
    }

    /// The window holding a keyframe with PTS at or before `start`, and every frame with PTS up
    /// to `end`. With `end` nil, up to the first keyframe presented at or after `start` (the
    /// next keyframe a tolerance without an end looks for).
    func read(keyframeAtOrBefore start: Int64, through end: Int64?) throws(MediaError) -> Result<Window, Unavailable> {
        if let prefixDecoder { return try readPrefix(through: end ?? start, makeDecoder: prefixDecoder) }
        let timeBase = builder.demuxer.stream(builder.streamIndex).timeBase
        var stepBack = max(1, timeBase.ticks(in: MediaTime(value: 1, timescale: 1)) ?? 1)
        var seekTo = start
        var later: PacketRun?
        let bisection = MatroskaClusterBisection(demuxer: builder.demuxer, streamIndex: builder.streamIndex)
        // A fragmented MP4's seeks are taken again (`seekAgainFromLandedKeyframe`).
        let seeksFragments = builder.demuxer.isFragmentedMP4(builder.demuxer.stream(builder.streamIndex))
        var seeksAgain = 0
        defer { builder.demuxer.expectReadsToStay(in: nil) }
        for attempt in 0...Self.stepsBack {
            let (earlier, overflow) = seekTo.subtractingReportingOverflow(stepBack)
            let nextSeek = overflow ? streamStart : earlier
            // The last try's likely end would cut this try's seek short (Matroska's bisection
            // and cluster parsing read before it is set again below).
            builder.demuxer.expectReadsToStay(in: nil)
            let fromStreamStart = seekTo <= streamStart || attempt == Self.stepsBack
            if isAudio && fromStreamStart {
                return .failure(Unavailable(reason: "the first audio frames are trimmed by the decoder's rule"))
            }
            do {
                if fromStreamStart {
                    try seekToStreamStart(oneStepBefore: stepBack)
                } else {
                    // Past a Matroska index's last entry (no Cues), a cluster near the target
                    // first; a read that fails leaves the seek to FFmpeg's own way.
                    _ = try? bisection.addEntries(around: seekTo)
                    try builder.demuxer.seek(streamIndex: builder.streamIndex, to: seekTo)
                    if seeksFragments {
                        guard try seekAgainFromLandedKeyframe(sought: seekTo, nextTry: nextSeek) else {
                            // Further back than the next try aims: that try, rather than
                            // reading every packet from there.
                            (seekTo, stepBack) = (nextSeek, Self.doubled(stepBack))
                            continue
                        }
                        seeksAgain += 1
                    }
                }
            } catch {
                return .failure(Unavailable(reason: "the demuxer cannot seek (\(error.message))"))
            }
            // Over HTTP, requests that double stop where the window most likely ends, rather
            // than overshoot it by up to half: where a later try's read starts, which this one
            // joins, or else at the next keyframe's cluster where Matroska's Cues tell it.
            let likelyEnd = later?.packets.first?.position.flatMap { $0 > 0 ? 0..<$0 : nil }
            builder.demuxer.expectReadsToStay(in: likelyEnd ?? bisection.likelyWindowBytes(from: seekTo, through: end ?? start))
            let run: PacketRun
            switch try readPackets(from: start, through: end, joining: later) {
            case .success(let read): run = read
            case .failure(let unavailable): return .failure(unavailable)
            }
            let packets = run.packets
            let keyframe =
                packets.lastIndex { $0.isKeyframe && $0.pts! <= start }
                ?? (fromStreamStart ? packets.firstIndex { $0.isKeyframe } : nil)
            if let keyframe {
                let window = ScannedPackets(packets: Array(packets[keyframe...]))
                var result = try builder.tableFromPackets(window, missingDataBefore: [:], source: .seekWindow)
                if isAudio {
                    // A decoder may keep priming the rule trims (see `audioTableFromPackets`):
                    // the landing is the decoded frame covering the target, not a packet's.
                    result = FrameTableBuilder.Result(
                        table: result.table, packetOrder: .unknown, readError: result.readError,
                        corruptFrames: result.corruptFrames)
                }
                let through = run.endedBeforeStreamEnd ? run.stop ?? .max : .max
                let startsStream = fromStreamStart && packets.firstIndex(where: \.isKeyframe) == keyframe
                return .success(
                    Window(
                        result: result, completeThrough: through, readError: run.readError,
                        demuxerSeeks: attempt + 1 + seeksAgain, startsStream: startsStream))
            }
            if fromStreamStart {
                // A target before the first keyframe of a stream cut mid-GOP: the window runs
                // to that keyframe, where the landing rules clamp it.
                if end != nil, run.endedBeforeStreamEnd { return try read(keyframeAtOrBefore: start, through: nil) }
                return .failure(Unavailable(reason: "no keyframe in the stream"))
            }
            later = run
            (seekTo, stepBack) = (nextSeek, Self.doubled(stepBack))
        }
        return .failure(Unavailable(reason: "no keyframe found before the target"))
    }

    /// Twice `step`, unless that overflows.
    private static func doubled(_ step: Int64) -> Int64 {
        let (twice, overflow) = step.multipliedReportingOverflow(by: 2)
        return overflow ? step : twice
    }

    /// Takes the seek to `sought` again from the keyframe it went to, by that keyframe's PTS, so
    /// that FFmpeg's MP4 demuxer reads on from there through every fragment; false, leaving
    /// the demuxer where it stands, when that keyframe is presented before `nextTry`, the
    /// target of the try after this one.
    ///
    /// FFmpeg's seek in a fragmented MP4 with a `sidx` reads the fragment that the `sidx` puts
    /// the target in, by presentation time, then goes to the last keyframe at or before the
    /// target by decode time among the samples of the fragments read so far, and reads on from
    /// the fragment after the one it read. Where B-frames put that fragment's first decode
    /// time after the target, the keyframe is in an earlier fragment read before, often the
    /// file's first, and the packets run from it straight into the fragment read, the ones
    /// between never read: a window built on them misses every frame there. A seek to the
    /// keyframe's own PTS reads its own fragment, and the packets from it follow one another.
    /// A keyframe that far back is left for the next try, which reads the fragment before the
    /// target's (or goes to the same keyframe, which a stream's long GOP puts there).
    private func seekAgainFromLandedKeyframe(sought: Int64, nextTry: Int64) throws(FFmpegError) -> Bool {
        let demuxer = builder.demuxer
        let packet = Packet()
        var landed: Int64?
        // A read that fails or finds nothing leaves the seek as it was, for the read after it
        // to meet the same.
        while (try? demuxer.read(into: packet)) == true {
            defer { packet.unref() }
            guard packet.streamIndex == builder.streamIndex else { continue }
            landed = packet.pts
            break
        }
        guard let landed else {
            try demuxer.seek(streamIndex: builder.streamIndex, to: sought)
            return true
        }
        if landed < nextTry, nextTry > streamStart { return false }
        try demuxer.seek(streamIndex: builder.streamIndex, to: landed)
        return true
    }

    /// The stream's frames from its first through `end`, or further: at least twice as far
    /// from the stream's start as the prefix before (`previousPrefixEnd`), so that seeks and
    /// steps moving on through the stream read it a bounded number of times, not once each.
    /// Read by a demuxer opened anew, which starts at the first byte as a whole scan does (a
    /// seek to the start is each container's guess), with the rule of `audioTableFromPackets`.
    private func readPrefix(
        through end: Int64, makeDecoder: (Demuxer) throws(FFmpegError) -> Decoder
    ) throws(MediaError) -> Result<Window, Unavailable> {
        var stop = end
        if let previous = previousPrefixEnd {
            // The numbers are the file's: an overflow keeps the target's end.
            let (span, spanOverflow) = previous.subtractingReportingOverflow(streamStart)
            let (twice, twiceOverflow) = span.multipliedReportingOverflow(by: 2)
            let (far, farOverflow) = streamStart.addingReportingOverflow(twice)
            if !spanOverflow, !twiceOverflow, !farOverflow { stop = max(stop, far) }
        }
        // Probed as the open probed it: FFmpeg's MP3 demuxer gives packets their durations
        // from what the probe learns of the stream.
        let fresh = try builder.reopened(probingStreams: true)
        if let likelyEnd = Self.likelyByteEnd(of: stop, from: streamStart, timeBase: builder.timeBase, bitRate: fresh.demuxer.bitRate) {
            fresh.demuxer.expectReadsToStay(in: 0..<likelyEnd)
        }
        let outcome = try fresh.audioTableFromPackets(
            decodeWith: { () throws(FFmpegError) in try makeDecoder(fresh.demuxer) }, through: stop)
        guard case .built(let result) = outcome else {
            return .failure(Unavailable(reason: "the stream's packets do not follow the audio packet rule"))
        }
        // A scan that met the end of the stream (or a read that failed) is the whole table.
        let isPrefix = result.table.source == .streamPrefix
        return .success(
            Window(
                result: result, completeThrough: isPrefix ? stop : .max, readError: result.readError, demuxerSeeks: 0,
                startsStream: true, separateReads: fresh.demuxer.reads))
    }

    /// Where a prefix through `stop` likely ends in the file, by the stream's average bit rate and
    /// a little short of it; nil when it cannot be told. Over HTTP the reader's requests double
    /// up to 16 MiB, so the last would run past the prefix by up to that much; told this, they
    /// end there at the latest, and reads past it start small again and double. A guess only:
    /// where the stream is denser early on, a few more requests; where sparser, bytes past the
    /// prefix, never more than the requests would have read without it.
    static func likelyByteEnd(of stop: Int64, from streamStart: Int64, timeBase: TimeBase, bitRate: Int64?) -> Int64? {
        guard let bitRate, stop < .max else { return nil }
        let (span, overflow) = stop.subtractingReportingOverflow(streamStart)
        guard !overflow, span > 0 else { return nil }
        let bytes = timeBase.time(ofTicks: span).seconds * Double(bitRate) / 8 * 0.98
        guard bytes.isFinite, bytes >= 1, bytes < 0x1p62 else { return nil }
        return Int64(bytes)
    }

    /// The window of the keyframe with PTS `pts` alone, which the container's index lists
    /// (Matroska's Cues): the seek goes to it, and only its packet is read. What a thumbnail on
    /// that keyframe needs, and no more: a window through the next packets would read a part
    /// of the GOP for nothing. Unavailable when the first packet the seek gives is not a
    /// keyframe with that PTS (an index that is wrong): the usual window must answer.
    func read(keyframeAt pts: Int64) throws(MediaError) -> Result<Window, Unavailable> {
        let demuxer = builder.demuxer
        demuxer.expectReadsToStay(in: nil)
        do { try demuxer.seek(streamIndex: builder.streamIndex, to: pts) } catch {
            return .failure(Unavailable(reason: "the demuxer cannot seek (\(error.message))"))
        }
        let packet = Packet()
        while true {
            let more: Bool
            do { more = try demuxer.read(into: packet) } catch {
                throw MediaError(
                    path: demuxer.path, reason: .readFailed, cause: "reading the keyframe failed: \(demuxer.log.message(for: error))")
            }
            guard more else { return .failure(Unavailable(reason: "no packet after the keyframe's seek")) }
            defer { packet.unref() }
            guard packet.streamIndex == builder.streamIndex else { continue }
            guard packet.isKeyframe, packet.pts == pts else {
                return .failure(Unavailable(reason: "the index lists a keyframe where the stream has none"))
            }
            let result = try builder.tableFromPackets(
                ScannedPackets(packets: [ScannedPacket(packet)]), missingDataBefore: [:], source: .seekWindow)
            return .success(Window(result: result, completeThrough: pts, readError: nil, demuxerSeeks: 1, startsStream: false))
        }
    }

    /// Seeks to before the stream's first packet. A seek to the first PTS is not enough where
    /// that packet is decoded after others (a B-frame stream's first keyframe has the lowest
    /// DTS, and MPEG-TS seeks by DTS), so it aims a step earlier, where demuxers that refuse a
    /// time before the stream do not go, then at the first PTS itself.
    private func seekToStreamStart(oneStepBefore step: Int64) throws(FFmpegError) {
        let (before, overflow) = streamStart.subtractingReportingOverflow(step)
        if !overflow, (try? builder.demuxer.seek(streamIndex: builder.streamIndex, to: before)) != nil { return }
        try builder.demuxer.seek(streamIndex: builder.streamIndex, to: streamStart)
    }

    private var tooManyPackets: Unavailable { Unavailable(reason: "more than \(packetLimit) packets before the target") }

    /// Packets read in decode order, and how the read ended.
    private struct PacketRun {
        var packets: [ScannedPacket]
        /// The PTS the window must reach: the given end, or the next keyframe once seen.
        var stop: Int64?
        /// Whether the read ended because no later packet can be presented at or before `stop`,
        /// rather than at the end of the stream.
        var endedBeforeStreamEnd: Bool
        /// Why a read failed after packets were read: the readable end of the stream.
        var readError: String?
    }

    /// The stream's packets from where the demuxer stands until no later one can be presented
    /// at or before the window's end: one decoded after it, or `reorderBound` in a row
    /// presented after it; or until the first packet of `later`, a later try's read, which is
    /// joined on.
    private func readPackets(
        from start: Int64, through end: Int64?, joining later: PacketRun?
    ) throws(MediaError)
        -> Result<PacketRun, Unavailable>
    {
        let demuxer = builder.demuxer
        let packet = Packet()
        var run = PacketRun(packets: [], stop: end, endedBeforeStreamEnd: false)
        var after = 0
        // A join the window reads through is refused as the whole scan refuses it; the packet
        // that meets a later try's read is checked too, for the run goes on there.
        var joinCheck = DecodeTimeJoinCheck(builder)
        while true {
            let more: Bool
            do { more = try demuxer.read(into: packet) } catch {
                let cause = demuxer.log.message(for: error)
                guard !run.packets.isEmpty else {
                    throw MediaError(path: demuxer.path, reason: .readFailed, cause: "reading the seek window failed: \(cause)")
                }
                run.readError = "reading failed after \(run.packets.count) packets of the seek window: \(cause)"
                return .success(run)
            }
            guard more else { return .success(run) }
            defer { packet.unref() }
            guard packet.streamIndex == builder.streamIndex else { continue }
            try joinCheck?.check(packet)
            guard let pts = packet.pts else { return .failure(Unavailable(reason: "a packet carries no PTS")) }
            if isAudio && (packet.sampleTrim != nil || packet.isDiscarded || packet.duration <= 0) {
                return .failure(Unavailable(reason: "an audio packet is trimmed, discarded or has no duration"))
            }
            if let later, let first = later.packets.first, pts == first.pts, packet.position == first.position {
                // Each try is within the limit, and the joined run must be too: 17 tries could
                // hold 17 times as many packets, copied again at each join.
                guard run.packets.count + later.packets.count <= packetLimit else { return .failure(tooManyPackets) }
                return .success(
                    PacketRun(
                        packets: run.packets + later.packets, stop: later.stop, endedBeforeStreamEnd: later.endedBeforeStreamEnd,
                        readError: later.readError))
            }
            run.packets.append(ScannedPacket(packet))
            guard run.packets.count <= packetLimit else { return .failure(tooManyPackets) }
            if run.stop == nil, packet.isKeyframe, pts >= start { run.stop = pts }
            guard let stop = run.stop else { continue }
            if packetsCarryDecodeTime, let dts = packet.dts, dts > stop {
                run.endedBeforeStreamEnd = true
                return .success(run)
            }
            after = pts > stop ? after + 1 : 0
            if after >= Self.reorderBound {
                run.endedBeforeStreamEnd = true
                return .success(run)
            }
        }
    }
}
