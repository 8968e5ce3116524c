import FrameSeekCore

/// One decoder, the demuxer that feeds it, and where the two stand.
///
/// Each slot has a demuxer of its own because a decoder parked mid-GOP can only go on with the
/// packet after the last one it was sent: a shared demuxer would have to seek back to that
/// packet every time another slot had read on. A slot is the record of one decoder of the
/// pool, changed only through its methods: the pool replaces its demuxer or its decoder and
/// marks its use, and the `LandingExecutor` moves its position.
final class DecoderSlot {
    /// Reads the selected stream's packets for this slot's decoder alone.
    private(set) var demuxer: Demuxer
    /// Decodes the packets `demuxer` reads.
    private(set) var decoder: Decoder
    /// Where the decoder stands; nil means "unknown: seek before decoding".
    private(set) var position: DecodePosition?
    /// The pool's use counter when the slot last landed: the least recently used slot is the
    /// one repositioned when every slot is taken, or closed when the pool holds too much.
    private(set) var lastUse = 0
    /// What the decoder and the demuxer hold in memory.
    private(set) var holdings: DecoderHoldings

    init(demuxer: Demuxer, decoder: Decoder) {
        self.demuxer = demuxer
        self.decoder = decoder
        holdings = DecoderHoldings(decoder: decoder, demuxer: demuxer)
    }

    /// Reads with `demuxer` from now on (one reopened to read from the start).
    func replaceDemuxer(with demuxer: Demuxer) {
        self.demuxer = demuxer
        holdings.update(decoder: decoder, demuxer: demuxer)
    }

    /// Decodes with `decoder` from now on, in place of its decoder, which closes once nothing
    /// else holds it. The new decoder stands nowhere, and its holdings start from its own
    /// empty pools: the old decoder's pools are freed as its frames still in the cache come
    /// back to them, as a closed slot's are, so the pool no longer counts them.
    func replaceDecoder(with decoder: Decoder) {
        self.decoder = decoder
        holdings = DecoderHoldings(decoder: decoder, demuxer: demuxer)
        position = nil
    }

    /// Marks the slot as used at the pool's use count `use`.
    func markUsed(_ use: Int) { lastUse = use }

    /// The decoder was flushed and its demuxer sought, to decode from `point`. A decoder that
    /// tolerates damage (`Decoder.toleratesDamage`) decodes only after damage was met, and
    /// conceals it without a word: every frame it produces is counted damaged.
    func startDecoding(from point: RandomAccessPoint) {
        position = DecodePosition(startPoint: point)
        if decoder.toleratesDamage { position?.countDecodeError() }
    }

    /// Where the decoder stands is unknown: the next landing seeks.
    func forgetPosition() { position = nil }

    /// The decoder produced the frame with `pts` (`DecodePosition.recordOutput(pts:)`).
    func recordOutput(pts: Int64?) { position?.recordOutput(pts: pts) }

    /// The decoder returned its last frame.
    func recordDrained() { position?.recordDrained() }

    /// The decoder was told that no more packets come (`DecodePosition.recordEndOfStreamSent(early:)`).
    func recordEndOfStreamSent(early: Bool = false) { position?.recordEndOfStreamSent(early: early) }

    /// One more decode error on the way to a landing.
    func countDecodeError() { position?.countDecodeError() }

    /// Non-reference frames with a PTS below `pts` are being skipped.
    func recordSkipping(before pts: Int64) { position?.recordSkipping(before: pts) }

    /// The decoder reads the keyframe `point` next (`DecodePosition.advanceStart(to:)`).
    func advanceStart(to point: RandomAccessPoint) { position?.advanceStart(to: point) }
}

/// How a new decoder of the selected stream is opened: from the parameters the first demuxer
/// probed, so further demuxers only read packets.
struct DecoderSlotOpener {
    /// The selected stream's absolute index: what a new slot's demuxer selects.
    let streamIndex: Int
    /// The selected stream's parameters as the first demuxer probed them: what every further
    /// decoder opens from, here and in the engines opened from this one's index.
    let parameters: StreamParameters
    /// Decoder threads (`FFmpegEngine.Options.threads`).
    let threads: Int
    /// Where the decoder's FFmpeg errors are logged.
    let log: FFmpegLogSink

    /// A slot of `demuxer`, set to read only the selected stream, and a new decoder.
    func open(reading demuxer: Demuxer) throws(FFmpegError) -> DecoderSlot {
        demuxer.selectOnly(streamIndex: streamIndex)
        return DecoderSlot(demuxer: demuxer, decoder: try openDecoder())
    }

    /// A new decoder of the selected stream; with `toleratingDamage`, one that decodes through
    /// damage (`Decoder.toleratesDamage`).
    func openDecoder(toleratingDamage: Bool = false) throws(FFmpegError) -> Decoder {
        try Decoder(parameters: parameters, threads: threads, log: log, toleratingDamage: toleratingDamage)
    }
}

