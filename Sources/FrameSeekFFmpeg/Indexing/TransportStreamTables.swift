/// Where an MPEG-TS resource describes its program: the first PAT and the PMT it names, the
/// bytes an HLS EXT-X-MAP gives a byte range of TS packets that does not carry them (RFC 8216
/// 3.2 and 4.3.2.5). FFmpeg's demuxer reads these tables but does not say where they were.
enum TransportStreamTables {
    /// How far into the resource the tables are looked for: muxers write them first.
    static let searchBytes = 1 << 20
    private static let packetSize = 188

    /// The bytes from the first PAT's packet to the end of the first packet of the PMT it
    /// names, in the first `searchBytes` of `bytes` (which start on a packet); nil when the
    /// bytes are not 188-byte TS packets or the tables are not found there.
    static func programTables(in bytes: [UInt8]) -> Range<Int64>? {
        var pat: Int?
        var pmtPID: Int?
        var offset = 0
        while offset + packetSize <= min(bytes.count, searchBytes) {
            defer { offset += packetSize }
            guard bytes[offset] == 0x47 else { return nil }
            let packet = bytes[offset..<(offset + packetSize)]
            let pid = Int(packet[offset + 1] & 0x1F) << 8 | Int(packet[offset + 2])
            guard packet[offset + 1] & 0x40 != 0, let section = sectionStart(packet, at: offset) else { continue }
            if pat == nil, pid == 0, let named = programMapPID(packet, section: section) {
                pat = offset
                pmtPID = named
            } else if let start = pat, pid == pmtPID, packet[section] == 0x02 {
                return Int64(start)..<Int64(offset + packetSize)
            }
        }
        return nil
    }

    /// Where the first section of a packet that starts one begins (after its adaptation field
    /// and pointer field); nil when that is past the packet.
    private static func sectionStart(_ packet: ArraySlice<UInt8>, at offset: Int) -> Int? {
        let control = (packet[offset + 3] >> 4) & 0x3
        guard control & 0x1 != 0 else { return nil }
        var payload = offset + 4
        if control & 0x2 != 0 { payload += 1 + Int(packet[payload]) }
        guard payload < packet.endIndex else { return nil }
        let section = payload + 1 + Int(packet[payload])
        return section < packet.endIndex ? section : nil
    }

    /// The PMT PID of the first program a PAT section lists (program number not 0, which
    /// names the network PID); nil when the section is not a PAT or ends past the packet.
    private static func programMapPID(_ packet: ArraySlice<UInt8>, section: Int) -> Int? {
        guard packet[section] == 0x00, section + 8 <= packet.endIndex else { return nil }
        let length = Int(packet[section + 1] & 0x0F) << 8 | Int(packet[section + 2])
        // The program loop runs from byte 8 of the section to its CRC.
        let loopEnd = min(section + 3 + length - 4, packet.endIndex)
        var entry = section + 8
        while entry + 4 <= loopEnd {
            let program = Int(packet[entry]) << 8 | Int(packet[entry + 1])
            if program != 0 { return Int(packet[entry + 2] & 0x1F) << 8 | Int(packet[entry + 3]) }
            entry += 4
        }
        return nil
    }
}
