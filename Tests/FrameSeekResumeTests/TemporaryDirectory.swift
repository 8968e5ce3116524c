import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is
/// released, so each test's store files are its own.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("frameseek-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the directory.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The names in the directory, sorted.
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: path).sorted() }
}
