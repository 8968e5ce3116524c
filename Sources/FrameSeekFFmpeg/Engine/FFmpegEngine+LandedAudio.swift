import FrameSeekCore

extension FFmpegEngine {
    /// The audio frame the last seek landed on, as `ffmpeg -f framemd5` decodes and converts
    /// it. Nil for video streams or before any landing.
    ///
    /// Audio decoders carry state from frame to frame (AAC's overlapped transform, MP3's bit
    /// reservoir, the priming samples an edit list discards at the start), so the samples a
    /// decoder produces right after a seek differ from those of FFmpeg's decode from the
    /// start, by a few units in the last bit or entirely. The landing itself is right; its
    /// samples are not the reference. So the frame is decoded again, by a decoder of its own,
    /// every packet sent as ffmpeg sends it.
    ///
    /// That decode starts a few frames before the landing (`audioPreroll(codecName:)`) where
    /// the codec's state is made only of the last frames: an MP3 decoder's reservoir reaches
    /// 511 bytes back and its filter bank one frame; FLAC and PCM keep none; Opus's converges.
    /// Two such decodes, from one and from two pre-rolls back, must give the same samples, or
    /// it starts from the stream's start: the cost is then one decode up to the frame.
    ///
    /// AAC and AC-3 keep a random generator from the stream's start (`stateCheckedPreroll`).
    /// Their frame is decoded from a few frames back once, and again by a decoder that has
    /// just decoded those same frames up to the landing: its generator has moved on by every
    /// number the landing's own frames drew. The two agree only where the landed samples draw
    /// none, and are then the decode from the start's; otherwise it starts from the start.
    ///
    /// - Throws: `MediaError` naming the file when the reference decode cannot reach the
    ///   frame or libswresample cannot convert it.
    public func landedAudio() throws(MediaError) -> DecodedAudio? {
        try landedAudioAndItsDecode()?.audio
    }

