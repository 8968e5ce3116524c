import Foundation
import FrameSeek

/// Peak resident memory per workload, from Linux's `VmHWM` (the peak RSS of the process).
///
/// `VmHWM` only ever grows, so read after each workload it would be the largest workload so
/// far, not this one. Writing `5` to /proc/self/clear_refs resets it to the current RSS
/// (Linux 4.0 and later), so a reset before a workload and a read after it give that
/// workload's own peak. The reset also clears `getrusage`'s `ru_maxrss`, so the process-wide
/// peak is kept here: every reading before a reset is folded into it.
package enum WorkloadMemory {
    /// The largest `VmHWM` read so far in this process, in bytes.
    private static let processPeak = Locked<Int?>(nil)

    /// Starts a workload's measurement: folds the peak so far into the process-wide peak, then
    /// resets `VmHWM`. False when the kernel refused (an older kernel, no permission): the
    /// workload's peak is then not measured.
    package static func startWorkload() -> Bool {
        record(highWaterMark())
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }

    /// Ends a workload's measurement: its peak in bytes (nil when `reset` was false or
    /// /proc is unreadable), and the process-wide peak so far.
    package static func endWorkload(reset: Bool) -> (workload: Int?, process: Int?) {
        let peak = highWaterMark()
        record(peak)
        return (reset ? peak : nil, processPeak.withLock { $0 })
    }

    /// `VmHWM` from /proc/self/status, in bytes.
    package static func highWaterMark() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }

    private static func record(_ bytes: Int?) {
        guard let bytes else { return }
        processPeak.withLock { $0 = Swift.max($0 ?? 0, bytes) }
    }
}
