// A loopback HTTP server for the tests of remote media, shared by the engine and command-line
// tests: Python's own, or scripts/range-http-server.py with byte ranges, faults and live playlists.

import Foundation

/// `python3 -m http.server` on a free port of 127.0.0.1, serving `directory`; stopped by
/// `stop()`. With `byteRanges`, scripts/range-http-server.py instead, which answers Range
/// requests as object storage does.
public final class HTTPServer {
    public let port: Int
    private let process = Process()

    /// `arguments` go to scripts/range-http-server.py after the directory (`--faults`,
    /// `--live`), and imply `byteRanges`.
    public init(directory: String, byteRanges: Bool = false, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the kernel picks a free port, and the server prints which (-u: unbuffered).
        process.arguments =
            byteRanges || !arguments.isEmpty
            ? ["python3", "-u", Repository.root.appendingPathComponent("scripts/range-http-server.py").path, directory] + arguments
            : ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            text += String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            if let range = text.range(of: " port "),
                let number = Int(text[range.upperBound...].prefix { $0.isNumber }), text.contains("(http")
            {
                port = number
                return
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw OracleError("python3 -m http.server did not report its port: \(text)")
    }

    /// Requests for each path (no leading slash), answered or failed on purpose, and the
    /// faults injected by kind (scripts/range-http-server.py's `/__stats`).
    public func requestsAndFaults() throws -> (paths: [String: Int], faults: [String: Int]) {
        let json = try runTool([
            "python3", "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
            "http://127.0.0.1:\(port)/__stats"
        ])
        struct Stats: Decodable { let paths: [String: Int]; let faults: [String: Int] }
        let stats = try JSONDecoder().decode(Stats.self, from: Data(json.utf8))
        return (stats.paths, stats.faults)
    }

    /// What scripts/range-http-server.py has sent so far: bytes of file data and requests
    /// (its `/__stats`), fetched with Python's own HTTP client.
    public func sent() throws -> (bytes: Int64, requests: Int) {
        let json = try runTool([
            "python3", "-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())",
            "http://127.0.0.1:\(port)/__stats"
        ])
        struct Stats: Decodable { let bytes: Int64; let requests: Int }
        let stats = try JSONDecoder().decode(Stats.self, from: Data(json.utf8))
        return (stats.bytes, stats.requests)
    }

    /// Kills the server. SIGKILL, not `terminate()`'s SIGTERM: the child inherits the test
    /// process's signal mask, in which SIGTERM can be blocked, and the server then never exits.
    public func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
