import FrameSeekCore

/// How an engine indexes the selected stream: all of it when opened, or only what each
/// landing needs.
public enum FrameIndexing: String, Sendable, Hashable, CaseIterable {
    /// The whole stream's table is built when the media opens (or read from the index cache):
    /// every landing carries the frame's number in the stream.
    case full
    /// Matroska/WebM, MPEG-TS and fragmented MP4 open without reading their packets. Each seek
    /// reads a window: the packets from the random access point before its target to just past
    /// it, found through the container's own index, as a player reads them. Its landings carry
    /// no frame number (`SeekLanding.isIndexed` is false). Anything that needs the whole table
    /// (steps, batches, `FFmpegEngine.frameTable`) builds it first, as `full` would have.
    /// Audio in MP3, ADTS AAC, raw AC-3, Ogg, FLAC, WAV and AIFF files reads the stream from its
    /// first packet through the target instead (`SeekWindowReader.readsPrefix`), and its
    /// landings are numbered. Other
    /// containers, a table in the index cache, audio whose landed samples need a decode from
    /// the start (AAC, AC-3) and media in memory open as `full` does.
    case asNeeded = "as-needed"
}

/// The whole stream's table of an engine that opened without it (`FrameIndexing.asNeeded`),
/// and the seek window landings are planned on until it is built. Only the engine changes it,
/// through these methods.
final class DeferredIndex {
    /// Reads seek windows through the active decoder's demuxer.
    let windowReader: (Demuxer) -> SeekWindowReader
    /// The duration the header stated when the media opened: what a window that reads to the
    /// end of the stream is checked against for truncation (`TruncationCheck`).
    let statedDuration: MediaTime?
    /// Builds the whole stream's table, reading the media from its first packet.
    private let buildTable: () throws(MediaError) -> (FrameTableBuilder.Result, IndexCache.Outcome?)
    /// What building the whole table gave, once tried: the table, or why it cannot be built,
    /// kept so that a failure is not paid for again on every `FFmpegEngine.frameTable` read.
    private var built: Result<FrameTableBuilder.Result, MediaError>?
    /// What the index cache did when the table was built.
    private(set) var cacheOutcome: IndexCache.Outcome?
    /// The PTS span the current window lists every frame of: from its first random access
    /// point through the PTS its read proved complete.
    private(set) var window: ClosedRange<Int64>?
    /// Whether the current window starts at the stream's first keyframe: no frame is before it.
    private(set) var windowStartsStream = false
    /// Whether the container's own index may list the stream's keyframes: a Matroska file whose
    /// SeekHead names its Cues. Without them FFmpeg's index holds only the keyframes read so
    /// far, and the clusters `MatroskaClusterBisection` found, which need not be keyframes.
    let indexListsKeyframes: Bool
    /// Every keyframe the index lists, once read (`listedKeyframes(in:streamIndex:seekingTo:time:)`):
    /// empty when the list did not pass its checks.
    private var listed: [ListedKeyframe]?

    /// A keyframe the container's index lists: its PTS, and its time on the timeline.
    struct ListedKeyframe {
        let pts: Int64
        let time: MediaTime
    }

    init(
        windowReader: @escaping (Demuxer) -> SeekWindowReader, statedDuration: MediaTime?, indexListsKeyframes: Bool,
        buildTable: @escaping () throws(MediaError) -> (FrameTableBuilder.Result, IndexCache.Outcome?)
    ) {
        self.windowReader = windowReader
        self.statedDuration = statedDuration
        self.indexListsKeyframes = indexListsKeyframes
        self.buildTable = buildTable
    }

    /// Whether the list of keyframes is still to be read: reading it seeks a demuxer.
    var listIsUnread: Bool { indexListsKeyframes && listed == nil }

    /// Every keyframe of `streamIndex` the container's index lists, in time order, with its time
    /// by `time` (nil for a PTS that leaves the timeline, which is left out). Read once, from
    /// `demuxer` after a seek to `pts`: FFmpeg's Matroska demuxer reads the Cues at its first
    /// seek into the stream's index, where the keyframes read while probing already are. The
    /// caller must forget where that demuxer stood (`listIsUnread` tells beforehand).
    ///
    /// The index is the file's word, and the SeekHead's naming Cues does not put them there (a
    /// download cut before them, Cues of another track), so the list is taken only when it
    /// spans the stream (`spansStream`); the engine then checks it against the stream's last
    /// GOP (`rejectList()`). Nil otherwise, and unless `indexListsKeyframes`.
    func listedKeyframes(
        in demuxer: Demuxer, streamIndex: Int, seekingTo pts: Int64, time: (Int64) -> MediaTime?
    ) -> [ListedKeyframe]? {
        guard indexListsKeyframes else { return nil }
        if listed == nil {
            let sought = (try? demuxer.seek(streamIndex: streamIndex, to: pts)) != nil
            let count = demuxer.indexEntryCount(of: streamIndex)
            let copied = sought ? demuxer.indexTimestampsAndFlags(of: streamIndex, count: count) : nil
            var keyframes: [ListedKeyframe] = []
            if let copied {
                for (pts, flags) in zip(copied.timestamps, copied.flags) where flags & SampleTablePackets.keyframe != 0 {
                    if let time = time(pts) { keyframes.append(ListedKeyframe(pts: pts, time: time)) }
                }
            }
            listed = Self.spansStream(keyframes, statedDuration: statedDuration) ? keyframes : []
        }
        return listed?.isEmpty == false ? listed : nil
    }

    /// Drops the list: the stream's last GOP shows that it does not list every keyframe there.
    func rejectList() { listed = [] }

    /// Whether `keyframes` (in time order) span the stream: at least two, the first within
    /// their largest gap of the start, and the last within twice that and a second of the
    /// duration the header states (which may be another track's, a little longer). A list
    /// that stops short (Cues cut off, or none, and only the keyframes FFmpeg's seek read on
    /// its way) is not taken for the stream's.
    static func spansStream(_ keyframes: [ListedKeyframe], statedDuration: MediaTime?) -> Bool {
        guard keyframes.count >= 2, let first = keyframes.first, let last = keyframes.last, let statedDuration,
            first.time >= .zero, last.time <= statedDuration
        else { return false }
        var largestGap = MediaTime.zero
        for (earlier, later) in zip(keyframes, keyframes.dropFirst()) { largestGap = max(largestGap, later.time - earlier.time) }
        return first.time <= largestGap && statedDuration - last.time <= largestGap + largestGap + MediaTime(value: 1, timescale: 1)
    }

    /// The whole stream's table, built on first use; a build that failed fails again at once.
    func wholeTable() throws(MediaError) -> FrameTableBuilder.Result {
        if built == nil {
            do {
                let (table, outcome) = try buildTable()
                built = .success(table)
                cacheOutcome = outcome
            } catch {
                built = .failure(error)
            }
        }
        return try built!.get()
    }

    /// Notes the window the engine now plans on.
    func plansOn(window span: ClosedRange<Int64>, startsStream: Bool) {
        window = span
        windowStartsStream = startsStream
    }

    /// Whether the current window lists every frame with PTS in `span`: a window that starts
    /// the stream lists all there are before its end.
    func windowHolds(_ span: ClosedRange<Int64>) -> Bool {
        guard let window else { return false }
        return (windowStartsStream || window.lowerBound <= span.lowerBound) && span.upperBound <= window.upperBound
    }
}
