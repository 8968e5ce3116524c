import FrameSeekCore

extension FFmpegEngine {
    /// The audio frame the last seek landed on, as `ffmpeg -f framemd5` decodes and converts
    /// it. Nil for video streams or before any landing.
    ///
    /// Audio decoders carry state from frame to frame (AAC's overlapped transform, MP3's bit
    /// reservoir, the priming samples an edit list discards at the start), so the samples a
    /// decoder produces right after a seek differ from those of FFmpeg's decode from the
    /// start, by a few units in the last bit or entirely. The landing itself is right; its
    /// samples are not the reference. So the frame is decoded again, by a demuxer and decoder
    /// of its own, every packet sent as ffmpeg sends it, and the engine's own state is
    /// untouched.
    ///
    /// That decode starts a few frames before the landing (`audioPreroll(codecName:)`) where
    /// the codec's state is made only of the last frames: an MP3 decoder's reservoir reaches
    /// 511 bytes back and its filter bank one frame; FLAC and PCM keep none. Two such decodes, from one and from two pre-rolls back, must give the same samples, or it
    /// starts from the stream's start: the cost is then one decode up to the frame.
    ///
    /// - Throws: `MediaError` naming the file when the reference decode cannot reach the
    ///   frame or libswresample cannot convert it.
    public func landedAudio() throws(MediaError) -> DecodedAudio? {
        guard let index = landedFrameIndex, media.selectedStream.mediaType == .audio else { return nil }
        let target = frameTable.frames[index].pts
        let streamIndex = media.selectedStreamIndex
        do {
            if let preroll = Self.audioPreroll(codecName: media.selectedStream.codec), index > 2 * preroll,
                let near = try referenceDecode(streamIndex: streamIndex, pts: target, fromFrame: index - preroll),
                let far = try referenceDecode(streamIndex: streamIndex, pts: target, fromFrame: index - 2 * preroll),
                near == far
            {
                return near
            }
            guard let audio = try referenceDecode(streamIndex: streamIndex, pts: target, fromFrame: nil) else {
                throw MediaError(
                    path: path, reason: .decodeFailed,
                    cause: "audio frame \(index) (pts \(target)) not found decoding from the start")
            }
            return audio
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
    /// Opus's and Vorbis's state carries on indefinitely, and so does the random generator of
    /// AAC's noise substitution and of AC-3's dither: an AAC-LC fixture decoded from 4 and
    /// from 8 frames back agreed, and both differed from the decode from the start.
    static func audioPreroll(codecName: String) -> Int? {
        switch codecName {
        case "mp1", "mp2", "mp3": 10  // a 511-byte reservoir is at most 8 frames of the smallest
        case "flac", "alac": 1
        default: codecName.hasPrefix("pcm_") ? 1 : nil
        }
    }

    /// Decodes `streamIndex` with a demuxer and decoder of its own, from the start or from
    /// frame `fromFrame`, until the frame whose PTS is `pts`, and converts it. Decoding errors
    /// are passed over, as the ffmpeg command passes them over.
    private func referenceDecode(streamIndex: Int, pts: Int64, fromFrame: Int?) throws -> DecodedAudio? {
        // The same bytes the engine reads: its file, or the media it was opened on in memory.
        let demuxer = try pool.active.demuxer.reopened()
        demuxer.selectOnly(streamIndex: streamIndex)
        if let fromFrame {
            let start = frameTable.frames[fromFrame]
            if let position = start.packetPosition {
                demuxer.addSeekPoint(streamIndex: streamIndex, position: position, timestamp: start.pts)
            }
            try demuxer.seek(streamIndex: streamIndex, to: start.pts)
        }
        let decoder = try Decoder(stream: demuxer.stream(streamIndex), threads: 1, log: log)
        let packet = Packet(), frame = Frame()
        func drain() throws -> DecodedAudio? {
            while true {
                guard case .frame = (try? decoder.receive(into: frame)) ?? .needsInput else { return nil }
                defer { frame.unref() }
                if frame.pts == pts { return try DecodedAudio(frame: frame) }
            }
        }
        while try demuxer.read(into: packet) {
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            try? decoder.send(packet)
            if let found = try drain() { return found }
        }
        try? decoder.sendEndOfStream()
        return try drain()
    }
}
