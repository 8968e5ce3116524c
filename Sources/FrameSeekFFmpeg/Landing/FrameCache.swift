import FrameSeekCore

/// Decoded frames by presentation index, bounded in bytes, least recently used evicted first.
///
/// Entries are references to the decoder's own buffers (`av_frame_ref`), so caching a frame
/// copies no pixels. Scrubbing back and forth and stepping backward land here instead of in
/// the decoder.
///
/// Frames that forward steps land on are kept apart, in a short trail of the last
/// `trailFrames` of them (`insert(_:as:decodeErrors:trailing:)`). A frame the cache holds is
/// a decoder buffer that cannot go back to FFmpeg's buffer pool, so every frame held makes the
/// decoder allocate (and zero, and page in) a new one. A forward pass caching every frame it
/// lands on fills the whole bound with frames it never asks for again, and on a small picture
/// that allocation costs more than decoding; then each new frame evicts an old one. The trail
/// keeps what the next few backward steps land on, and the buffers it lets go return to the
/// pool, so a sequential pass allocates nothing after its first frames. A backward step past
/// the trail refills from the GOP's keyframe, as it does after any seek.
final class FrameCache {
    /// The default bound: about 60 decoded 1080p 4:2:0 frames, which keeps a process under
    /// 300 MB on 1080p media while holding a typical backward-stepping window.
    static let defaultCapacityBytes = 192 * 1024 * 1024
    /// How many frames forward steps landed on stay cached: a few steps back are free, and the
    /// decoder's buffer pool grows by no more than this many frames over a sequential pass.
    static let trailFrames = 8

    private struct Entry {
        let frame: Frame
        let decodeErrors: Int
        let bytes: Int
        /// Inserted as a forward step's landing: evicted first-in first-out past `trailFrames`.
        let trailing: Bool
        /// The pool's decoder whose buffer the frame is, told when the cache drops it.
        let lender: DecoderHoldings?
        /// The entries used just before and just after this one: the order of use, kept as a
        /// list through the entries so that a use and an eviction cost the same whatever the
        /// count (a scan for the oldest made a refill of 30,000 tiny frames quadratic).
        var usedBefore: Int?
        var usedAfter: Int?
    }

    let capacityBytes: Int
    private(set) var usedBytes = 0
    private(set) var peakBytes = 0
    /// Entries looked at to find what to evict: one per eviction.
    private(set) var entriesVisitedToEvict = 0
    private var entries: [Int: Entry] = [:]
    /// The least and the most recently used entries: the ends of the order of use.
    private var leastRecentlyUsed: Int?
    private var mostRecentlyUsed: Int?
    /// Indices inserted with `trailing`, oldest first; an index whose entry has since been
    /// evicted or replaced by an ordinary insert is skipped when the trail is trimmed.
    private var trail: [Int] = []

    init(capacityBytes: Int) { self.capacityBytes = max(0, capacityBytes) }

    /// The cached frame `index`, marked as just used, with the decode errors counted on the
    /// way to it when it was decoded: a cache hit reports the damage the decode found.
    func frame(_ index: Int) -> (frame: Frame, decodeErrors: Int)? {
        guard let entry = entries[index] else { return nil }
        unlink(index)
        link(index)
        return (entry.frame, entry.decodeErrors)
    }

    /// Whether frame `index` is cached, without marking it used.
    func contains(_ index: Int) -> Bool { entries[index] != nil }

    /// Caches a reference to `frame` as frame `index`, evicting the least recently used
    /// frames until the bound holds. A frame larger than the whole bound is not cached, nor
    /// one `av_frame_ref` cannot reference (out of memory): the cache only saves decoding, so
    /// a frame missing from it is decoded again when asked for.
    ///
    /// - Parameter trailing: the frame is a forward step's landing: it joins the trail, and
    ///   the oldest trail frame beyond `trailFrames` is dropped.
    /// - Parameter lender: the pool's decoder that made the frame (nil for one from elsewhere),
    ///   whose buffer the cache holds until it drops the frame.
    func insert(_ frame: Frame, as index: Int, decodeErrors: Int, trailing: Bool = false, lentBy lender: DecoderHoldings?) {
        let bytes = frame.byteCount
        guard bytes <= capacityBytes else { return }
        remove(index)
        if trailing {
            // Once in the trail: an older place for the same index would evict the new entry.
            trail.removeAll { $0 == index }
            trail.append(index)
            trimTrail()
        }
        while usedBytes + bytes > capacityBytes, let victim = leastRecentlyUsed {
            entriesVisitedToEvict += 1
            remove(victim)
        }
        let copy = Frame()
        do { try copy.reference(frame) } catch { return }
        entries[index] = Entry(frame: copy, decodeErrors: decodeErrors, bytes: bytes, trailing: trailing, lender: lender)
        link(index)
        lender?.lend()
        usedBytes += bytes
        peakBytes = max(peakBytes, usedBytes)
    }

    /// How many frames of `bytesPerFrame` fit: how far back a refill is worth caching.
    func capacity(framesOf bytesPerFrame: Int) -> Int {
        bytesPerFrame > 0 ? capacityBytes / bytesPerFrame : 0
    }

    /// Drops the oldest trail frames until `trailFrames` are left (the newest index, just
    /// appended, counts; its entry is inserted after this).
    private func trimTrail() {
        guard trail.count > Self.trailFrames else { return }
        for index in trail.prefix(trail.count - Self.trailFrames) where entries[index]?.trailing == true {
            remove(index)
        }
        trail.removeFirst(trail.count - Self.trailFrames)
    }

    /// Drops every frame: their indices name frames of a table no longer planned on.
    func removeAll() {
        for entry in entries.values { entry.lender?.giveBack() }
        entries.removeAll()
        (leastRecentlyUsed, mostRecentlyUsed) = (nil, nil)
        trail.removeAll()
        usedBytes = 0
    }

    private func remove(_ index: Int) {
        unlink(index)
        guard let entry = entries.removeValue(forKey: index) else { return }
        usedBytes -= entry.bytes
        entry.lender?.giveBack()
    }

    /// Puts entry `index`, which is in no place of the order, at its most recent end.
    private func link(_ index: Int) {
        entries[index]?.usedBefore = mostRecentlyUsed
        entries[index]?.usedAfter = nil
        if let newest = mostRecentlyUsed { entries[newest]?.usedAfter = index } else { leastRecentlyUsed = index }
        mostRecentlyUsed = index
    }

    /// Takes entry `index` out of the order of use, joining its neighbours.
    private func unlink(_ index: Int) {
        guard let entry = entries[index] else { return }
        if let before = entry.usedBefore { entries[before]?.usedAfter = entry.usedAfter } else { leastRecentlyUsed = entry.usedAfter }
        if let after = entry.usedAfter { entries[after]?.usedBefore = entry.usedBefore } else { mostRecentlyUsed = entry.usedBefore }
    }
}
