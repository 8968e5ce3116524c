// Hostile origins on loopback (scripts/range-http-server.py): playlists that name local files or
// overflow FrameSeek's arithmetic, servers that trickle, stall, lie about sizes or redirect in a
// loop, and a self-signed HTTPS server. Each case runs the built `frameseek` as a process of its
// own, bounded in time, so that a signal, a hang or a landing on a file it was not given shows
// as what it is. The truth: the process's own exit status and signal (wait4), the server's
// count of requests, and the file's own MD5 as `ffmpeg -f framemd5` gives it.

import Foundation
import FrameSeekTestSupport
import Testing

@Suite("Command line: hostile origins", .ownThread, .ffmpegLog)
struct HostileOriginTests {
    static let segmentNames = (24...27).map { "360p30_h264_48k_160_aac_ts-00000000\($0).ts" }

    /// A folder with four of the rollover fixture's TS segments (2 s each).
    static func origin() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in segmentNames {
            try FileManager.default.copyItem(
                atPath: Repository.fixture("media/hls-ts-rollover/\(name)"), toPath: directory.file(name))
        }
        return directory
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func frameseek(_ arguments: [String], bound: Duration = .seconds(60)) throws -> BoundedRun {
        try runBounded([Repository.builtExecutable("frameseek")] + arguments, bound: bound)
    }

    /// The promise for bad input: it ended by itself, on an exit (1 or 2), with one line on
    /// stderr naming `name`.
    static func expectRefused(_ run: BoundedRun, naming name: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(!run.timedOut, "\(context): still running after \(run.took)", sourceLocation: sourceLocation)
        #expect(run.signal == nil, "\(context): died on signal \(run.signal ?? 0)", sourceLocation: sourceLocation)
        #expect(run.exitStatus == 2 || run.exitStatus == 1, "\(context): exit \(run.exitStatus ?? -1)", sourceLocation: sourceLocation)
        #expect(run.errorLines.count == 1, "\(context): stderr \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(name), "\(context): stderr does not name \(name): \(run.stderr)", sourceLocation: sourceLocation)
    }

