import Foundation
import FrameSeekCore

/// What indexing one segment of the window found: its frames, or why it could not be read.
struct IndexedSegment {
    /// What the segment's own `FFmpegEngine` made of it.
    struct Frames {
        /// The segment engine's frame table, on the segment's own zero-based timeline.
        let table: FrameTable
        /// The segment engine's description of the segment (streams, selected stream).
        let media: MediaDescription
        /// Where the segment's first packet is not its first keyframe (a segment cut mid-GOP,
        /// as `-hls_flags split_by_time` cuts them): how long before that keyframe the first
        /// packet is shown, and how many packets come before the keyframe. Those packets decode
        /// only after the segment before and are not listed; the playlist starts the segment at
        /// its first packet, as packagers measure EXTINF, so the keyframe is placed this much
        /// after the segment's start (`HLSEngine.placedStart`).
        var leadBeforeFirstKeyframe: (duration: MediaTime, packets: Int)? = nil
    }

    /// The segment as the playlist lists it.
    let segment: HLSSegment
    /// Its start on the `HLSTimeline`.
    let start: MediaTime
    /// Its frames, or the cause it is missing data ("URL: HTTP error 404 Not Found"); nil
    /// while it has not been read (an engine that indexes as needed).
    let content: Result<Frames, MediaError>?

    var frames: Frames? { try? content?.get() }
}

/// The one frame table over every segment of a playlist's window, and the way back from a
/// global frame to the segment and local frame that hold it.
///
/// Each segment is placed by the playlist, not by its timestamps: frame time = the segment's
/// start on the `HLSTimeline` + the frame's distance from the segment's first keyframe.
/// So a discontinuity (timestamps that reset or jump) and a 33-bit MPEG-TS wrap between
/// segments cannot reorder or overlap frames: each segment's frames sit where the playlist
/// says the segment starts. (FFmpeg unwraps timestamps that wrap inside one segment.)
///
/// The segment's first keyframe sits exactly on the segment start: a segment starts with a
/// keyframe (EXT-X-INDEPENDENT-SEGMENTS), packagers measure EXTINF from one keyframe to the
/// next, and what EXT-X-PROGRAM-DATE-TIME dates is the segment's first sample. The first video
/// keyframe is taken as that sample rather than the container start, which in MPEG-TS is often
/// an audio packet some milliseconds earlier: placing by the container start would move each
/// video segment by that audio lead, and a seek to a segment's start would land on the previous
/// segment's last frame. Packets a segment holds before its first keyframe cannot be decoded
/// from the segment and are not listed (the segment engine leaves them out, as it does for
/// files). The keyframe's leading pictures (an open GOP's RASL pictures, shown before it) sit
/// before the segment start, where the previous segment's frames end; they are listed when that
/// segment is there to decode them after (`continues(_:from:)`).
struct HLSWindowIndex {
    /// Where a global frame comes from.
    struct Location: Hashable {
        /// The Media Sequence Number of the segment holding it.
        let sequence: Int
        /// Its index in that segment's own frame table.
        let localIndex: Int
    }

    /// The global table.
    let table: FrameTable
    /// `table.frames[i]` is `locations[i]`.
    let locations: [Location]
    /// Local frame index to global index, per Media Sequence Number; nil where a local frame is
    /// not listed (see `build`).
    let globalIndices: [Int: [Int?]]

    /// The global index of a segment's local frame, if it is listed.
    func globalIndex(sequence: Int, localIndex: Int) -> Int? {
        guard let indices = globalIndices[sequence], indices.indices.contains(localIndex) else { return nil }
        return indices[localIndex]
    }

    /// The time base of the global table: 1/90000 (MPEG-TS's clock, and fine enough for any
    /// frame rate) unless `first`, the first readable segment's stream, counts in finer ticks.
    /// Fixed when the engine opens, so that a reload never changes the meaning of a PTS.
    static func timeBase(for first: FrameTable) -> TimeBase { timeBase(forStream: first.timeBase) }

