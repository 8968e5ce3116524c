import Foundation
import FrameSeekCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server whose every answer is scripted: for each request, a directive says
/// what status to send, what the Content-Range and Content-Length headers claim, how much of
/// the body goes out, and whether the answer is held back. What a hostile or broken origin
/// can do to `RangedHTTPReader`, in one process and without the network.
///
/// Runs are told apart by the first path component (`/run-N/...`), so several runs (the
/// tests' parallel cases) share one server, each reading its own script. A request past the
/// end of its script is answered honestly, so a run always comes to an end.
///
/// Every wait is bounded on the server's side: a held answer waits at most 2.5 s, and a
/// connection whose request does not arrive within 2 s is closed. A client that opens without
/// a read timeout (FFmpeg's fallback opens) therefore still sees every answer end.
package final class ScriptedHTTPServer: Sendable {
    /// What the server does with one request.
    package enum Directive: Sendable, Hashable {
        /// 206 with the range asked for (200 with everything when no range is asked).
        case honest
        /// 200 with the whole body, whatever was asked.
        case ignoresRange
        /// 206 whose Content-Range says the range starts `shift` bytes away from where it does.
        case shiftedStart(Int)
        /// 206 whose Content-Range claims the resource is `total` bytes long.
        case claimedTotal(Int64)
        /// The honest headers, but only `share`/256 of the body, then the connection closes.
        case cutBody(share: Int)
        /// The honest body, with a Content-Length `delta` bytes off.
        case wrongLength(Int)
        /// This status with no body (a redirect's Location is the run's own path).
        case status(Int)
        /// The whole body with neither Content-Length nor Content-Range: size unknown.
        case unknownSize
        /// The honest answer, `milliseconds` late.
        case held(milliseconds: Int)
        /// 206 with a Content-Range header that is not one.
        case malformedRange(String)
    }

    /// One run's directives, how far it has got, and which of the bodies it serves.
    private struct Script {
        var directives: [Directive]
        var served = 0
        var body: Int
    }

    /// The port it listens on, on 127.0.0.1.
    package let port: UInt16
    /// What honest answers serve, one of them per run.
    private let bodies: [[UInt8]]
    private let listener: Int32
    private let scripts = Locked<[Int: Script]>([:])
    private let nextRun = Atomic<Int>(0)

    /// Listens on 127.0.0.1 on a port the kernel picks, serving one of `bodies` per run; nil
    /// when there is none or no socket could be bound. The accepting thread lives as long as
    /// the process.
    package init?(bodies: [[UInt8]]) {
        guard !bodies.isEmpty else { return nil }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            return nil
        }
        self.listener = listener
        self.port = UInt16(bigEndian: address.sin_port)
        self.bodies = bodies
        Thread.detachNewThread { [self] in acceptForever() }
    }

    /// Starts a run that answers with `directives` in order, serving the body `choice` picks
    /// (modulo their count) as `name`; the URL path to ask for.
    package func beginRun(_ directives: [Directive], body choice: Int, name: String = "media.mp4") -> (id: Int, path: String) {
        let id = nextRun.add(1, ordering: .relaxed).newValue
        scripts.withLock { $0[id] = Script(directives: directives, body: choice % bodies.count) }
        return (id, "/run-\(id)/\(name)")
    }

    /// Ends a run: its later requests (a connection still open) are answered honestly. The
    /// requests it served.
    @discardableResult
    package func endRun(_ id: Int) -> Int {
        scripts.withLock { $0.removeValue(forKey: id)?.served ?? 0 }
    }

    private func acceptForever() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread.detachNewThread { [self] in
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        let runID = request.path.split(separator: "/").first.flatMap { Int($0.dropFirst("run-".count)) }
        let (directive, body) =
            runID.flatMap { id in
                scripts.withLock { scripts -> (Directive, Int)? in
                    guard var script = scripts[id] else { return nil }
                    defer { scripts[id] = script }
                    script.served += 1
                    let directive = script.served <= script.directives.count ? script.directives[script.served - 1] : .honest
                    return (directive, script.body)
                }
            } ?? (.honest, 0)
        let (head, payload) = answer(directive, body: bodies[body], range: request.range, path: request.path)
        if case let .held(milliseconds) = directive { usleep(UInt32(min(milliseconds, 2_500)) * 1_000) }
        guard send(connection, Array(head.utf8)) else { return }
        _ = send(connection, payload)
    }

    /// The status line and headers, and the body bytes, for `directive`.
    private func answer(
        _ directive: Directive, body: [UInt8], range: (start: Int, end: Int?)?, path: String
    ) -> (String, ArraySlice<UInt8>) {
        let size = body.count
        let start = range.map(\.start) ?? 0
        let end = min(range?.end ?? (size - 1), size - 1)
        let common = "Accept-Ranges: bytes\r\nConnection: close\r\n"
        if range != nil, start >= size || start > end {
            return ("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(size)\r\n\(common)Content-Length: 0\r\n\r\n", [])
        }
        let slice = body[start...end]
        let honestRange = "bytes \(start)-\(end)/\(size)"
        func partial(range: String, length: Int, _ payload: ArraySlice<UInt8>) -> (String, ArraySlice<UInt8>) {
            ("HTTP/1.1 206 Partial Content\r\nContent-Range: \(range)\r\nContent-Length: \(length)\r\n\(common)\r\n", payload)
        }
        func whole() -> (String, ArraySlice<UInt8>) {
            ("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\(common)\r\n", body[...])
        }
        switch directive {
        case .honest, .held:
            return range == nil ? whole() : partial(range: honestRange, length: slice.count, slice)
        case .ignoresRange:
            return whole()
        case let .shiftedStart(shift):
            let (claimed, overflow) = start.addingReportingOverflow(shift)
            return partial(range: "bytes \(overflow ? start : claimed)-\(end)/\(size)", length: slice.count, slice)
        case let .claimedTotal(total):
            return partial(range: "bytes \(start)-\(end)/\(total)", length: slice.count, slice)
        case let .cutBody(share):
            return partial(range: honestRange, length: slice.count, slice.prefix(slice.count * share / 256))
        case let .wrongLength(delta):
            let (claimed, overflow) = slice.count.addingReportingOverflow(delta)
            return partial(range: honestRange, length: overflow ? slice.count : max(0, claimed), slice)
        case let .status(code):
            let location = (300..<400).contains(code) ? "Location: \(path)\r\n" : ""
            return ("HTTP/1.1 \(code) Scripted\r\n\(location)Content-Length: 0\r\n\(common)\r\n", [])
        case .unknownSize:
            return ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n", body[...])
        case let .malformedRange(text):
            return partial(range: text, length: slice.count, slice)
        }
    }

    /// The request's path and its `Range: bytes=N-[M]`, nil when its head does not arrive
    /// whole within the read timeout or 16 KiB.
    private func readRequest(_ connection: Int32) -> (path: String, range: (start: Int, end: Int?)?)? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while received.count < 16 * 1024 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received += chunk[..<count]
            if let head = String(validating: received, as: UTF8.self), head.contains("\r\n\r\n") {
                let lines = head.split(separator: "\r\n")
                let words = lines.first?.split(separator: " ") ?? []
                guard words.count >= 2 else { return nil }
                let range = lines.first { $0.lowercased().hasPrefix("range: bytes=") }.flatMap { line -> (Int, Int?)? in
                    let bounds = line.dropFirst("range: bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
                    guard bounds.count == 2, let start = Int(bounds[0]) else { return nil }
                    return (start, Int(bounds[1]))
                }
                return (String(words[1]), range)
            }
        }
        return nil
    }

    /// Sends all of `bytes`; false when the peer went away (no SIGPIPE: MSG_NOSIGNAL).
    private func send<Bytes: Collection<UInt8>>(_ connection: Int32, _ bytes: Bytes) -> Bool {
        Array(bytes).withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = Glibc.send(connection, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }
}
