/// Every frame of one stream in presentation order, with the points decoding can start from.
///
/// This is the engine's map of the stream. All landing decisions are made on it, in exact
/// media time, before any decoding happens (see `FrameTable+Landing.swift`).
public struct FrameTable: Sendable {
    /// How the table was built.
    public enum Source: String, Sendable {
        /// One pass over the packets, without decoding.
        case packetScan
        /// One pass of decoding: audio whose codec's frames the packets do not tell, and video
        /// whose packets carry no timestamps.
        case decodeScan
        /// One pass over an audio stream's packets, without decoding: each packet is one frame,
        /// less the samples libavcodec trims (priming and padding side data, edit-list discards),
        /// checked against a decode of the first packets.
        case audioPackets
        /// One pass over the packets as the container's index describes them, reading only the
        /// index (an MP4's `moov`): every PTS and flag as the demuxer gives it, no payload read.
        case containerIndex
        /// The container's index with the MP4 sample table's composition offsets (`ctts`)
        /// read from its boxes, no packet handed out but the first few and the last, which it
        /// is checked against.
        case sampleTable
        /// The packets around one seek target only: from the random access point before it to
        /// just past it, read where the container's own index put the demuxer. Its frames are
        /// numbered from the window's first frame, not the stream's (`coversStream` is false).
        case seekWindow
        /// An audio stream's first frames through just past one seek target, from one pass over
        /// its packets as `audioPackets` makes (a container with no index to seek by, an MP3):
        /// numbered as in the stream (`numbersStreamFrames`), but the stream goes on after
        /// them (`coversStream` is false).
        case streamPrefix
    }

    /// The absolute index of the stream, as ffprobe numbers streams.
    public let streamIndex: Int
    /// The unit of `FrameEntry.pts`.
    public let timeBase: TimeBase
    /// The raw PTS that is time zero on the timeline: the container's start time in this
    /// stream's time base (as `ffmpeg -ss` counts).
    public let originPTS: Int64
    /// The frames, sorted by presentation time, at 16 bytes a frame (24 with packet positions, kept
    /// for audio), or 8 in runs (see `FrameList`).
    public let frames: FrameList
    /// Keyframe packets sorted by PTS, including any that an edit list discards.
    public let randomAccessPoints: RandomAccessPointList
    /// How the table was built.
    public let source: Source
    /// Stretches no frame covers because their media could not be read, in time order.
    public let missingData: [MissingData]
    /// Indices of the keyframes in `frames`, ascending; kept so the landing rules find the
    /// keyframes around a target by binary search.
    let keyframePositions: KeyframeIndexList

    /// Creates a table. `frames` must be sorted by `pts` and indexed 0..<count, and
    /// `randomAccessPoints` sorted by `pts`. `missingDataAfter` maps a frame to the reason the
    /// media after it could not be read: such a frame covers only its own duration, and the
    /// rest of the way to the next frame is `missingData`.
    public init(
        streamIndex: Int, timeBase: TimeBase, originPTS: Int64, frames: [FrameEntry],
        randomAccessPoints: [RandomAccessPoint], source: Source,
        missingDataAfter: [Int: String] = [:]
    ) {
        self.init(
            streamIndex: streamIndex, timeBase: timeBase, originPTS: originPTS,
            frames: FrameList(
                frames, timeBase: timeBase, originPTS: originPTS,
                endingAtOwnDuration: Set(missingDataAfter.keys)),
            randomAccessPoints: RandomAccessPointList(randomAccessPoints), source: source, missingDataAfter: missingDataAfter)
    }

    /// Creates a table from frames already packed (`FrameList.init(count:timeBase:originPTS:
    /// endingAtOwnDuration:frame:)`, with `missingDataAfter`'s keys as the frames ending at
    /// their own duration); the same conditions as the other initializer hold.
    ///
    /// `edgeMissingData` are stretches at the edges of the timeline that no frame bounds on
    /// one side: before the first frame (`afterFrame` -1) and after the last one (an HLS
    /// window's first or last segments that could not be read).
    package init(
        streamIndex: Int, timeBase: TimeBase, originPTS: Int64, frames: FrameList,
        randomAccessPoints: RandomAccessPointList, source: Source, missingDataAfter: [Int: String] = [:],
        edgeMissingData: [MissingData] = []
    ) {
        self.streamIndex = streamIndex
        self.timeBase = timeBase
        self.originPTS = originPTS
        var missing: [MissingData] = []
        for (i, evidence) in missingDataAfter.sorted(by: { $0.key < $1.key }) where frames.indices.contains(i) {
            let next = i + 1 < frames.count ? frames[i + 1].time : nil
            let start = frames[i].time + frames[i].duration
            let end = max(next ?? start, start)
            if end > start { missing.append(MissingData(afterFrame: i, start: start, end: end, evidence: evidence)) }
        }
        missing += edgeMissingData.filter { $0.end > $0.start }
        missing.sort { $0.start < $1.start }
        self.frames = frames
        self.missingData = missing
        self.randomAccessPoints = randomAccessPoints
        self.source = source
        self.keyframePositions = KeyframeIndexList(frames)
    }

