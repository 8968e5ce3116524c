/// An engine over media whose seekable window can change: a live HLS playlist, reloaded as
/// RFC 8216 says, whose window slides as segments arrive and leave.
///
/// The player reloads it on the engine's queue, as it does everything else with an engine, and
/// publishes the new window to its listeners.
public protocol LivePlaybackEngine: PlaybackEngine {
    /// The window as of the last load or reload.
    var liveSeekWindow: LiveSeekWindow { get }
    /// When to reload next: the target duration after a change, half of it after none; nil
    /// once the playlist has ended (ENDLIST) or was never live.
    var reloadDelay: MediaTime? { get }
    /// The EXT-X-PROGRAM-DATE-TIME date of the frame last landed on; nil before any landing or
    /// when the playlist has no dates. The player reports it in `SeekOutcome.landedDate`.
    var landedDate: ProgramDate? { get }
    /// Re-reads the playlist and indexes the segments that arrived. Returns true when the
    /// window changed; `frameTable` and `media` then describe the new window, and frames of
    /// segments that left it are no longer seekable.
    ///
    /// - Throws: `MediaError` naming the playlist when it cannot be read or parsed; the
    ///   previous window stays current.
    func reloadPlaylist() throws(MediaError) -> Bool
}

extension LivePlaybackEngine {
    /// The window's date at the landed frame's time: right where frame times are the exact
    /// times the window places segments at. An engine that rounds them (to the ticks of one
    /// table) dates the frame by the segment it came from instead.
    public var landedDate: ProgramDate? {
        currentFrameTime.flatMap { liveSeekWindow.date(forTime: $0) }
    }
}