    /// `landedAudio()`, and the frame its decode started from: nil for the stream's start.
    func landedAudioAndItsDecode() throws(MediaError) -> (audio: DecodedAudio, decodedFrom: Int?)? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .audio else { return nil }
        // The table the landing was planned on: a seek window's, or the whole stream's.
        let table = executor.table
        let target = table.frames[index].pts
        let streamIndex = media.selectedStreamIndex
        let codec = media.selectedStream.codec
        do {
            if let preroll = Self.audioPreroll(codecName: codec), index > 2 * preroll,
                let near = try referenceDecode(streamIndex: streamIndex, pts: target, from: table.frames[index - preroll]),
                let far = try referenceDecode(streamIndex: streamIndex, pts: target, from: table.frames[index - 2 * preroll]),
                near == far
            {
                return (near, index - preroll)
            }
            if let preroll = Self.stateCheckedPreroll(codecName: codec), index > preroll,
                let once = try referenceDecode(streamIndex: streamIndex, pts: target, from: table.frames[index - preroll]),
                let twice = try referenceDecode(streamIndex: streamIndex, pts: target, from: table.frames[index - preroll], passes: 2),
                once == twice
            {
                return (once, index - preroll)
            }
            guard let audio = try referenceDecode(streamIndex: streamIndex, pts: target, from: nil) else {
                throw MediaError(
                    path: path, reason: .decodeFailed,
                    cause: "audio frame \(index) (pts \(target)) not found decoding from the start")
            }
            return (audio, nil)
        } catch let error as FFmpegError {
            throw MediaError(
                path: path, reason: .conversionFailed,
                cause: "cannot decode audio frame \(index) as 16-bit samples: \(error.description)")
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: .decodeFailed, cause: "\(error)")
        }
    }

    /// How many frames before a landing a decode of `codecName` starts to give the samples a
    /// decode from the start gives; nil when its state is not bounded that way, or not known.
    ///
    /// - Vorbis overlaps each block with the one before it and keeps nothing older.
    /// - Opus's state (CELT's band energies and pitch filter, SILK's gains and LPC history)
    ///   is predicted from the frames before, with weights under one: two decodes started at
    ///   different places come to the same bits within 8 to 31 frames of 20 ms on the speech
    ///   and music measured, and 64 leaves room. It is a convergence, not a bound, which is why
    ///   the two decodes must agree.
    /// - The random generator of AAC's noise substitution and of AC-3's dither carries on from
    ///   the stream's start: an AAC-LC stream with noise bands, decoded from 1, 3 and 8 frames
    ///   back, gave three MD5s and none was the decode from the start's. Without noise bands
    ///   one frame back is exact, but no API tells which bands a frame codes as noise.
    static func audioPreroll(codecName: String) -> Int? {
        switch codecName {
        case "mp1", "mp2", "mp3": 10  // a 511-byte reservoir is at most 8 frames of the smallest
        case "flac", "alac": 1
        case "vorbis": 2
        case "opus": 64
        default: codecName.hasPrefix("pcm_") ? 1 : nil
        }
    }

    /// How many frames before a landing a decode of `codecName` starts where its state is
    /// bounded but for a random generator carried from the stream's start (AAC's noise
    /// substitution, AC-3's dither), so that the samples are the decode from the start's only
    /// where the landing draws nothing from it, which `landedAudio` checks. AAC's transform
    /// overlaps one frame and its long-term prediction two; HE-AAC's SBR analysis runs a few
    /// frames behind; AC-3's blocks overlap within one frame. The count is even: the check's
    /// second pass then moves state that advances by a fixed step per frame (SBR's noise and
    /// sine indices, modulo powers of two) by an odd number of steps, which leaves such state
    /// unchanged only where every frame leaves it unchanged, as a decode from the start does.
    static func stateCheckedPreroll(codecName: String) -> Int? {
        switch codecName {
        case "aac", "aac_latm": 8
        case "ac3", "eac3": 4
        default: nil
        }
    }

    /// Decodes `streamIndex` with a decoder of its own, from the start or from
    /// frame `start`, until the frame whose PTS is `pts`, and converts it. With `passes` 2 the
    /// decoder first decodes the same frames up to that one, and then goes back to `start`
    /// without a flush, carrying every state it built. Decoding errors are passed over, as the
    /// ffmpeg command passes them over.
    private func referenceDecode(streamIndex: Int, pts: Int64, from start: FrameEntry?, passes: Int = 1) throws -> DecodedAudio? {
        // From a frame, the engine's own demuxer, whose decoders then start afresh at their
        // next landing: a second demuxer would hold a second copy of the container's index
        // (15 MB for a three-hour M4B). From the start, a demuxer opened anew, which reads
        // from the first byte as ffmpeg does; a seek to the start is each container's guess.
        let demuxer: Demuxer
        if start == nil {
            demuxer = try pool.active.demuxer.reopened()
            demuxer.selectOnly(streamIndex: streamIndex)
        } else {
            demuxer = pool.active.demuxer
        }
        defer { if start != nil { pool.forgetPositions() } }
        if let start, let position = start.packetPosition {
            demuxer.addSeekPoint(streamIndex: streamIndex, position: position, timestamp: start.pts)
        }
        let decoder = try Decoder(stream: demuxer.stream(streamIndex), threads: 1, log: log)
        let packet = Packet(), frame = Frame()
        func drain(keeping: Bool) throws -> DecodedAudio? {
            while true {
                guard case .frame = (try? decoder.receive(into: frame)) ?? .needsInput else { return nil }
                defer { frame.unref() }
                if keeping, frame.pts == pts { return try DecodedAudio(frame: frame) }
            }
        }
        // The demuxer seeks to a cluster or a page, maybe seconds before: packets before the
        // frame asked for are left out, so that the decodes `landedAudio` compares start
        // where they say and their agreement means something.
        let firstPTS = start?.pts ?? .min
        for pass in 1...max(1, passes) {
            let last = pass == max(1, passes)
            if let start { try demuxer.seek(streamIndex: streamIndex, to: start.pts) }
            while try demuxer.read(into: packet) {
                defer { packet.unref() }
                guard packet.streamIndex == streamIndex, (packet.pts ?? .max) >= firstPTS else { continue }
                try? decoder.send(packet)
                if let found = try drain(keeping: last) { return found }
                if !last, let packetPTS = packet.pts, packetPTS >= pts { break }
            }
            if !last { continue }
            try? decoder.sendEndOfStream()
            return try drain(keeping: true)
        }
        return nil
    }
}
