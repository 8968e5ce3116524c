// A fragmented MP4's table read over HTTP (`FrameTableBuilder.buildFromFragments`): the walk
// over the top-level boxes and the scan of the `moof` boxes after it read each `moof` once,
// in one request a fragment, and the table is the one read from the disk and ffprobe's packet
// list. The server's own count is the truth for what was read (scripts/range-http-server.py).

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("A fragmented MP4's table over HTTP", .ffmpegLog)
struct FragmentTableOverHTTPTests {
    @Test("One request a fragment and about its moof's bytes; the table is ffprobe's packets and the disk's")
    func oneRequestAFragment() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("fragmented.mp4")
        // Noise makes each fragment's mdat about 100 KB, past what a request reads on through
        // rather than hop over; B-frames, and the audio in the same `moof` as the video. One
        // encoder thread makes the same bytes on any machine.
        try runTool([
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=8", "-f", "lavfi",
            "-i", "sine=duration=8", "-vf", "noise=alls=40:allf=t", "-c:v", "libx264", "-threads", "1", "-preset", "veryfast",
            "-crf", "22", "-g", "5", "-bf", "2", "-pix_fmt", "yuv420p", "-c:a", "aac",
            "-movflags", "+frag_keyframe+empty_moov+default_base_moof+global_sidx", path
        ])
        let boxes = try topLevelBoxSizes(path)
        let fragments = boxes.filter { $0.type == "moof" }.count
        let boxBytes = Int64(boxes.filter { $0.type != "mdat" }.reduce(0) { $0 + $1.size })
        try #require(fragments >= 30, "\(fragments) fragments")

        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/fragmented.mp4"
        // What the open costs (FFmpeg reads the first fragments' samples while it probes) is
        // the cost of an open without the table; the table's is what the open with it adds.
        var asNeeded = FFmpegEngine.Options(streamIndex: 0, threads: 1)
        asNeeded.indexing = .asNeeded
        let start = try server.sent()
        _ = try FFmpegEngine(path: url, options: asNeeded)
        let opened = try server.sent()
        let remote = try FFmpegEngine(path: url, options: .init(streamIndex: 0, threads: 1))
        let indexed = try server.sent()
        let tableRequests = (indexed.requests - opened.requests) - (opened.requests - start.requests)
        let tableBytes = (indexed.bytes - opened.bytes) - (opened.bytes - start.bytes)
        #expect(remote.frameTable.source == .containerIndex)
        // One request a fragment, asking for its moof and a little past it: before, the walk
        // asked for each moof's header and body apart, and the scan for each moof again, at
        // least 8 KiB each.
        #expect(tableRequests <= fragments + 4, "\(tableRequests) requests for the table of \(fragments) fragments")
        #expect(tableBytes <= 3 * boxBytes, "\(tableBytes) bytes for the table, \(boxBytes) bytes of boxes besides the mdat")

        // ffprobe's packets, in presentation order: the PTS and keyframes the table must have.
        let probed = try probedVideoPackets(path)
        #expect(remote.frameTable.frames.map(\.pts) == probed.map(\.pts))
        #expect(remote.frameTable.frames.map(\.isKeyframe) == probed.map(\.key))
        let local = try FFmpegEngine(path: path, options: .init(streamIndex: 0, threads: 1))
        #expect(local.frameTable.frames == remote.frameTable.frames)
        #expect(local.frameTable.randomAccessPoints == remote.frameTable.randomAccessPoints)
    }
}
