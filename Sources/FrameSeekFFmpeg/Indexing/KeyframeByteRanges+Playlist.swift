import Foundation
import FrameSeekCore

extension KeyframeByteRanges {
    /// The I-frame playlist of these keyframes, each resource named by `uri`.
    ///
    /// Times: the first keyframe is at 0 and each later one at its PTS's distance from it, so
    /// a keyframe's EXTINFs add up to where a decode of its bytes presents it. After an
    /// EXT-X-DISCONTINUITY the timestamps start over: that run starts where the media playlist
    /// starts the segment holding its first keyframe, plus the keyframe's distance from that
    /// segment's first frame, and the last keyframe before it lasts until then.
    ///
    /// - Throws: `MediaError` naming the resource whose timestamps go back without a
    ///   discontinuity, or do not fit microseconds.
    public func iFramePlaylist(naming uri: (URL) -> String) throws(MediaError) -> HLSIFramePlaylist {
        var runs: [ArraySlice<KeyframeResource>] = []
        var runStart = 0
        while runStart < resources.count {
            var runEnd = runStart + 1
            while runEnd < resources.count, !resources[runEnd].discontinuity { runEnd += 1 }
            runs.append(resources[runStart..<runEnd])
            runStart = runEnd
        }
        var iframes: [HLSIFramePlaylist.IFrame] = []
        let anchors = runs.enumerated().map { Self.anchor(of: $0.element, first: $0.offset == 0) }
        for (number, run) in runs.enumerated() {
            guard let anchor = anchors[number] else { continue }
            let next = anchors[(number + 1)...].lazy.compactMap(\.self).first
            iframes += try place(run, anchor: anchor, until: next, afterDiscontinuity: number > 0, naming: uri)
        }
        return HLSIFramePlaylist(iframes: iframes)
    }

    /// Where a run's first keyframe is on the playlist's timeline, with that keyframe's PTS;
    /// nil for a run without keyframes.
    private static func anchor(of run: ArraySlice<KeyframeResource>, first: Bool) -> (time: MediaTime, pts: MediaTime)? {
        guard let holder = run.first(where: { !$0.keyframes.isEmpty }), let keyframe = holder.keyframes.first else { return nil }
        if first { return (.zero, keyframe.time) }
        return ((holder.playlistStart ?? .zero) + keyframe.time - holder.begin, keyframe.time)
    }

    /// The entries of resources sharing one clock, the last one lasting until `until` (where
    /// the next run starts) or the end of the run's last frame.
    private func place(
        _ run: ArraySlice<KeyframeResource>, anchor: (time: MediaTime, pts: MediaTime), until next: (time: MediaTime, pts: MediaTime)?,
        afterDiscontinuity: Bool, naming uri: (URL) -> String
    ) throws(MediaError) -> [HLSIFramePlaylist.IFrame] {
        let placed = run.flatMap { resource in resource.keyframes.map { (resource, $0) } }
        let runEnd = anchor.time + max(run.last?.end ?? anchor.pts, placed.last?.1.time ?? anchor.pts) - anchor.pts
        var iframes: [HLSIFramePlaylist.IFrame] = []
        for (position, (resource, keyframe)) in placed.enumerated() {
            let name = resource.location.isFileURL ? resource.location.path : resource.location.absoluteString
            let stop =
                position + 1 < placed.count ? anchor.time + placed[position + 1].1.time - anchor.pts : (next?.time ?? runEnd)
            guard let start = Self.microseconds(anchor.time + keyframe.time - anchor.pts), let end = Self.microseconds(stop),
                start >= 0, end >= start
            else {
                throw MediaError(
                    path: name, reason: .readFailed,
                    cause:
                        "keyframe timestamps go back, or out of range, without an EXT-X-DISCONTINUITY (at PTS \(keyframe.time.seconds) s)")
            }
            guard let length = Int(exactly: keyframe.bytes.count), let offset = Int(exactly: keyframe.bytes.lowerBound) else {
                throw MediaError(path: name, reason: .readFailed, cause: "a keyframe's byte range out of range")
            }
            iframes.append(
                HLSIFramePlaylist.IFrame(
                    uri: uri(resource.location), bytes: HLSByteRange(length: length, offset: offset),
                    map: HLSIFramePlaylist.Map(uri: uri(resource.map.location), range: resource.map.range),
                    microseconds: start, durationMicroseconds: end - start, discontinuity: afterDiscontinuity && position == 0))
        }
        return iframes
    }

    /// `time` in whole microseconds, rounded; nil when it is not a finite time that fits.
    private static func microseconds(_ time: MediaTime) -> Int64? {
        let scaled = time.convertScale(1_000_000)
        return scaled.isNumeric && scaled.timescale == 1_000_000 ? scaled.value : nil
    }
}
