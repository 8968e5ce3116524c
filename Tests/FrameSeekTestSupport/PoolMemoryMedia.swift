// Media on which a pool of parked decoders holds more than each decoder's level says: the three
// ways a decoder and its demuxer hold memory, each made here by ffmpeg in a few seconds.

import Foundation

/// A shape of media that makes the decoder pool's decoders or demuxers hold memory, with the
/// bench workload that makes the pool keep several of them.
package enum PoolMemoryShape: String, CaseIterable, Sendable, CustomStringConvertible {
    /// One clean GOP per 12 s at 320x240: a backward step refills the frame cache from the
    /// keyframe, and once the cache moves on, those frames' buffers stay in that decoder's
    /// buffer pool.
    case longGOP
    /// 200,000 tiny intra frames in an MP4: every demuxer holds the whole sample table as its
    /// index, however few packets it reads.
    case largeIndex
    /// An MPEG-TS whose first GOP is 64x64 and the rest 640x360: the header's picture size
    /// is not what the decoders come to hold.
    case growingPictures

    package var description: String { rawValue }

    /// The bench workload, its n and the pool's bound in MiB (with a 16 MiB frame cache).
    package var workload: (name: String, count: Int, poolMB: Int) {
        switch self {
        case .longGOP: ("backstep", 900, 64)
        case .largeIndex: ("random", 40, 32)
        case .growingPictures: ("random", 40, 64)
        }
    }

    /// Makes the media in `directory`: its path, and the files it was joined from, whose
    /// frames one after another are its frames (ffmpeg's own decode of a stream whose picture
    /// size changes scales every picture to the first one's size).
    package func make(in directory: TemporaryDirectory) throws -> (path: String, parts: [String]) {
        let encode = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        func ffmpeg(_ arguments: [String]) throws { try runTool(["ffmpeg", "-nostdin", "-v", "error", "-y"] + arguments) }
        switch self {
        case .longGOP:
            let path = directory.file("long-gop.mp4")
            try ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=48"] + encode
                    + ["-g", "300", "-keyint_min", "300", "-sc_threshold", "0", path])
            return (path, [path])
        case .largeIndex:
            let path = directory.file("large-index.mp4")
            try ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=16x16:rate=1000", "-t", "200"] + encode + ["-g", "1", path])
            return (path, [path])
        case .growingPictures:
            // MPEG-TS packets can be joined as they are; the second part's times follow the first's.
            let small = directory.file("small.ts"), large = directory.file("large.ts")
            try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x64:rate=25:duration=1"] + encode + ["-g", "25", "-f", "mpegts", small])
            try ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=30"] + encode
                    + ["-g", "25", "-output_ts_offset", "1", "-f", "mpegts", large])
            let path = directory.file("growing-pictures.ts")
            try (Data(contentsOf: URL(fileURLWithPath: small)) + Data(contentsOf: URL(fileURLWithPath: large)))
                .write(to: URL(fileURLWithPath: path))
            return (path, [small, large])
        }
    }
}