/// Decoders parked where their last landings left them, so that a later target in a GOP
/// visited recently decodes on from the nearest parked decoder instead of from the keyframe.
///
/// A random seek costs the frames from the keyframe to the target. With one decoder, a target
/// after the previous one in the same GOP goes on from there, and every other target starts
/// over. With a decoder parked in each recently visited GOP, a target goes on from whichever
/// parked decoder stands nearest before it; only a target before all of them, or in a GOP
/// none stands in, is decoded from its keyframe, by a new decoder while the bound allows and
/// else by the least recently used one.
///
/// The pool's memory is bounded by `boundBytes`, counted as what its decoders and demuxers
/// hold (`DecoderHoldings`): the pictures each decoder's buffer pools keep, at the largest
/// size it has made (frames lent to the cache included: they come back to it), and each
/// demuxer's index. A new decoder opens only when it fits with the frames its landing will
/// cache; after each landing (`keepWithinBound()`) the least recently used parked decoders
/// are closed until the rest fit, which frees their buffer pools and indexes. So between
/// landings the pool holds at most `boundBytes`, and during one at most the frames that
/// landing caches more. At most `maxSlots` decoders; one decoder is always kept, however
/// large.
struct DecoderPool {
    /// The most decoders a pool holds, whatever the bound: past a handful of recently visited
    /// GOPs, another parked decoder is rarely the nearest to a target.
    static let maxSlots = 16
    /// The default bound on the pool's decoders, in bytes (256 MiB).
    static let defaultBoundBytes = 256 * 1024 * 1024

    /// Every decoder in the pool; the first is the one opened with the engine, whose demuxer
    /// read the stream info the others take their parameters from.
    private(set) var slots: [DecoderSlot]
    /// The decoder that lands now.
    private(set) var active: DecoderSlot
    /// What demuxers replaced by a reopened one had read (see `reads`).
    private var retiredReads = MediaReads.none
    /// How the pool opens another decoder.
    let opener: DecoderSlotOpener
    /// The bound, in bytes, on what all the pool's decoders and demuxers hold together.
    let boundBytes: Int
    private var uses = 0
    /// The most decoders the pool has held at once.
    private(set) var peakSlots = 1
    /// The most bytes the pool has held after a landing.
    private(set) var peakHeldBytes: Int
    /// The most bytes a lone decoder has held after a landing: kept however large, so the
    /// pool's bound is this when it is over `boundBytes`.
    private(set) var peakLoneHeldBytes: Int

    /// A pool holding `first`, bounded by `boundBytes`, opening further decoders with `opener`.
    init(first: DecoderSlot, boundBytes: Int, opener: DecoderSlotOpener) {
        slots = [first]
        active = first
        self.opener = opener
        self.boundBytes = max(0, boundBytes)
        peakHeldBytes = first.holdings.heldBytes
        peakLoneHeldBytes = peakHeldBytes
        touch(first)
    }

    /// What the pool's decoders and demuxers hold now (`DecoderHoldings.heldBytes`).
    var heldBytes: Int { slots.reduce(0) { $0 + $1.holdings.heldBytes } }

    /// The bound the pool keeps to: `boundBytes`, or a lone decoder that holds more.
    var keptBoundBytes: Int { max(boundBytes, peakLoneHeldBytes) }

    /// What a new decoder and its demuxer would hold after a landing that caches `lentFrames`
    /// of its frames: its own pictures and those, at the largest size the active decoder has
    /// made, and the same index.
    func newSlotBytes(lending lentFrames: Int) -> Int {
        (active.holdings.ownPictures + lentFrames) * active.holdings.pictureBytes + active.holdings.indexBytes
    }

    /// Whether the bound allows one more decoder, for a landing that caches `lentFrames`.
    func canGrow(lending lentFrames: Int) -> Bool {
        slots.count < Self.maxSlots && heldBytes + newSlotBytes(lending: lentFrames) <= boundBytes
    }

    /// What every demuxer of the pool has read, and those it replaced: a landing's reads are
    /// the difference across it, whichever decoders it used or opened.
    var reads: MediaReads { slots.reduce(retiredReads) { $0 + $1.demuxer.reads } }

    /// The slot used longest ago, preferring one that stands nowhere (its position lost).
    var leastRecentlyUsed: DecoderSlot { Self.leastRecentlyUsed(of: slots) }

    /// The slot of `candidates` (not empty) used longest ago, preferring one that stands nowhere:
    /// the one to reposition, or to close.
    private static func leastRecentlyUsed(of candidates: [DecoderSlot]) -> DecoderSlot {
        candidates.first { $0.position == nil } ?? candidates.min { $0.lastUse < $1.lastUse }!
    }

