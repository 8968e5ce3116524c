// Where the fixtures are, and reading the JSON that ffprobe and the command line write.
//
// Shared by the FFmpeg engine tests and the command-line tests: one reading of the fixture
// manifest and the oracles, so both check against the same expectations.

import Foundation

/// Paths inside the repository, found from this file's location.
public enum Repository {
    /// The package root (this file is at Tests/FrameSeekTestSupport/Repository.swift).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Fixtures/`.
    public static let fixtures = root.appendingPathComponent("Fixtures")

    /// An executable of this package, built beside the running test bundle in the same build
    /// directory (`.build`, `.build-asan`, `.build-tsan`), so it carries the suite's sanitizer.
    public static func builtExecutable(_ name: String) -> String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// The absolute path of `relative` inside `Fixtures/`.
    public static func fixture(_ relative: String) -> String {
        fixtures.appendingPathComponent(relative).path
    }

    /// The contents of a fixture-side file. Another process may be regenerating the fixtures:
    /// a missing or empty file is re-checked for a while before giving up.
    public static func stableContents(of path: String) throws -> Data {
        var lastError: Error?
        for attempt in 0..<30 {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                if !data.isEmpty { return data }
            } catch { lastError = error }
            if attempt < 29 { Thread.sleep(forTimeInterval: 2) }
        }
        throw lastError ?? CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
    }
}

/// Reading values out of JSONSerialization results, which are NSNumbers on Linux.
public enum JSON {
    /// A JSON number as an Int (a string is not a number).
    public static func int(_ value: Any?) -> Int? { (value as? NSNumber)?.intValue }
    /// A JSON number, or a string of digits (ffprobe writes some 64-bit values as strings).
    public static func int64(_ value: Any?) -> Int64? {
        if let number = value as? NSNumber { return number.int64Value }
        if let text = value as? String { return Int64(text) }
        return nil
    }
    public static func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    public static func bool(_ value: Any?) -> Bool? { value as? Bool ?? (value as? NSNumber)?.boolValue }

    /// One line of JSON text as an object, nil if it is not one.
    public static func object(_ text: String) -> [String: Any]? {
        guard let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// A JSON object file inside `Fixtures/`.
    public static func file(_ relative: String) throws -> [String: Any] {
        let data = try Repository.stableContents(of: Repository.fixture(relative))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// Width and height from a PNG file's IHDR chunk, read byte by byte.
public func pngDimensions(_ path: String) throws -> (width: Int, height: Int) {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard bytes.count >= 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
        String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR"
    else {
        throw OracleError("\(path): not a PNG with an IHDR chunk first")
    }
    func bigEndian(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (bigEndian(16), bigEndian(20))
}

/// The one directory under which a test process writes its files: `frameseek-tests-<pid>` in
/// the system's temporary directory, removed with all it holds when the process exits. Tests
/// that keep their files for the suite's life (a packaged playlist, damaged copies of fixtures)
/// have no moment to remove them, and one `make test` left some 90 directories, 36 MB of
/// them damaged fixtures, in /tmp at every run. A process killed before it exits still leaves
/// its root; the next run does not reuse it.
public let testScratchRoot: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("frameseek-tests-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: testScratchRoot) }
    return root
}()

/// A fresh temporary directory for files a test writes, under `testScratchRoot`.
public func temporaryDirectory(_ label: String) throws -> URL {
    let url = testScratchPath("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `name` under `testScratchRoot`, not created: for a file, or a directory a test expects the
/// command under test to make (or not).
public func testScratchPath(_ name: String) -> URL { testScratchRoot.appendingPathComponent(name) }

/// A fresh temporary directory removed when the value goes away, for tests that write files by
/// name (playlists, stores) and want them gone however the test ends.
package final class TemporaryDirectory {
    package let path: String

    package init() throws {
        path = try temporaryDirectory("dir").path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the directory.
    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The names in the directory, sorted.
    package func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
