import Foundation
import FrameSeekCore

/// What the documents' snippets printed, one entry per `print` call, each item as it printed.
///
/// The snippets are kept as written, `print` calls included; in this module `print` records
/// into `shared` (and writes nothing), so the tests read what a user would have seen.
final class ConformanceLog: Sendable {
    /// The log every snippet prints to. The tests that read it run one at a time.
    static let shared = ConformanceLog()

    private let entries = Locked<[[String]]>([])

    /// Every entry so far, each as its printed items.
    var all: [[String]] { entries.withLock { $0 } }

    /// Forgets every entry.
    func clear() { entries.withLock { $0.removeAll() } }

    fileprivate func append(_ items: [String]) { entries.withLock { $0.append(items) } }
}

/// `Swift.print`, recording instead of writing: the snippets' `print` calls land here.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    ConformanceLog.shared.append(items.map { String(describing: $0) })
}
