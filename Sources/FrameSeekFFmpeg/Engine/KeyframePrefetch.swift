import Foundation
import FrameSeekCore

/// Keyframes decoded on a second core while the engine's scan reads the file, for the
/// landings that decode a keyframe from its own packet (`LandingMode.keyframeOnly`: thumbnails).
///
/// Opening a file scans every packet on one core; a thumbnail run then decodes a keyframe per
/// picture on every core. The scan already holds each keyframe's packet, so this decodes some
/// of them meanwhile, on a decoder of its own, and an engine landing on one of those keyframes
/// takes the decoded frame instead of seeking, reading and decoding it again.
///
/// The scan passes keyframes far faster than they decode, so the decoder always takes the
/// newest one offered and lets the others go: what it decodes is spread over the file, and it
/// never falls behind the scan. It stops when the scan ends (the frame in flight is kept when
/// it comes out); a frame that would take the pictures held past `boundBytes` is dropped.
///
/// A frame is kept only when its packet decoded alone into exactly that frame with no error
/// of any kind (none from `avcodec_send_packet` or `avcodec_receive_frame`, no damage flag, a
/// packet not flagged corrupt): what a `keyframeOnly` landing of the same packet decodes, on a
/// decoder opened the same way and flushed as a seek flushes it, with 0 decode errors. A frame
/// with any doubt is left to the landing, which counts its damage.
package final class KeyframePrefetch: @unchecked Sendable {
    // Safe because: `decoder` is used only inside `decodeWaiting()`, which runs only on
    // `queue` (serial), so by one thread at a time; every other stored property is read and
    // written only while `lock` is held. A `Frame` or `Packet` moves between threads only
    // through those properties, under the lock, and the thread that takes it out is its only
    // user from then on.
    private let queue = DispatchQueue(label: "frameseek.keyframe-prefetch")
    private let lock = NSLock()
    private let decoder: Decoder
    /// The most bytes of pictures held at once.
    package let boundBytes: Int
    /// Tests: decode every keyframe offered, in order, and make `scanEnded()` wait for all of
    /// them, so which landings find a frame does not depend on timing.
    private let decodesEveryOffer: Bool
    private var waiting: [Packet] = []
    private var decoding = false
    private var takingOffers = true
    private var frames: [Int64: Frame] = [:]
    private var heldBytes = 0
    private var served = 0

    /// The default bound on the pictures held: 64 MiB, about a hundred 480p keyframes or five
    /// 4K ones. A scan rarely lasts long enough to fill it.
    package static let defaultBoundBytes = 64 * 1024 * 1024

    /// Decodes with `decoder`, which must be this prefetch's alone.
    init(decoder: Decoder, boundBytes: Int = KeyframePrefetch.defaultBoundBytes, decodesEveryOffer: Bool = false) {
        self.decoder = decoder
        self.boundBytes = boundBytes
        self.decodesEveryOffer = decodesEveryOffer
    }

    /// Offers the scan's current packet, a keyframe of the stream. Called on the scanning
    /// thread; takes a reference to the packet's data (no copy).
    func offer(_ packet: Packet) {
        guard !packet.isCorrupt, !packet.isDiscarded, packet.pts != nil else { return }
        let held = Packet()
        guard (try? held.reference(packet)) != nil else { return }
        let startsDecoding: Bool = lock.withLock {
            guard takingOffers, heldBytes < boundBytes else { return false }
            if decodesEveryOffer { waiting.append(held) } else { waiting = [held] }
            guard !decoding else { return false }
            decoding = true
            return true
        }
        if startsDecoding { queue.async { self.decodeWaiting() } }
    }

    /// The scan is over: no packet is taken from now on. The frame being decoded is kept when
    /// it comes out. With `decodesEveryOffer`, waits until every packet offered is decoded.
    func scanEnded() {
        if decodesEveryOffer {
            queue.sync {}
            lock.withLock { takingOffers = false }
            return
        }
        lock.withLock {
            takingOffers = false
            waiting.removeAll()
        }
    }

    /// The keyframe with `pts` when it was decoded here, handed over to the caller (and no
    /// longer held here): nil when it was not, or not yet.
    func take(pts: Int64) -> Frame? {
        lock.withLock {
            guard let frame = frames.removeValue(forKey: pts) else { return nil }
            heldBytes -= frame.byteCount
            served += 1
            return frame
        }
    }

    /// How many frames `take(pts:)` has handed over.
    package var framesServed: Int { lock.withLock { served } }

    /// The keyframes decoded and not yet taken, by PTS.
    package var heldPTS: [Int64] { lock.withLock { frames.keys.sorted() } }

    /// The bytes of the pictures held now: never more than `boundBytes`.
    package var heldByteCount: Int { lock.withLock { heldBytes } }

    private func decodeWaiting() {
        while true {
            let next: Packet? = lock.withLock {
                guard !waiting.isEmpty else {
                    decoding = false
                    return nil
                }
                return waiting.removeFirst()
            }
            guard let packet = next else { return }
            guard let frame = decodeAlone(packet), let pts = frame.pts else { continue }
            let bytes = frame.byteCount
            lock.withLock {
                guard frames[pts] == nil, heldBytes + bytes <= boundBytes else { return }
                frames[pts] = frame
                heldBytes += bytes
            }
        }
    }

    /// `packet` decoded on its own, then the decoder drained and flushed: the one frame it
    /// gives, when it gives exactly one, with its PTS and no error.
    private func decodeAlone(_ packet: Packet) -> Frame? {
        defer { decoder.flush() }
        var result: Frame?
        do {
            try decoder.send(packet)
            try decoder.sendEndOfStream()
            while true {
                let frame = Frame()
                guard try decoder.receive(into: frame) == .frame else { break }
                guard result == nil, frame.pts == packet.pts, !frame.decoderFlaggedDamage else { return nil }
                result = frame
            }
        } catch {
            return nil
        }
        return result
    }
}
