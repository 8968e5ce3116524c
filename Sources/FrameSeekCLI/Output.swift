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

    /// Writes all of `text`, retrying short writes, straight from the string's own storage.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

/// Gathers a command's many short lines into few writes: `frameseek step --repeat N` prints a
/// line per step, and a `write(2)` per line costs more than the line.
///
/// A terminal gets every write at once, as it is a person watching. Anything else (a pipe, a
/// file) gets the text once 64 KiB have gathered, or at the first write 0.1 s after the last
/// one went out, so a slow run still streams its lines, and at `flush()`: call it before
/// writing to another output and when the command ends, whichever way it ends.
final class BufferedOutput: TextOutput {
    /// Bytes gathered before they are written regardless of time.
    static let capacity = 64 * 1024

    private let destination: TextOutput
    private let interval: Duration
    private let passesThrough: Bool
    private var pending = ""
    private let clock = ContinuousClock()
    private var lastFlush: ContinuousClock.Instant

    /// Gathers what is written for `destination`, for at most `interval` between writes.
    init(_ destination: TextOutput, interval: Duration = .milliseconds(100)) {
        self.destination = destination
        self.interval = interval
        passesThrough = destination.isTerminal
        lastFlush = clock.now
    }

    /// Gathers `text`, writing everything gathered when it is due.
    func write(_ text: String) {
        if passesThrough { return destination.write(text) }
        pending += text
        if pending.utf8.count >= Self.capacity || clock.now - lastFlush >= interval { flush() }
    }

    /// Writes what has gathered.
    func flush() {
        lastFlush = clock.now
        guard !pending.isEmpty else { return }
        destination.write(pending)
        pending = ""
        pending.reserveCapacity(Self.capacity)
    }

    /// The destination's.
    var isTerminal: Bool { passesThrough }
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
