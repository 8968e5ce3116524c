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
    /// (steps, batches, `FFmpegEngine.frameTable`) builds it first, as `full` would have. Other
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

    init(
        windowReader: @escaping (Demuxer) -> SeekWindowReader, statedDuration: MediaTime?,
        buildTable: @escaping () throws(MediaError) -> (FrameTableBuilder.Result, IndexCache.Outcome?)
    ) {
        self.windowReader = windowReader
        self.statedDuration = statedDuration
        self.buildTable = buildTable
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

    /// Whether the current window lists every frame with PTS in `span`.
    func windowHolds(_ span: ClosedRange<Int64>) -> Bool {
        guard let window else { return false }
        return window.lowerBound <= span.lowerBound && span.upperBound <= window.upperBound
    }
}
