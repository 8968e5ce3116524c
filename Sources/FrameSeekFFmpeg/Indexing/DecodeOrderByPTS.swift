import FrameSeekCore

/// The decode order of a stream's packets, found by PTS: how a packet read after a demuxer
/// seek is placed before or after the keyframe the seek was for.
///
/// Most packets are frames of the table, which holds their decode order already; only the
/// others (packets an edit list discards, pictures before the first keyframe) are kept here,
/// so the lookup costs no memory per frame. A PTS held by both (an edit list that repeats a
/// sample) answers with the later packet, the one read last in decode order.
struct DecodeOrderByPTS: Sendable {
    /// Packets that are not frames of the table, by PTS.
    let others: [Int64: Int]
    /// Whether packets are known by PTS at all: true for tables from packets, false for
    /// decode-scanned ones, whose packets the engine cannot place.
    let identifiesPackets: Bool

    /// For tables whose packets are not known by PTS.
    static let unknown = DecodeOrderByPTS(others: [:], identifiesPackets: false)

    /// Packets are known by PTS; `others` are those that are not frames of the table.
    init(others: [Int64: Int]) {
        self.init(others: others, identifiesPackets: true)
    }

    private init(others: [Int64: Int], identifiesPackets: Bool) {
        self.others = others
        self.identifiesPackets = identifiesPackets
    }

    /// The decode order of the packet whose PTS is `pts`, nil when no packet has it.
    func order(ofPTS pts: Int64, in table: FrameTable) -> Int? {
        guard identifiesPackets else { return nil }
        let frame = table.frameIndex(ofPTS: pts).map { table.frames[$0].decodeOrder }
        guard let other = others[pts] else { return frame }
        return max(frame ?? other, other)
    }
}
