internal import CFFmpeg
import FrameSeekCore

/// Decoded frames by presentation index, bounded in bytes, least recently used evicted first.
///
/// Entries are references to the decoder's own buffers (`av_frame_ref`), so caching a frame
/// copies no pixels. Scrubbing back and forth and stepping backward land here instead of in
/// the decoder.
final class FrameCache {
    /// The default bound: about 60 decoded 1080p 4:2:0 frames, which keeps a process under
    /// 300 MB on 1080p media while holding a typical backward-stepping window.
    static let defaultCapacityBytes = 192 * 1024 * 1024

    let capacityBytes: Int
    private(set) var usedBytes = 0
    private(set) var peakBytes = 0
    private var entries: [Int: (frame: Frame, decodeErrors: Int, bytes: Int, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(capacityBytes: Int) { self.capacityBytes = max(0, capacityBytes) }

    /// The cached frame `index`, marked as just used, with the decode errors counted on the
    /// way to it when it was decoded: a cache hit reports the damage the decode found.
    func frame(_ index: Int) -> (frame: Frame, decodeErrors: Int)? {
        guard let entry = entries[index] else { return nil }
        clock += 1
        entries[index]?.lastUse = clock
        return (entry.frame, entry.decodeErrors)
    }

    /// Caches a reference to `frame` as frame `index`, evicting the least recently used
    /// frames until the bound holds. A frame larger than the whole bound is not cached, nor
    /// one `av_frame_ref` cannot reference (out of memory): the cache only saves decoding, so
    /// a frame missing from it is decoded again when asked for.
    func insert(_ frame: Frame, as index: Int, decodeErrors: Int) {
        let bytes = frame.byteCount
        guard bytes <= capacityBytes else { return }
        remove(index)
        while usedBytes + bytes > capacityBytes, let victim = leastRecentlyUsed() { remove(victim) }
        let copy = Frame()
        do { try copy.reference(frame) } catch { return }
        clock += 1
        entries[index] = (copy, decodeErrors, bytes, clock)
        usedBytes += bytes
        peakBytes = max(peakBytes, usedBytes)
    }

    /// How many frames of `bytesPerFrame` fit: how far back a refill is worth caching.
    func capacity(framesOf bytesPerFrame: Int) -> Int {
        bytesPerFrame > 0 ? capacityBytes / bytesPerFrame : 0
    }

    private func remove(_ index: Int) {
        if let entry = entries.removeValue(forKey: index) { usedBytes -= entry.bytes }
    }

    private func leastRecentlyUsed() -> Int? {
        entries.min { $0.value.lastUse < $1.value.lastUse }?.key
    }
}