    /// Whether the table lists every frame of the stream: false for a seek window, which lists
    /// only the frames one landing needs, and for a stream's prefix.
    public var coversStream: Bool { source != .seekWindow && source != .streamPrefix }

    /// Whether the table's indices are the frames' numbers in the stream: it lists every frame
    /// from the stream's first (a prefix too).
    public var numbersStreamFrames: Bool { source != .seekWindow }

    /// The time of a raw PTS on the zero-based timeline.
    public func time(ofPTS pts: Int64) -> MediaTime {
        timeBase.time(ofTicks: pts &- originPTS)
    }

    /// `[first frame, end of last frame)`, or nil for an empty table.
    public var seekableRange: Range<MediaTime>? {
        guard let first = frames.first, let last = frames.last else { return nil }
        return first.time..<max(last.end, first.time)
    }

    /// The index of the frame whose interval covers `time`: the last frame starting at or
    /// before it. Nil before the first frame.
    public func frameIndex(covering time: MediaTime) -> Int? {
        frameIndex(coveringWhere: { $0 <= time })
    }

    /// The last frame whose start `startsAtOrBefore` accepts, for a time that is not a
    /// `MediaTime` (the landing rules' exact window edge); `startsAtOrBefore` must accept a
    /// first run of the frames and no other. Nil when it accepts none.
    func frameIndex(coveringWhere startsAtOrBefore: (MediaTime) -> Bool) -> Int? {
        var low = 0, high = frames.count  // invariant: frames[..<low] are accepted, frames[high...] are not
        while low < high {
            let mid = (low + high) / 2
            if startsAtOrBefore(frames[mid].time) { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }

    /// The index of the frame whose PTS is `pts`, if there is one.
    public func frameIndex(ofPTS pts: Int64) -> Int? {
        var low = 0, high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].pts < pts { low = mid + 1 } else { high = mid }
        }
        return low < frames.count && frames[low].pts == pts ? low : nil
    }

    /// The random access point decoding must start from to produce frame `index`: the
    /// keyframe packet with the greatest PTS at or before the frame's PTS.
    ///
    /// By PTS, not decode order: in an open GOP the leading pictures after a keyframe are
    /// shown before it and need the keyframe before that one.
    public func randomAccessPoint(forFrame index: Int) -> RandomAccessPoint? {
        let after = randomAccessPointPosition(after: frames[index].pts)
        return after == 0 ? randomAccessPoints.first : randomAccessPoints[after - 1]
    }

    /// The first random access point after frame `index` by PTS, nil when none follows: where
    /// the decoding that produces the frames after `index` can start again.
    public func randomAccessPoint(after index: Int) -> RandomAccessPoint? {
        let after = randomAccessPointPosition(after: frames[index].pts)
        return after < randomAccessPoints.count ? randomAccessPoints[after] : nil
    }

    /// The position in `randomAccessPoints` of the first point whose PTS is above `pts`.
    private func randomAccessPointPosition(after pts: Int64) -> Int {
        var low = 0, high = randomAccessPoints.count
        while low < high {
            let mid = (low + high) / 2
            if randomAccessPoints[mid].pts <= pts { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The random access point just before `point`, for re-seeking when a demuxer landed late.
    public func randomAccessPoint(before point: RandomAccessPoint) -> RandomAccessPoint? {
        // Points are sorted by PTS (an edit list can repeat one): the first with the point's
        // PTS, then on to the point itself.
        var low = 0, high = randomAccessPoints.count
        while low < high {
            let mid = (low + high) / 2
            if randomAccessPoints[mid].pts < point.pts { low = mid + 1 } else { high = mid }
        }
        var position = low
        while position < randomAccessPoints.count, randomAccessPoints[position].pts == point.pts, randomAccessPoints[position] != point {
            position += 1
        }
        guard position < randomAccessPoints.count, randomAccessPoints[position] == point, position > 0 else { return nil }
        return randomAccessPoints[position - 1]
    }

    /// Indices of the keyframes, in presentation order.
    public var keyframeIndices: [Int] { Array(keyframePositions) }

    /// The first stretch of missing media before frame `index`, if any: frames are numbered by
    /// what could be read, so after a stretch their indices are not the media's own (the
    /// frames the stretch held are not counted; how many there were is not known).
    public func missingData(before index: Int) -> MissingData? {
        missingData.first { $0.afterFrame < index }
    }

    /// The stretch of missing media `time` falls in, if any.
    public func missingData(at time: MediaTime) -> MissingData? {
        missingData.first { $0.contains(time) }
    }
}
