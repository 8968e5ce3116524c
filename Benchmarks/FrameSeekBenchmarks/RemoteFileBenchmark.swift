// Long files over HTTP: what a seek and a thumbnail run cost a server, beside ffmpeg's own.
import FrameSeek
import FrameSeekCLI
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// scripts/range-http-server.py on a free loopback port, serving one directory, with byte
/// ranges as object storage and CDNs answer them. What it has sent comes from its `/__stats`:
/// the bytes it wrote, which for an open-ended range include what the kernel had buffered
/// when the client closed the connection, as a CDN would bill them.
final class RangeServer {
    let port: Int
    private let process = Process()

    init(directory: String) {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "scripts/range-http-server.py", directory]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fail("cannot start scripts/range-http-server.py: \(error)") }
        var text = ""
        while process.isRunning, !text.contains("(http") {
            text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard let range = text.range(of: " port "), let number = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            fail("scripts/range-http-server.py did not report its port: \(text)")
        }
        port = number
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Bytes and requests served so far.
    func sent() -> (bytes: Int64, requests: Int) {
        let script = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())"
        guard let cost = measureProcess(["python3", "-c", script, "http://127.0.0.1:\(port)/__stats"]),
              let object = (try? JSONSerialization.jsonObject(with: Data(cost.output.utf8))) as? [String: Any],
              let bytes = object["bytes"] as? Int, let requests = object["requests"] as? Int
        else { fail("cannot read the server's /__stats") }
        return (Int64(bytes), requests)
    }
}

/// `long --http`: each file served from loopback, and over its URL one exact seek
/// (`frameseek seek URL T --md5` against `ffmpeg -threads 1 -ss T -i URL ...`) and a thumbnail
/// every 10 s (`frameseek thumbnails URL --every 10` against `ffmpeg -skip_frame nokey -i URL
/// -vf fps=1/10,scale=160:90`), whole processes, with the bytes and requests the server sent
/// for each. No index cache: every open reads the media.
func remoteFileBenchmark(files: [String], at: String, runs: Int) {
    let frameseek = frameseekExecutable()
    for path in files {
        let file = URL(fileURLWithPath: path)
        let server = RangeServer(directory: file.deletingLastPathComponent().path)
        let url = "http://127.0.0.1:\(server.port)/\(file.lastPathComponent)"
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 } ?? 1
        let ffmpegAt = ffmpegSeekTime(frameseek: frameseek, path: path, at: at)
        let pictures = FileManager.default.temporaryDirectory.appendingPathComponent("frameseek-remote-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: pictures) }
        let ways: [(name: String, command: [String])] = [
            ("frameseek seek URL \(at) --md5", [frameseek, "seek", url, at, "--md5", "--no-index-cache"]),
            ("ffmpeg -threads 1 -ss \(ffmpegAt) -i URL -frames:v 1 -f framemd5 -",
             ["ffmpeg", "-v", "error", "-threads", "1", "-ss", ffmpegAt, "-i", url, "-frames:v", "1", "-f", "framemd5", "-"]),
            ("frameseek thumbnails URL --every 10", [frameseek, "thumbnails", url, "--every", "10", "--out", pictures.path, "--no-index-cache"]),
            ("ffmpeg -skip_frame nokey -i URL -vf fps=1/10,scale=160:90 OUT/%04d.png",
             ["ffmpeg", "-v", "error", "-skip_frame", "nokey", "-i", url, "-vf", "fps=1/10,scale=160:90", "\(pictures.path)/f%04d.png"]),
        ]
        var walls = [LatencySamples](repeating: LatencySamples(), count: ways.count)
        var bytes = [[Int64]](repeating: [], count: ways.count), requests = [[Int]](repeating: [], count: ways.count)
        var md5s = [String?](repeating: nil, count: ways.count)
        for _ in 0..<runs {
            for (i, way) in ways.enumerated() {
                try? FileManager.default.removeItem(at: pictures)
                try? FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
                let before = server.sent()
                guard let cost = measureProcess(way.command) else { fail("failed: \(way.command.joined(separator: " "))") }
                let after = server.sent()
                walls[i].add(cost.wall)
                bytes[i].append(after.bytes - before.bytes)
                requests[i].append(after.requests - before.requests)
                md5s[i] = landedMD5(in: cost.output)
            }
        }
        print("file: \(path) over HTTP (scripts/range-http-server.py on loopback), \(size) bytes")
        print("whole processes; medians of \(runs) rounds, the ways in turn in each round; bytes and requests as the server counts them")
        print("wall_ms  / ffmpeg   sent_MB  % of file  requests  way")
        for (i, way) in ways.enumerated() {
            let reference = walls[i - i % 2 + 1].median
            let sent = bytes[i].sorted()[bytes[i].count / 2], asked = requests[i].sorted()[requests[i].count / 2]
            print("\(fmt(walls[i].median))  \(fmt(walls[i].median / reference))  \(fmt(Double(sent) / 1e6))  \(fmt(100 * Double(sent) / Double(size)))  \(asked)  \(way.name)")
        }
        if md5s[0] != md5s[1] { print("!! frameseek's MD5 differs from ffmpeg's") }
    }
}
