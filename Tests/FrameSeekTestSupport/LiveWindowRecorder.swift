// Records the live listener events into the same `EventLog` as `Recorder`, so one log shows
// reloads in order with seeks: window changes as `.completion("window")`, failed reloads as
// `.completion("reloadFailed")`, with their payloads kept beside.

import FrameSeekCore

/// A listener for the live events only; register it beside a `Recorder` on the same log.
package final class LiveWindowRecorder: SeekPrecisionListener, Sendable {
    package let log: EventLog
    private let heard = Locked<(windows: [LiveSeekWindow], errors: [MediaError])>(([], []))

    package init(_ log: EventLog) { self.log = log }

    /// The windows announced, in order.
    package var windows: [LiveSeekWindow] { heard.withLock(\.windows) }
    /// The reload errors announced, in order.
    package var errors: [MediaError] { heard.withLock(\.errors) }

    package func onLiveWindowChanged(_ window: LiveSeekWindow) {
        heard.withLock { $0.windows.append(window) }
        log.record(.completion("window"))
    }

    package func onLiveWindowReloadFailed(_ error: MediaError) {
        heard.withLock { $0.errors.append(error) }
        log.record(.completion("reloadFailed"))
    }
}
