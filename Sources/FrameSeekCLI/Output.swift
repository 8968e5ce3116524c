#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: standard output and standard error in the tool, buffers in tests.
public protocol TextOutput: AnyObject {
    /// Writes `text` as is (no newline added).
    func write(_ text: String)
    /// True when a person is watching (a terminal), for progress lines.
    var isTerminal: Bool { get }
}

extension TextOutput {
    /// Writes `text` and a newline.
    func line(_ text: String) { write(text + "\n") }
}

/// A POSIX file descriptor (1 or 2).
public final class FileDescriptorOutput: TextOutput {
    private let descriptor: Int32

    /// Writes to `descriptor`.
    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes all of `text`, retrying short writes.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

/// Collects what a command writes, for tests.
public final class CapturedOutput: TextOutput {
    /// Everything written so far.
    public private(set) var text = ""
    /// Creates an empty buffer.
    public init() {}
    /// Appends `text`.
    public func write(_ text: String) { self.text += text }
    /// Never a terminal.
    public var isTerminal: Bool { false }
    /// The text split into lines, without the trailing empty one.
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}
