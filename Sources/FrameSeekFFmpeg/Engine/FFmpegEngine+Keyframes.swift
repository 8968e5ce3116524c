import CFFmpeg
import FrameSeekCore

extension FFmpegEngine {
    /// Decodes keyframe `index` on its own: the demuxer seeks to it, only its packet is read
    /// and decoded, and the decoder is drained. The thumbnail fast path: one packet per
    /// picture instead of a GOP.
    ///
    /// Falls back to an ordinary decode when the demuxer does not deliver the keyframe's
    /// packet first (MPEG-TS can land late) or the frame is no random access point.
    public func decodeKeyframe(_ index: Int) throws(MediaError) {
        let frame = frameTable.frames[index]
        guard frame.isKeyframe, let point = frameTable.randomAccessPoint(forFrame: index), point.pts == frame.pts,
              !decodeOrderByPTS.isEmpty else {
            try decodeFrame(index)
            return
        }
        if let cached = cache.frame(index) {
            try landFromCache(cached, as: index)
            return
        }
        // The decoder is drained below, so whatever it held is gone: the next seek repositions.
        position = nil
        decoder.flush()
        do {
            try demuxer.seek(streamIndex: frameTable.streamIndex, to: min(point.dts ?? point.pts, point.pts))
            var found = false
            while !found, try demuxer.read(into: packet) {
                defer { packet.unref() }
                guard packet.streamIndex == frameTable.streamIndex, let pts = packet.pts else { continue }
                if pts == point.pts {
                    try decoder.send(packet)
                    found = true
                } else if let order = decodeOrderByPTS[pts], order > point.decodeOrder {
                    break  // landed late
                }
            }
            guard found else {
                try decodeFrame(index)
                return
            }
            try decoder.sendEndOfStream()
            while case .frame = try decoder.receive(into: scratchFrame) {
                if scratchFrame.pts == frame.pts {
                    landedFrame.take(scratchFrame)
                    landedFrameIndex = index
                } else {
                    scratchFrame.unref()
                }
            }
            decoder.flush()
        } catch let error as FFmpegError {
            throw MediaError(path: path, reason: .decodeFailed, detail: "decoding keyframe \(index) failed: \(error.description)")
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: .decodeFailed, detail: "decoding keyframe \(index) failed: \(error)")
        }
        guard landedFrameIndex == index else {
            try decodeFrame(index)
            return
        }
        cache.insert(landedFrame, as: index)
    }

    /// Decodes frame `index` exactly, as a seek to it would.
    public func decodeFrame(_ index: Int) throws(MediaError) {
        guard let point = frameTable.randomAccessPoint(forFrame: index) else {
            throw MediaError(path: path, reason: .decodeFailed, detail: "frame \(index) has no keyframe to start from")
        }
        _ = try produce(frame: index, startingAt: point, refillingBackward: false)
    }

    /// The landed frame as 8-bit RGB scaled to `width` x `height` (coded orientation), in one
    /// swscale call straight from the decoder's pixel format.
    ///
    /// - Throws: `MediaError` (`.conversionFailed`) when swscale cannot convert to that size.
    public func landedImage(width: Int, height: Int) throws(MediaError) -> RGBImage? {
        try landedRGB(width: width, height: height)
    }
}
