import Synchronization

/// A flag a seek's decoding loop polls, so a newer seek or a cancel stops it at once.
///
/// Set from any thread, read by the engine between packets. The first reason set wins.
public final class SeekInterruptionFlag: Sendable {
    private let state = Atomic<UInt8>(0)

    /// A flag that is not set.
    public init() {}

    /// Interrupts the seek for `reason`, unless it was already interrupted.
    public func interrupt(_ reason: SeekInterruption) {
        let code: UInt8 =
            switch reason {
            case .superseded: 1
            case .cancelled: 2
            case .notReady: 3
            case .failed: 4
            }
        _ = state.compareExchange(expected: 0, desired: code, ordering: .acquiringAndReleasing)
    }

    /// The reason the seek was interrupted, or nil while it may go on.
    public var interruption: SeekInterruption? {
        switch state.load(ordering: .acquiring) {
        case 1: return .superseded
        case 2: return .cancelled
        case 3: return .notReady
        case 4: return .failed
        default: return nil
        }
    }

    /// True once interrupted.
    public var isInterrupted: Bool { state.load(ordering: .relaxed) != 0 }
}