    /// Makes `slot` the decoder that lands now.
    mutating func activate(_ slot: DecoderSlot) {
        // Only the decoder that lands reads its bytes again; over HTTP each parked one would
        // otherwise keep up to 16 MiB (144 MB more peak RSS for 40 random seeks over HTTP).
        if slot !== active { active.demuxer.forgetFetchedBytes() }
        active = slot
        touch(slot)
    }

    /// Makes the active decoder one that decodes through damage as FFmpeg's own decode does
    /// (`Decoder.toleratesDamage`), or, without `toleratingDamage`, one that explodes on it as
    /// the pool's decoders are opened to, by opening a new decoder in its place when it is the
    /// other kind. Its error recognition is fixed when a decoder opens (frame threads copy it
    /// then), so one decoder cannot be both in turn. Decoders of a codec whose decoders do not
    /// explode stay.
    func useActiveDecoder(toleratingDamage: Bool) throws(FFmpegError) {
        let decoder = active.decoder
        guard toleratingDamage ? decoder.explodesOnDamage : decoder.toleratesDamage else { return }
        active.replaceDecoder(with: try opener.openDecoder(toleratingDamage: toleratingDamage))
    }

    /// Gives the active decoder `demuxer` instead of its own (one reopened to read from the
    /// start), keeping what the old one read in `reads`.
    mutating func replaceActiveDemuxer(with demuxer: Demuxer) {
        retiredReads = retiredReads + active.demuxer.reads
        active.replaceDemuxer(with: demuxer)
    }

    /// The pool's decoder that reaches `target` in `table` by decoding on for the least work,
    /// if any: one that has not passed the target and stands in the target's GOP, or just
    /// before the keyframe `point` that starts it, so going on costs no more than a seek would.
    func slotDecodingOn(to target: FrameEntry, startingAt point: RandomAccessPoint, in table: FrameTable) -> DecoderSlot? {
        var best: (slot: DecoderSlot, last: Int64)?
        for slot in slots {
            guard let position = slot.position, !position.drained, let last = position.lastOutputPTS,
                last < target.pts, last > best?.last ?? .min
            else { continue }
            if let skipped = position.skippedBeforePTS, target.pts < skipped { continue }
            if position.startPoint == point {
                best = (slot, last)
                continue
            }
            // Standing just before the keyframe that starts the target's GOP, it reads that
            // keyframe next.
            if let lastIndex = table.frameIndex(ofPTS: last), let keyIndex = point.frameIndex,
                point.pts > position.startPoint.pts, lastIndex + 1 >= keyIndex
            {
                best = (slot, last)
            }
        }
        return best?.slot
    }

    /// The decoder to seek and decode from a keyframe, for a landing that caches `lentFrames`:
    /// the active one when it stands nowhere, else a new one while the bound allows, else the
    /// least recently used one (whose pools already hold buffers to reuse). A new decoder that
    /// cannot be opened leaves the pool as it is.
    mutating func slotForNewStart(lending lentFrames: Int) -> DecoderSlot {
        if active.position == nil { return active }
        if canGrow(lending: lentFrames) {
            do {
                // The file was probed when the engine opened it: the new decoder takes the
                // stream's parameters from there, and its demuxer only reads packets.
                let first = slots[0].demuxer
                let demuxer = try first.reopened(probingStreams: false)
                guard demuxer.streamCount == first.streamCount else { return leastRecentlyUsed }
                let slot = try opener.open(reading: demuxer)
                slots.append(slot)
                peakSlots = max(peakSlots, slots.count)
                touch(slot)
                return slot
            } catch {
                // Opening the file again failed (it went away, or memory ran out): the decoders
                // already open still land everything.
            }
        }
        return leastRecentlyUsed
    }

    /// After a landing: takes in what the decoder that landed has grown to, then closes the
    /// least recently used parked decoders while the pool holds more than its bound. Closing
    /// frees a decoder's buffer pools (its frames still in the cache are freed when the cache
    /// drops them) and its demuxer's index.
    mutating func keepWithinBound() {
        active.holdings.update(decoder: active.decoder, demuxer: active.demuxer)
        var held = heldBytes
        while held > boundBytes, slots.count > 1 {
            let closing = Self.leastRecentlyUsed(of: slots.filter { $0 !== active })
            held -= closing.holdings.heldBytes
            retiredReads = retiredReads + closing.demuxer.reads
            slots.removeAll { $0 === closing }
        }
        peakHeldBytes = max(peakHeldBytes, held)
        if slots.count == 1 { peakLoneHeldBytes = max(peakLoneHeldBytes, held) }
    }

    /// Forgets where every decoder stands: their positions name frames of a table the engine
    /// no longer plans on.
    func forgetPositions() {
        for slot in slots { slot.forgetPosition() }
    }

    /// Marks `slot` as the one that landed last.
    private mutating func touch(_ slot: DecoderSlot) {
        uses += 1
        slot.markUsed(uses)
    }
}
