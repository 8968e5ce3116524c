/// A stream's packets in decode order, as a frame table is made from them: read by a packet
/// scan (`ScannedPackets`), or worked out from a container's sample table
/// (`SampleTablePackets`).
protocol FrameTablePackets {
    /// How many packets there are.
    var count: Int { get }
    /// Packet `i`'s PTS; nil only for scanned packets that carry none.
    func pts(_ i: Int) -> Int64?
    /// Packet `i`'s DTS, nil when unknown.
    func dts(_ i: Int) -> Int64?
    /// Its duration in ticks, 0 or less when unknown.
    func duration(_ i: Int) -> Int64
    /// Its byte offset in the file, nil when unknown.
    func position(_ i: Int) -> Int64?
    /// Whether decoding can start at it.
    func isKeyframe(_ i: Int) -> Bool
    /// Whether an edit list discards it (decoded, never shown).
    func isDiscarded(_ i: Int) -> Bool
    /// Whether the demuxer flagged it corrupt (`AV_PKT_FLAG_CORRUPT`).
    func isCorrupt(_ i: Int) -> Bool
}

/// One packet of the stream, as read in decode order: 40 bytes, so the scan of a long file
/// holds its packets in a few megabytes (no timestamp is `AV_NOPTS_VALUE`, Int64.min, which
/// is how an unknown one is kept).
struct ScannedPacket {
    private static let unknown = Int64.min
    private let rawPTS: Int64
    private let rawDTS: Int64
    private let rawPosition: Int64
    let duration: Int64
    private let flags: UInt8

    /// What `packet` carries, as the demuxer gave it.
    init(_ packet: Packet) {
        rawPTS = packet.pts ?? Self.unknown
        rawDTS = packet.dts ?? Self.unknown
        rawPosition = packet.position ?? Self.unknown
        duration = packet.duration
        flags = (packet.isKeyframe ? 1 : 0) | (packet.isDiscarded ? 2 : 0) | (packet.isCorrupt ? 4 : 0)
    }

    var pts: Int64? { rawPTS == Self.unknown ? nil : rawPTS }
    var dts: Int64? { rawDTS == Self.unknown ? nil : rawDTS }
    var position: Int64? { rawPosition == Self.unknown ? nil : rawPosition }
    var isKeyframe: Bool { flags & 1 != 0 }
    var isDiscarded: Bool { flags & 2 != 0 }
    var isCorrupt: Bool { flags & 4 != 0 }

    /// Whether the packet is the sample `entry` of the container's index says: its position,
    /// its DTS and its discard flag.
    func agrees(with entry: ContainerIndexEntry) -> Bool {
        position == entry.position && dts == entry.timestamp && isDiscarded == entry.isDiscarded
    }
}

/// The packets a scan read.
struct ScannedPackets: FrameTablePackets {
    let packets: [ScannedPacket]

    var count: Int { packets.count }
    func pts(_ i: Int) -> Int64? { packets[i].pts }
    func dts(_ i: Int) -> Int64? { packets[i].dts }
    func duration(_ i: Int) -> Int64 { packets[i].duration }
    func position(_ i: Int) -> Int64? { packets[i].position }
    func isKeyframe(_ i: Int) -> Bool { packets[i].isKeyframe }
    func isDiscarded(_ i: Int) -> Bool { packets[i].isDiscarded }
    func isCorrupt(_ i: Int) -> Bool { packets[i].isCorrupt }
}

/// The packets of an MP4 stream as its sample table gives them, without reading one: DTS and
/// position from the demuxer's index (looked up there, so the table costs 9 bytes a packet
/// while it is made), PTS from the composition offsets, durations by the rule the demuxer was
/// measured to follow.
struct SampleTablePackets: FrameTablePackets {
    // The bits `fs_index_entries_copy` writes.
    static let keyframe: UInt8 = 1
    static let discarded: UInt8 = 2

    /// How the demuxer sets a packet's duration.
    enum Durations {
        /// The gap to the next sample's DTS (`stts`), and `last` for the last sample.
        case timeToSample(last: Int64)
        /// One value for every packet: FFmpeg's guess from the frame rate, given to packets
        /// that have a composition offset by FFmpeg versions before 7.1.
        case constant(Int64)
    }

    let demuxer: Demuxer
    let streamIndex: Int
    let ptsOfPacket: [Int64]
    let flags: [UInt8]
    let durations: Durations
    /// Each sample's gap to the next sample's DTS, read from the index once (nil: looked up
    /// in the index per sample, two lookups a frame).
    let gaps: [Int32]?

    init(demuxer: Demuxer, streamIndex: Int, pts: [Int64], flags: [UInt8], durations: Durations, gaps: [Int32]? = nil) {
        self.demuxer = demuxer
        self.streamIndex = streamIndex
        ptsOfPacket = pts
        self.flags = flags
        self.durations = durations
        self.gaps = gaps
    }

    var count: Int { ptsOfPacket.count }
    func pts(_ i: Int) -> Int64? { ptsOfPacket[i] }
    func dts(_ i: Int) -> Int64? { demuxer.indexEntry(of: streamIndex, at: i)?.timestamp }
    func duration(_ i: Int) -> Int64 {
        switch durations {
        case .constant(let ticks): ticks
        case .timeToSample(let last):
            if let gaps, i + 1 < count {
                Int64(gaps[i])
            } else {
                Self.timeToSample(i, count: count, last: last, demuxer: demuxer, streamIndex: streamIndex)
            }
        }
    }

    /// Sample `i`'s duration in `stts`: the gap to the next sample's DTS in the demuxer's index,
    /// and `last` for the last of `count`.
    static func timeToSample(_ i: Int, count: Int, last: Int64, demuxer: Demuxer, streamIndex: Int) -> Int64 {
        guard i + 1 < count, let now = demuxer.indexEntry(of: streamIndex, at: i),
            let next = demuxer.indexEntry(of: streamIndex, at: i + 1)
        else { return last }
        return next.timestamp - now.timestamp
    }
    func position(_ i: Int) -> Int64? { demuxer.indexEntry(of: streamIndex, at: i)?.position }
    func isKeyframe(_ i: Int) -> Bool { flags[i] & Self.keyframe != 0 }
    func isDiscarded(_ i: Int) -> Bool { flags[i] & Self.discarded != 0 }
    func isCorrupt(_ i: Int) -> Bool { false }
}
