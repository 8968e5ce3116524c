/// An ISO BMFF Segment Index box (`sidx`, ISO/IEC 14496-12 8.16.3): where a DASH SegmentBase
/// Representation's one file holds each subsegment, by bytes and by media time.
///
/// A DASH client reads it itself to fetch one subsegment at a time, as dash.js and Shaka do;
/// FFmpeg reads it too, but keeps the references inside its mov demuxer. The box is input:
/// every field is bounded by the bytes that hold it and every sum is overflow-checked.
public struct SegmentIndexBox: Sendable, Hashable {
    /// One subsegment: its bytes and its presentation time in `timescale` ticks.
    public struct Reference: Sendable, Hashable {
        public let byteRange: HLSByteRange
        public let start: Int64
        public let duration: Int64
        /// Whether it starts with a stream access point. One that does not is read as an HLS
        /// segment that does not start with a keyframe: its frames before the first keyframe
        /// are not listed (Known limits).
        public let startsWithSAP: Bool
    }

    /// Ticks per second of the references' times.
    public let timescale: Int64
    /// The subsegments, in order.
    public let references: [Reference]

    /// Reads the box at the start of `bytes`, which were fetched from `offset` in the file
    /// (the SegmentBase's indexRange): the references' bytes count from the box's end.
    ///
    /// - Throws: `MPDError` naming `element` when the bytes do not hold a whole `sidx` box, a
    ///   field is out of range, or a reference points at another `sidx` (a hierarchical index,
    ///   which FrameSeek does not follow).
    public init(bytes: [UInt8], offset: Int, element: String) throws(MPDError) {
        func failure(_ reason: String) -> MPDError { MPDError(element: element, reason: "sidx: \(reason)") }
        guard offset >= 0 else { throw failure("a negative offset") }
        var position = 0
        func read(_ count: Int) throws(MPDError) -> UInt64 {
            guard bytes.count - position >= count else { throw failure("ends inside the box (\(bytes.count) bytes)") }
            defer { position += count }
            return bytes[position..<position + count].reduce(0) { $0 << 8 | UInt64($1) }
        }
        var size = try read(4)
        guard try read(4) == 0x7369_6478 else { throw failure("the index range does not start with a sidx box") }
        if size == 1 { size = try read(8) }
        guard size >= 32, size <= UInt64(bytes.count) else { throw failure("a box of \(size) bytes in \(bytes.count)") }
        let version = try read(1)
        _ = try read(3 + 4)  // flags, reference_ID
        let timescale = try read(4)
        guard timescale > 0 else { throw failure("timescale 0") }
        let earliest = try read(version == 0 ? 4 : 8)
        let firstOffset = try read(version == 0 ? 4 : 8)
        _ = try read(2)
        let count = Int(try read(2))
        guard UInt64(position) + UInt64(count) * 12 <= size else { throw failure("\(count) references do not fit the box") }
        guard earliest <= UInt64(Int64.max), firstOffset <= UInt64(Int64.max), count > 0 else {
            throw failure(count == 0 ? "no references" : "a time or offset past 2^63")
        }
        let (anchor, anchorOverflow) = Int64(offset).addingReportingOverflow(Int64(size))
        var (byte, overflow) = anchor.addingReportingOverflow(Int64(firstOffset))
        guard !anchorOverflow, !overflow else { throw failure("the first subsegment's offset is past 2^63") }
        var time = Int64(earliest)
        var references: [Reference] = []
        references.reserveCapacity(count)
        for number in 1...count {
            let word = try read(4)
            guard word >> 31 == 0 else { throw failure("reference \(number) points at another sidx") }
            let length = Int64(word & 0x7FFF_FFFF)
            let duration = Int64(try read(4))
            let startsWithSAP = try read(4) >> 31 == 1
            let (nextByte, byteOverflow) = byte.addingReportingOverflow(length)
            let (nextTime, timeOverflow) = time.addingReportingOverflow(duration)
            guard length > 0, !byteOverflow, !timeOverflow else { throw failure("reference \(number) is empty or runs past 2^63") }
            references.append(
                Reference(
                    byteRange: HLSByteRange(length: Int(length), offset: Int(byte)), start: time, duration: duration,
                    startsWithSAP: startsWithSAP))
            (byte, time) = (nextByte, nextTime)
        }
        self.timescale = Int64(timescale)
        self.references = references
    }
}