    /// The same for a stream whose time base is `own`, known before any of its frames are.
    static func timeBase(forStream own: TimeBase) -> TimeBase {
        let mpegTS = TimeBase(numerator: 1, denominator: 90_000)
        return own.numerator == 1 && own.denominator > mpegTS.denominator ? own : mpegTS
    }

    /// Whether `segment`'s media follows on from `previous`'s in one decode: consecutive, neither
    /// a gap, no discontinuity, the same initialization section. An open GOP's leading pictures
    /// at `segment`'s start are decoded after `previous` (`HLSEngine.landLeadingPicture`).
    static func continues(_ segment: HLSSegment, from previous: HLSSegment) -> Bool {
        !segment.discontinuity && !segment.isGap && !previous.isGap && segment.map == previous.map
            && previous.mediaSequence == segment.mediaSequence - 1
    }

    /// Combines `segments` (in playlist order) into one table in `timeBase`.
    ///
    /// A frame is listed only if it starts after the frame before it and before the next
    /// segment's start: a segment whose media runs past its EXTINF duration would otherwise
    /// overlap the next one, and a frame table must be in strict presentation order. Times are
    /// rounded down to whole ticks of `timeBase` (exact for EXTINF durations in 1/90000 s).
    /// A segment that could not be read leaves a hole after the frame before it: missing data
    /// with the segment's URL and cause (consecutive holes join their causes). Holes at the
    /// edges of the window are missing data too: from the window's start to the first frame,
    /// and from the last frame's end to the window's end. None is a clamp.
    ///
    /// `segments` may be a run of the window's segments; `nextStart` is then where the segment
    /// after the run starts, which bounds the run's last segment as it would in the window.
    /// Segments placed by their own timestamps (DASH) are bounded by nothing but the rule of
    /// strict order (`limitsByNextStart` false): their media says where each frame is.
    static func build(
        _ segments: [IndexedSegment], timeBase: TimeBase, nextStart: MediaTime? = nil, limitsByNextStart: Bool = true
    ) -> HLSWindowIndex? {
        guard let firstTable = segments.lazy.compactMap(\.frames).first?.table else { return nil }
        var frames: [FrameEntry] = []
        var points: [RandomAccessPoint] = []
        var locations: [Location] = []
        var globalIndices: [Int: [Int?]] = [:]
        var missingAfter: [Int: String] = [:]
        var leading: String?  // segments before the first readable one
        var decodeBase = 0
        /// `evidence` after what is known already of the same hole, if anything.
        func joined(_ known: String?, _ evidence: String) -> String { known.map { "\($0); \(evidence)" } ?? evidence }
        for (position, indexed) in segments.enumerated() {
            guard let content = indexed.frames else {
                if case .failure(let error)? = indexed.content {
                    let evidence = "segment \(indexed.segment.mediaSequence) \(error.description)"
                    if let last = frames.indices.last {
                        missingAfter[last] = joined(missingAfter[last], evidence)
                    } else {
                        leading = joined(leading, evidence)
                    }
                }
                continue
            }
            let local = content.table
            let leading = local.leadingPictureCount
            guard local.frames.indices.contains(leading) else { continue }
            // The frames shown before a segment's first keyframe and decoded from the segment
            // before are not listed: the time between the frame before and that keyframe is
            // missing data, not the frame before shown on.
            if let lead = content.leadBeforeFirstKeyframe, let last = frames.indices.last {
                let evidence =
                    "segment \(indexed.segment.mediaSequence) starts \(lead.packets) packets before its first keyframe (it is not "
                    + "an independent segment): the frames they hold are not listed"
                missingAfter[last] = joined(missingAfter[last], evidence)
            }
            let zero = local.frames[leading].time
            // Leading pictures are frames where the segment before is there to decode them
            // after, as a player that played on does; elsewhere no decode shows them.
            let previous = segments.indices.contains(position - 1) ? segments[position - 1] : nil
            let decodedAfterPrevious = previous.map { $0.frames != nil && Self.continues(indexed.segment, from: $0.segment) } ?? false
            let firstListed = decodedAfterPrevious ? 0 : leading
            let limit =
                !limitsByNextStart ? nil : segments.indices.contains(position + 1) ? segments[position + 1].start : nextStart
            var map = [Int?](repeating: nil, count: local.frames.count)
            for frame in local.frames[firstListed...] {
                let time = indexed.start + (frame.time - zero)
                guard let pts = timeBase.ticks(in: time), limit.map({ time < $0 }) ?? true,
                    frames.last.map({ pts > $0.pts }) ?? true
                else { continue }
                let durationTicks = timeBase.ticks(in: frame.duration) ?? 0
                map[frame.index] = frames.count
                frames.append(
                    FrameEntry(
                        index: frames.count, pts: pts, time: timeBase.time(ofTicks: pts),
                        durationTicks: durationTicks, duration: timeBase.time(ofTicks: durationTicks),
                        isKeyframe: frame.isKeyframe, decodeOrder: decodeBase + frame.decodeOrder,
                        packetPosition: nil))
                locations.append(Location(sequence: indexed.segment.mediaSequence, localIndex: frame.index))
            }
            for point in local.randomAccessPoints {
                guard let localIndex = point.frameIndex, let global = map[localIndex] else { continue }
                points.append(
                    RandomAccessPoint(
                        pts: frames[global].pts, dts: nil,
                        decodeOrder: decodeBase + point.decodeOrder, frameIndex: global))
            }
            globalIndices[indexed.segment.mediaSequence] = map
            let packets = (local.frames.map(\.decodeOrder) + local.randomAccessPoints.map(\.decodeOrder)).max() ?? 0
            decodeBase += packets + 1
        }
        guard let firstFrame = frames.first, let lastFrame = frames.last, let windowStart = segments.first?.start,
            let lastSegment = segments.last
        else { return nil }
        // Holes at the edges of the window are part of its timeline: from the window's start to
        // the first frame, and from the last frame to the window's end.
        var edges: [MissingData] = []
        if let leading {
            edges.append(MissingData(afterFrame: -1, start: windowStart, end: firstFrame.time, evidence: leading))
        }
        if let trailing = missingAfter[lastFrame.index] {
            missingAfter[lastFrame.index] = nil
            edges.append(
                MissingData(
                    afterFrame: lastFrame.index, start: lastFrame.time + lastFrame.duration,
                    end: lastSegment.start + lastSegment.segment.duration, evidence: trailing))
        }
        let list = FrameList(frames, timeBase: timeBase, originPTS: 0, endingAtOwnDuration: Set(missingAfter.keys).union([lastFrame.index]))
        let table = FrameTable(
            streamIndex: firstTable.streamIndex, timeBase: timeBase, originPTS: 0, frames: list,
            randomAccessPoints: RandomAccessPointList(points), source: firstTable.source,
            missingDataAfter: missingAfter, edgeMissingData: edges)
        return HLSWindowIndex(table: table, locations: locations, globalIndices: globalIndices)
    }
}

extension FrameTable {
    /// How many frames are shown before the first keyframe in decode order: the leading
    /// pictures of an open GOP's first keyframe in a table that lists them
    /// (`FFmpegEngine.Options.listsLeadingPictures`), else none. None either when that keyframe
    /// is not a frame (an edit list discards it): every frame after it is then listed, and the
    /// segment is placed by its first frame.
    var leadingPictureCount: Int { firstRandomAccessPointDecoded?.frameIndex ?? 0 }

    /// The random access point decoding the stream starts from: the first in decode order.
    var firstRandomAccessPointDecoded: RandomAccessPoint? { randomAccessPoints.min { $0.decodeOrder < $1.decodeOrder } }
}
