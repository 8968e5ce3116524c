internal import CFFmpeg

/// A wall-clock bound on one network operation (an open, a read, a seek), enforced by FFmpeg
/// itself through `AVIOInterruptCB`.
///
/// Why not `rw_timeout` alone: it bounds each wait for data and restarts with every byte, so a
/// server that sends one byte every few seconds never ends an attempt. FFmpeg's network
/// protocols poll the interrupt callback while they wait (every 100 ms) and give up with
/// `AVERROR_EXIT` once it answers, whatever the server does. Each operation arms the deadline
/// afresh before it starts.
///
/// Not Sendable: it is armed and read on the thread that drives the I/O it bounds; FFmpeg
/// calls the callback on that same thread.
final class NetworkDeadline {
    private let storage: UnsafeMutablePointer<fs_deadline>

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: fs_deadline(at: Int64.max))
    }

    deinit { storage.deallocate() }

    /// What `avio_open2` and `AVFormatContext.interrupt_callback` take. Valid as long as this
    /// object lives: whoever installs it keeps the deadline alive at least as long as the
    /// context it is installed in.
    var callback: AVIOInterruptCB { fs_deadline_callback(storage) }

    /// From now, operations end `duration` later at the latest.
    func arm(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        // Int128: a duration from input (a --timeout of days) cannot overflow the sum.
        let at = Int128(av_gettime_relative()) + Int128(seconds) * 1_000_000 + Int128(attoseconds / 1_000_000_000_000)
        storage.pointee.at = at >= Int128(Int64.max) ? .max : Int64(at)
    }

    /// Whether the armed deadline has passed: a failure of the operation it bounded is then
    /// the deadline's doing.
    var hasPassed: Bool { av_gettime_relative() >= storage.pointee.at }
}