    @Test("A remote playlist naming a file:// segment, map or variant is refused; no landing on the local file is printed")
    func remotePlaylistNamingLocalFiles() throws {
        let origin = try Self.origin()
        // The private file sits outside what the server serves, as a user's would.
        let privateFolder = try TemporaryDirectory()
        let privateFile = privateFolder.file("private.ts")
        try FileManager.default.copyItem(atPath: origin.file(Self.segmentNames[0]), toPath: privateFile)
        let privateMD5 = try #require(ffmpegVideoMD5s(privateFile).first)
        let local = URL(fileURLWithPath: privateFile).absoluteString
        try Self.write(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n\(local)\n#EXT-X-ENDLIST\n", to: origin.file("segment.m3u8"))
        try Self.write(
            "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"\(local)\"\n#EXTINF:2.0,\n\(Self.segmentNames[0])\n#EXT-X-ENDLIST\n",
            to: origin.file("map.m3u8"))
        try Self.write(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\n\(URL(fileURLWithPath: origin.file("segment.m3u8")).absoluteString)\n",
            to: origin.file("variant.m3u8"))
        let server = try HTTPServer(directory: origin.path, byteRanges: true)
        defer { server.stop() }
        for name in ["segment.m3u8", "map.m3u8", "variant.m3u8"] {
            let url = "http://127.0.0.1:\(server.port)/\(name)"
            let run = try Self.frameseek(["seek", url, "0.5", "--md5"])
            Self.expectRefused(run, naming: url, name)
            #expect(!run.stdout.contains(privateMD5), "\(name): printed a landing on the local file: \(run.stdout)")
            #expect(run.stdout.isEmpty, "\(name): \(run.stdout)")
        }
        // The same playlist on disk may name the local file: what the user gave is trusted.
        let onDisk = try Self.frameseek(["seek", origin.file("segment.m3u8"), "0.5", "--md5"])
        #expect(onDisk.exitStatus == 0 && onDisk.stdout.contains("md5 "), "local playlist: \(onDisk.stderr)")
    }

    @Test(
        "Playlists whose numbers overflow are one line naming the URL and the tag, not a trap",
        arguments: [
            (
                "media-sequence", "EXT-X-MEDIA-SEQUENCE",
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:2.0,\nSEG0\n#EXTINF:2.0,\nSEG1\n#EXT-X-ENDLIST\n"
            ),
            (
                "discontinuity-sequence", "EXT-X-DISCONTINUITY",
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DISCONTINUITY-SEQUENCE:9223372036854775807\n#EXTINF:2.0,\nSEG0\n#EXT-X-DISCONTINUITY\n#EXTINF:2.0,\nSEG1\n#EXT-X-ENDLIST\n"
            ),
            (
                "byterange", "EXT-X-BYTERANGE",
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n#EXT-X-BYTERANGE:1000@9223372036854775000\nSEG0\n#EXTINF:2.0,\n#EXT-X-BYTERANGE:1000\nSEG0\n#EXT-X-ENDLIST\n"
            ),
            (
                "target-duration", "EXT-X-TARGETDURATION",
                "#EXTM3U\n#EXT-X-TARGETDURATION:4000000000000000000\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nSEG0\n#EXTINF:2.0,\nSEG1\n"
            )
        ])
    func overflowingPlaylists(name: String, tag: String, text: String) throws {
        let origin = try Self.origin()
        let playlist = text.replacingOccurrences(of: "SEG0", with: Self.segmentNames[0])
            .replacingOccurrences(of: "SEG1", with: Self.segmentNames[1])
        try Self.write(playlist, to: origin.file("p.m3u8"))
        let server = try HTTPServer(directory: origin.path, byteRanges: true)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/p.m3u8"
        for arguments in [["seek", url, "0.5"], ["seek", url, "--live-edge"], ["live", url]] {
            let run = try Self.frameseek(arguments)
            Self.expectRefused(run, naming: url, "\(name): \(arguments.joined(separator: " "))")
            #expect(run.stderr.contains(tag), "\(name): the error names no \(tag): \(run.stderr)")
        }
    }

    @Test("A live reload whose media sequence jumps by 10^18 is a reload failure, reported; play ends by itself")
    func reloadJump() throws {
        let origin = try Self.origin()
        func live(_ sequence: Int64) -> String {
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n#EXTINF:2.0,\n\(Self.segmentNames[0])\n#EXTINF:2.0,\n\(Self.segmentNames[1])\n"
        }
        try Self.write(live(0), to: origin.file("live.m3u8"))
        try Self.write(live(1_000_000_000_000_000_000), to: origin.file("jumped.m3u8"))
        // The first load gets live.m3u8; every reload after it, jumped.m3u8.
        let server = try HTTPServer(
            directory: origin.path,
            arguments: ["--faults", #"{"rules": [{"path": "live.m3u8", "kind": "as:jumped.m3u8", "after": 1}]}"#])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/live.m3u8"
        let run = try Self.frameseek(["play", url, "--for", "4", "--json"])
        #expect(!run.timedOut && run.signal == nil, "signal \(run.signal ?? 0), took \(run.took)")
        let failures = run.stdout.split(whereSeparator: \.isNewline).filter { $0.contains("live_window_reload_failed") }
        #expect(!failures.isEmpty, "no reload failure reported: \(run.stdout.suffix(600)) \(run.stderr)")
        #expect(failures.allSatisfy { $0.contains(url) && $0.contains("cannot reload") }, "\(failures)")
        #expect(try server.requestsAndFaults().paths["live.m3u8", default: 0] >= 2, "the playlist was never reloaded")
    }

    @Test("EXT-X-TARGETDURATION:0: play reloads the playlist at most twice a second, not as fast as the origin answers")
    func zeroTargetDuration() throws {
        let origin = try Self.origin()
        try Self.write(
            "#EXTM3U\n#EXT-X-TARGETDURATION:0\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:0.4,\n\(Self.segmentNames[0])\n#EXTINF:0.4,\n\(Self.segmentNames[1])\n",
            to: origin.file("live.m3u8"))
        let server = try HTTPServer(directory: origin.path, byteRanges: true)
        defer { server.stop() }
        let run = try Self.frameseek(["play", "http://127.0.0.1:\(server.port)/live.m3u8", "--for", "2", "--json"])
        #expect(!run.timedOut && run.signal == nil, "signal \(run.signal ?? 0), took \(run.took)")
        // The server's count: the load, then a reload at most every half second while it ran.
        let requests = try server.requestsAndFaults().paths["live.m3u8", default: 0]
        let bound = 2 + Int(run.took / .milliseconds(500))
        #expect(requests >= 2 && requests <= bound, "\(requests) playlist requests in \(run.took): \(run.stderr)")
    }

    @Test("A VOD playlist without EXT-X-ENDLIST is loaded once: play never reloads it")
    func vodWithoutEndList() throws {
        let origin = try Self.origin()
        try Self.write(
            "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
                + Self.segmentNames.map { "#EXTINF:2.0,\n\($0)\n" }.joined(),
            to: origin.file("vod.m3u8"))
        let server = try HTTPServer(directory: origin.path, byteRanges: true)
        defer { server.stop() }
        let run = try Self.frameseek(["play", "http://127.0.0.1:\(server.port)/vod.m3u8", "--for", "3", "--json"])
        #expect(!run.timedOut && run.signal == nil && run.exitStatus == 0, "exit \(run.exitStatus ?? -1): \(run.stderr)")
        // A reload would come one target duration (2 s) after the load.
        let requests = try server.requestsAndFaults().paths["vod.m3u8", default: 0]
        #expect(requests == 1, "\(requests) playlist requests in \(run.took)")
    }

    @Test("A 400 MB playlist is refused at the playlist limit, in bounded memory")
    func hugePlaylist() throws {
        let origin = try Self.origin()
        // With a Content-Length (refused before reading) and without (read up to the limit).
        let server = try HTTPServer(
            directory: origin.path,
            arguments: [
                "--faults",
                #"{"rules": [{"path": "big.m3u8", "kind": "bigplaylist:400"}, {"path": "stream.m3u8", "kind": "bigplaylist:400:nosize"}]}"#
            ])
        defer { server.stop() }
        for name in ["big.m3u8", "stream.m3u8"] {
            let url = "http://127.0.0.1:\(server.port)/\(name)"
            let run = try Self.frameseek(["seek", url, "1"])
            Self.expectRefused(run, naming: url, "400 MB playlist \(name)")
            #expect(run.stderr.contains("limit"), "\(run.stderr)")
            #expect(run.peakResidentBytes < 256 << 20, "\(name): peak RSS \(run.peakResidentBytes >> 20) MiB")
        }
    }

    @Test(
        "Servers that trickle, stall without a size, lie about the size or redirect in a loop end within the timeout",
        arguments: [
            ("trickle", "trickle:4", "seg.ts"), ("no size, then a stall", "nosize", "seg.ts"),
            ("redirect loop", "redirect", "seg.ts"), ("redirect to a local file", "redirectto:file:///etc/passwd", "seg.ts")
        ])
    func slowAndLyingServers(name: String, kind: String, path: String) throws {
        let origin = try Self.origin()
        try FileManager.default.copyItem(atPath: origin.file(Self.segmentNames[0]), toPath: origin.file("seg.ts"))
        let server = try HTTPServer(
            directory: origin.path, arguments: ["--faults", #"{"rules": [{"path": "\#(path)", "kind": "\#(kind)"}]}"#])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/\(path)"
        let run = try Self.frameseek(["probe", url, "--timeout", "5", "--deadline", "0"], bound: .seconds(60))
        Self.expectRefused(run, naming: url, name)
    }

    @Test("A claimed size of 2^63-1: a seek inside the real file lands on ffmpeg's frame, one past it is refused")
    func claimedHugeSize() throws {
        let origin = try Self.origin()
        try FileManager.default.copyItem(atPath: Repository.fixture("media/nasa_13013.mp4"), toPath: origin.file("claim.mp4"))
        let server = try HTTPServer(
            directory: origin.path, arguments: ["--faults", #"{"rules": [{"path": "claim.mp4", "kind": "claimsize"}]}"#])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/claim.mp4"
        let far = try Self.frameseek(["seek", url, "16", "--timeout", "5", "--deadline", "0"])
        #expect(far.signal == nil && !far.timedOut, "far seek: signal \(far.signal ?? 0)")
        #expect(far.exitStatus == 0 || far.exitStatus == 2, "far seek: exit \(far.exitStatus ?? -1)")
        if far.exitStatus == 2 { Self.expectRefused(far, naming: url, "far seek") }
        let near = try Self.frameseek(["seek", url, "1", "--md5", "--timeout", "5", "--deadline", "0"])
        #expect(near.signal == nil && !near.timedOut)
        // The landed frame's MD5 is the fixture's framemd5 oracle's at the PTS it prints.
        let truth = try framemd5ByPTS("oracle/nasa_13013.mp4.s3.framemd5")
        let pts = near.stdout.range(of: "(pts ").flatMap { Int64(near.stdout[$0.upperBound...].prefix { $0.isNumber }) }
        let md5 = near.stdout.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(pts != nil && md5 != nil && truth[pts ?? -1] == md5, "near seek: \(near.stdout) \(near.stderr)")
    }

    @Test("A self-signed HTTPS server is refused by default and read with --insecure, which says so once")
    func selfSignedHTTPS() throws {
        let origin = try Self.origin()
        let keys = try TemporaryDirectory()
        _ = try runTool(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keys.file("key.pem"), "-out",
                keys.file("cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"
            ])
        let server = try HTTPServer(directory: origin.path, arguments: ["--tls", keys.file("cert.pem"), keys.file("key.pem")])
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/\(Self.segmentNames[0])"
        let refused = try Self.frameseek(["probe", url, "--timeout", "5", "--deadline", "0"])
        Self.expectRefused(refused, naming: url, "self-signed")
        #expect(refused.stderr.lowercased().contains("certificate"), "\(refused.stderr)")
        let insecure = try Self.frameseek(["probe", url, "--timeout", "5", "--deadline", "0", "--insecure"])
        #expect(insecure.exitStatus == 0, "--insecure: \(insecure.stderr)")
        #expect(insecure.errorLines.filter { $0.contains("--insecure") }.count == 1, "\(insecure.stderr)")
    }
}
