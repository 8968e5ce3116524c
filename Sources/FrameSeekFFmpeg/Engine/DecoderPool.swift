import FrameSeekCore

/// One decoder, the demuxer that feeds it, and where the two stand.
///
/// Each slot has a demuxer of its own because a decoder parked mid-GOP can only go on with the
/// packet after the last one it was sent: a shared demuxer would have to seek back to that
/// packet every time another slot had read on.
final class DecoderSlot {
    /// Reads the selected stream's packets for this slot's decoder alone.
    var demuxer: Demuxer
    /// Decodes the packets `demuxer` reads.
    let decoder: Decoder
    /// Where the decoder stands; nil means "unknown: seek before decoding".
    var position: DecodePosition?
    /// The pool's use counter when the slot last landed: the least recently used slot is the
    /// one repositioned when every slot is taken.
    var lastUse = 0

    init(demuxer: Demuxer, decoder: Decoder) {
        self.demuxer = demuxer
        self.decoder = decoder
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
/// The pool's memory is bounded by `boundBytes`: each decoder counts the most its codec level
/// lets it hold (`Decoder.parkedPictureBytesBound`), and the pool never holds more decoders
/// than fit, nor more than `maxSlots`. One decoder is always kept, however large.
struct DecoderPool {
    /// The most decoders a pool holds, whatever the bound: past a handful of recently visited
    /// GOPs, another parked decoder is rarely the nearest to a target.
    static let maxSlots = 16
    /// The default bound on the pool's decoders, in bytes (256 MiB).
    static let defaultBoundBytes = 256 * 1024 * 1024

    /// Every decoder in the pool; the first is the one opened with the engine, whose demuxer
    /// read the stream info the others take their parameters from.
    private(set) var slots: [DecoderSlot]
    /// The bound, in bytes, on the pictures all the pool's decoders hold together.
    let boundBytes: Int
    /// The most bytes of pictures one decoder of this stream holds (see `Decoder`).
    let slotBytes: Int
    private var uses = 0

    /// A pool holding `first`, bounded by `boundBytes`.
    init(first: DecoderSlot, boundBytes: Int) {
        slots = [first]
        self.boundBytes = max(0, boundBytes)
        slotBytes = max(1, first.decoder.parkedPictureBytesBound)
        touch(first)
    }

    /// How many decoders the bound allows, at least one.
    var capacity: Int { min(Self.maxSlots, max(1, boundBytes / slotBytes)) }

    /// The most decoders the pool has held at once.
    private(set) var peakSlots = 1

    /// Marks `slot` as the one that landed last.
    mutating func touch(_ slot: DecoderSlot) {
        uses += 1
        slot.lastUse = uses
    }

    /// Adds a new decoder; the caller checked `canGrow`.
    mutating func add(_ slot: DecoderSlot) {
        slots.append(slot)
        peakSlots = max(peakSlots, slots.count)
        touch(slot)
    }

    /// Whether the bound allows one more decoder.
    var canGrow: Bool { slots.count < capacity }

    /// The slot used longest ago, preferring one that stands nowhere (its position lost).
    var leastRecentlyUsed: DecoderSlot {
        slots.first { $0.position == nil } ?? slots.min { $0.lastUse < $1.lastUse }!
    }
}
