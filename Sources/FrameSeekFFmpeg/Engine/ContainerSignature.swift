import Foundation

/// The container a file's first bytes announce, read without FFmpeg: what tells a damaged
/// header from a file that is no media at all when FFmpeg answers both with "invalid data".
enum ContainerSignature {
    /// ISO base media (MP4, MOV, M4A): a box type FFmpeg's mov demuxer starts with at byte 4.
    case isoMedia
    /// EBML (Matroska, WebM): 1A 45 DF A3.
    case ebml
    /// MPEG transport stream: the sync byte 0x47 at the start of two consecutive packets.
    case transportStream

    /// The container's name, for error text.
    var name: String {
        switch self {
        case .isoMedia: return "an MP4/QuickTime file"
        case .ebml: return "a Matroska/WebM file"
        case .transportStream: return "an MPEG-TS file"
        }
    }

    private static let isoBoxTypes: Set<String> = ["ftyp", "moov", "mdat", "free", "wide", "skip", "styp", "pnot"]

    /// The signature of the local file at `path`, nil when it has none of these (or is no
    /// local file).
    init?(path: String) {
        guard !path.contains("://"), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 189), head.count >= 8 else { return nil }
        let bytes = [UInt8](head)
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            self = .ebml
        } else if let type = String(bytes: bytes[4..<8], encoding: .ascii), Self.isoBoxTypes.contains(type) {
            self = .isoMedia
        } else if bytes.count == 189 && bytes[0] == 0x47 && bytes[188] == 0x47 {
            self = .transportStream
        } else {
            return nil
        }
    }
}
