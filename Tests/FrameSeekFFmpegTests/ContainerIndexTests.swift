// MP4 and MOV files opened from their sample tables (FrameTable.Source.sampleTable, or
// .containerIndex where the demuxer's index drops samples an edit list does not show): the
// table is the full scan's, field for field, on every MP4 fixture (edit lists, B-frames, HEVC,
// AV1, 10-bit, two video streams); a long file made in the test by stream-copying a fixture 40
// times opens reading a sliver of its bytes, its table is ffprobe's packet list, and exact seeks
// across it give the fixture's framemd5 pixels, from the disk and over HTTP with byte ranges
// (scripts/range-http-server.py on loopback); files the index cannot serve fall back to the
// full scan, which reports what is wrong with them.

import Foundation
import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Opening an MP4 from its index", .ffmpegLog)
struct ContainerIndexTests {
    static var mp4Fixtures: [Fixture] { FixtureCatalog.video.filter { $0.file.hasSuffix(".mp4") || $0.file.hasSuffix(".mov") } }

    @Test(
        "An MP4's table from its index is the full scan's, frame for frame and keyframe for keyframe",
        arguments: mp4Fixtures)
    func indexEqualsScan(_ fixture: Fixture) throws {
        let indexed = try openEngine(fixture)
        var options = FFmpegEngine.Options(streamIndex: fixture.stream, threads: 1)
        options.readsContainerIndex = false
        let scanned = try FFmpegEngine(path: fixture.path, options: options)
        // ffprobe's sample count (stsz) against the packets it lists (the demuxer's index): where
        // they differ, FFmpeg has dropped samples outside the edit list, and samples no longer
        // map one to one to the index, so the table comes from the index's packets instead.
        let sampleCount = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "\(fixture.stream)",
            "-show_entries", "stream=nb_frames", "-of", "default=nw=1:nk=1", fixture.path
        ])
        let packetCount = try runTool([
            "ffprobe", "-v", "error", "-select_streams", "\(fixture.stream)",
            "-show_entries", "packet=pts", "-of", "csv=p=0", fixture.path
        ])
        .split(whereSeparator: \.isNewline).count
        let expected: FrameTable.Source =
            Int(sampleCount.trimmingCharacters(in: .whitespacesAndNewlines)) == packetCount
            ? .sampleTable : .containerIndex
        #expect(indexed.frameTable.source == expected, "\(fixture.id): \(sampleCount) samples, \(packetCount) packets")
        #expect(scanned.frameTable.source == .packetScan)
        let differing = zip(indexed.frameTable.frames, scanned.frameTable.frames).filter { $0 != $1 }
        #expect(indexed.frameTable.frames.count == scanned.frameTable.frames.count)
        #expect(differing.isEmpty, "\(fixture.id): \(differing.count) frames differ, first \(differing.first.map { "\($0)" } ?? "")")
        #expect(indexed.frameTable.randomAccessPoints == scanned.frameTable.randomAccessPoints)
        #expect(indexed.media.truncation == nil && indexed.media.truncation == scanned.media.truncation)
        let read = try #require(indexed.indexScanBytes?.read)
        #expect(read > 0 && read <= Self.fileSize(fixture.path))
    }

    @Test(
        "A 40-fold stream copy of a fixture opens from its index reading under 3% of it, its table is ffprobe's, and lands with framemd5's pixels"
    )
    func longFile() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        let directory = try temporaryDirectory("container-index-long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let copies = 40
        let long = try Self.streamCopy(fixture, times: copies, into: directory)

        let engine = try FFmpegEngine(path: long, options: .init(streamIndex: 0, threads: 1))
        let table = engine.frameTable
        #expect(table.source == .sampleTable)
        let read = try #require(engine.indexScanBytes?.read)
        #expect(read * 100 < Self.fileSize(long) * 3, "the index scan read \(read) of \(Self.fileSize(long)) bytes")

        // ffprobe's packets, in presentation order: the PTS and keyframes the table must have.
        let probed = try probedVideoPackets(long)
        #expect(probed.count == copies * oracle.count)
        #expect(table.frames.map { $0.pts } == probed.map { $0.pts })
        #expect(table.frames.map { $0.isKeyframe } == probed.map { $0.key })
        // A video frame is kept in 16 bytes: no packet position, which only audio landings read.
        #expect(
            table.frames.residentBytes == 16 * table.frames.count, "\(table.frames.residentBytes) bytes for \(table.frames.count) frames")

        // Copy c's frame i is the fixture's frame i: its pixels are framemd5's line i.
        let targets = [
            0, 1, oracle.count - 1, oracle.count, 17 * oracle.count + 251, copies * oracle.count / 2 + 3,
            copies * oracle.count - 1
        ]
        for k in targets {
            let landing = try engine.seek(to: table.frames[k].time, precision: .exact)
            #expect(landing.frame.index == k)
            #expect(try engine.landedPicture()?.md5 == md5s[k % oracle.count], "frame \(k)")
        }

        // The same file over HTTP with byte ranges: the same index, read from the boxes alone,
        // and the same pixels.
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }
        let remote = try FFmpegEngine(path: "http://127.0.0.1:\(server.port)/long.mp4", options: .init(streamIndex: 0, threads: 1))
        #expect(remote.frameTable.source == .sampleTable)
        #expect(remote.frameTable.frames == table.frames)
        #expect(remote.indexScanBytes?.read == engine.indexScanBytes?.read)
        for k in [oracle.count + 7, copies * oracle.count - 2] {
            let landing = try remote.seek(to: table.frames[k].time, precision: .exact)
            #expect(landing.frame.index == k)
            #expect(try remote.landedPicture()?.md5 == md5s[k % oracle.count], "frame \(k) over HTTP")
        }
    }

    @Test("Over HTTP an exact seek reads its GOP and a keyframe thumbnail its keyframe: what the server sent stays under 10% of the file")
    func remoteReadsWhatItNeeds() throws {
        let fixture = try #require(FixtureCatalog.fixture("h264_bframes_gop250.s0"))
        let oracle = try Oracle(fixture)
        let md5s = try #require(oracle.md5s)
        let directory = try temporaryDirectory("container-index-remote")
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = try Self.streamCopy(fixture, times: 40, into: directory)
        let size = Self.fileSize(long)
        let server = try HTTPServer(directory: directory.path, byteRanges: true)
        defer { server.stop() }

        // The server's own count is the truth: bounded range requests mean it sends only what
        // is asked for, where an open-ended one sends until the connection closes.
        let engine = try FFmpegEngine(path: "http://127.0.0.1:\(server.port)/long.mp4", options: .init(streamIndex: 0, threads: 1))
        // FrameSeek's own count of the open: the server sent what lies between what was
        // received and what was asked for, in as many requests.
        let afterOpen = try server.sent()
        let traffic = try #require(engine.openTraffic)
        #expect(traffic.requests == afterOpen.requests, "\(traffic) against the server's \(afterOpen)")
        #expect(
            traffic.bytesReceived <= afterOpen.bytes && afterOpen.bytes <= traffic.bytesRequested,
            "\(traffic) against the server's \(afterOpen)")
        #expect(engine.frameTable.source == .sampleTable)
        let k = 20 * oracle.count + 300
        let landing = try engine.seek(to: engine.frameTable.frames[k].time, precision: .exact)
        #expect(landing.frame.index == k)
        #expect(try engine.landedPicture()?.md5 == md5s[k % oracle.count])
        let afterSeek = try server.sent()
        #expect(afterSeek.bytes * 10 < size, "the open and one seek made the server send \(afterSeek.bytes) of \(size) bytes")
        // The landing's own count: the server's requests since the open, and the bytes its
        // responses carried, which the server sent whole.
        let reads = try #require(landing.reads)
        #expect(reads.requests == afterSeek.requests - afterOpen.requests, "\(reads) against the server's \(afterSeek)")
        #expect(reads.bytes > 0 && reads.bytes == afterSeek.bytes - afterOpen.bytes, "\(reads) against the server's \(afterSeek)")

        // A keyframe thumbnail every 10 s: each keyframe alone, with framemd5's pixels.
        let end = Int(try #require(engine.frameTable.frames.last).time.seconds)
        let times = stride(from: 0, to: end, by: 10).map { MediaTime(value: Int64($0), timescale: 1) }
        var thumbnailReads = MediaReads(bytes: 0, requests: 0)
        for time in times {
            let plan = try engine.plan(at: time, precision: .previousKeyframe)
            let landed = try engine.land(plan, mode: .keyframeOnly)
            thumbnailReads = thumbnailReads + (landed.reads ?? .none)
            #expect(landed.framesDecoded <= 1)
            #expect(try engine.landedPicture()?.md5 == md5s[plan.frameIndex % oracle.count], "thumbnail at \(time.seconds) s")
        }
        let afterThumbnails = try server.sent()
        #expect(thumbnailReads.requests == afterThumbnails.requests - afterSeek.requests)
        #expect(thumbnailReads.bytes == afterThumbnails.bytes - afterSeek.bytes)
        #expect(times.count > 40)
        #expect(
            (afterThumbnails.bytes - afterSeek.bytes) * 10 < size,
            "\(times.count) keyframe thumbnails made the server send \(afterThumbnails.bytes - afterSeek.bytes) of \(size) bytes")
    }

    /// `name` in `directory`: `fixture` stream-copied `times` times over with ffmpeg's
    /// concat demuxer, so copy c's frame i is the fixture's frame i.
    static func streamCopy(_ fixture: Fixture, times: Int, into directory: URL, named name: String = "long.mp4") throws -> String {
        let list = directory.appendingPathComponent("list.txt")
        try String(repeating: "file '\(fixture.path)'\n", count: times).write(to: list, atomically: true, encoding: .utf8)
        let long = directory.appendingPathComponent(name).path
        try runTool(["ffmpeg", "-nostdin", "-v", "error", "-f", "concat", "-safe", "0", "-i", list.path, "-c", "copy", "-y", long])
        return long
    }

    @Test("A file whose samples lie past its end is scanned whole, and the scan says it is truncated")
    func truncatedFallsBack() throws {
        // The moov of truncated_faststart.mp4 lists 360 samples; the file holds 182.
        let error = #expect(throws: MediaError.self) { try FFmpegEngine(path: Repository.fixture("bad/truncated_faststart.mp4")) }
        #expect(error?.reason == .truncated, "\(String(describing: error))")
        #expect(error?.cause.contains("lists 360 packets") == true && error?.cause.contains("only 182") == true)
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }
}
