import Foundation

/// Two short MPEG-TS recordings joined byte for byte, as `cat a.ts b.ts > joined.ts` joins
/// them: 2 s of H.264 with B-frames (50 frames), then 2 s of another encode, each muxed by
/// ffmpeg with its own timestamps.
package struct JoinedRecording {
    /// Where the second recording's timestamps stand against the first's.
    package enum Join: String, CaseIterable, Sendable, CustomStringConvertible {
        /// They start over at the first's.
        case restart
        /// They start over half a frame (0.02 s) later: no timestamp repeats one of the first's.
        case halfFrameLater
        /// They stand 50 s behind the first's (100 s and 50 s in): FFmpeg's wrap correction
        /// moves only jumps back of more than 60 s.
        case back50Seconds
        /// They stand an hour after the first's: time goes forward, as in a recording paused.
        case forwardHour

        package var description: String { rawValue }

        /// `-output_ts_offset` of the first recording and of the second.
        var offsets: (first: String, second: String) {
            switch self {
            case .restart: ("0", "0")
            case .halfFrameLater: ("0", "0.02")
            case .back50Seconds: ("100", "50")
            case .forwardHour: ("0", "3600")
            }
        }
    }

    /// The joined file.
    package let path: String
    /// The byte where the second recording's first video packet starts in the joined file.
    package let secondVideoStart: Int64

    /// The recordings joined as `join` says, written in `directory`.
    package static func make(_ join: Join, in directory: URL) throws -> JoinedRecording {
        func encode(_ source: String, offset: String, to name: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try runTool([
                "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=s=160x90:r=25:d=2",
                "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "25", "-pix_fmt", "yuv420p",
                "-output_ts_offset", offset, "-f", "mpegts", path
            ])
            return path
        }
        let first = try encode("testsrc2", offset: join.offsets.first, to: "first.ts")
        let second = try encode("smptebars", offset: join.offsets.second, to: "second.ts")
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
        let secondBytes = try Data(contentsOf: URL(fileURLWithPath: second))
        let joined = directory.appendingPathComponent("joined-\(join).ts").path
        try (firstBytes + secondBytes).write(to: URL(fileURLWithPath: joined))
        guard let firstPosition = try videoPackets("pos", of: second).first else {
            throw OracleError("ffprobe lists no video packet in \(second)")
        }
        return JoinedRecording(path: joined, secondVideoStart: Int64(firstBytes.count) + firstPosition)
    }

    /// ffprobe's `entry` ("pts", "pos") of each video packet of `path`, in decode order.
    package static func videoPackets(_ entry: String, of path: String) throws -> [Int64] {
        // Each line is the entry and a comma for the empty side data list after it.
        try runTool([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=\(entry)", "-of", "csv=p=0", path
        ]).split(whereSeparator: \.isNewline).compactMap { $0.split(separator: ",").first.flatMap { Int64($0) } }
    }
}
