import Foundation
import FrameSeek

// `seek-with-precision.md`, snippet by snippet, as written but for the vendor prefix. Each
// snippet is the body of the host's method named for the document's heading; the scrub
// snippet's four gesture steps are four handlers, as an app writes them.

/// The host view controller of the document's snippets: `self` in `setupSeekManager(delegate:
/// self)` and in the listener extension.
final class VideoPlayerViewController: SeekDelegate {
    let playerViewController: Player
    let timeLabel = Label()
    /// Where the app thinks the playhead is, from the delegate's time updates.
    var currentTime: TimeInterval = 0
    /// Where the scrub gesture is.
    var proposedTime: TimeInterval = 0
    /// Every state `onScrubStateChanged` passed to the app's UI.
    private(set) var scrubStates: [ScrubState] = []
    /// Every `onSeekEnd(at:)`, in seconds: one per seek the player ran.
    private(set) var seekEnds: [TimeInterval] = []

    init(playerViewController: Player) {
        self.playerViewController = playerViewController
    }

    // MARK: Seek with an explicit precision

    func seekWithExplicitPrecision() {
        playerViewController.setupSeekManager(delegate: self)
        playerViewController.seek(to: 92.5, precision: .exact) { outcome in
            print("requested:", outcome.requestedTime,
                  "landed:", outcome.landedTime,
                  "delta:", outcome.accuracy.delta,
                  "within tolerance:", outcome.accuracy.withinRequestedTolerance,
                  "finished:", outcome.finished,
                  "latency:", outcome.latency)
            if outcome.clamp.didClamp {
                // Snap your scrubber thumb to where the player really went.
                print(outcome.clamp.explanation)
            }
        }
    }

    func seekCheaply() {
        // Cheap and usually instant.
        playerViewController.seek(to: 92.5, precision: .nearestKeyframe(tolerance: 0.5))
    }

    // MARK: Listen for precision events

    func startListening() {
        playerViewController.addSeekPrecisionListener(self)
    }

    func stopListening() {
        playerViewController.removeSeekPrecisionListener(self)
    }

    // MARK: Coalesce a scrub into one seek

    func gestureBegan() {
        guard let scrub = playerViewController.scrubSession else { return }
        scrub.positionThrottle = ScrubSessionCoordinator.defaultPositionThrottle  // 0.1 s
        // Gesture began
        scrub.beginScrubbing(at: currentTime)
    }

    func gestureMoved() {
        guard let scrub = playerViewController.scrubSession else { return }
        // Gesture moved: sample freely, nothing seeks
        scrub.updateScrubbing(to: proposedTime)
    }

    func gestureEnded() {
        guard let scrub = playerViewController.scrubSession else { return }
        // Gesture ended: the one seek
        scrub.endScrubbing(at: proposedTime, precision: .exact) { result in
            print("samples:", result.sampleCount,
                  "cancelled:", result.wasCancelled,
                  "landed:", result.outcome?.landedTime as Any)
        }
    }

    func gestureCancelled() {
        guard let scrub = playerViewController.scrubSession else { return }
        // Gesture cancelled: nothing to undo, because update never seeked
        scrub.cancelScrubbing()
    }

    // MARK: Step frames

    func stepForward() {
        let result = playerViewController.stepFrame(.forward, count: 1)
        switch result {
        case .stepped(let direction, let landedMediaTime):
            print("[Step]", direction, "->", landedMediaTime.seconds)
        case .unavailable(let reason):
            print("[Step] cannot:", reason.explanation)
        }
    }

    // MARK: Seek by wall clock, and to the live edge

    func seekByDate() {
        let window = playerViewController.liveSeekWindow
        if window.isDateAddressable, let start = window.startDate {
            playerViewController.seek(toDate: start.addingTimeInterval(120),
                                     precision: .nearestKeyframe(tolerance: 0.5)) { result in
                switch result {
                case .seeked(let outcome):
                    print("[Seek] landed:", outcome.landedTime)
                case .unavailable(let reason):
                    print("[Seek] unavailable:", reason.explanation)
                }
            }
        }
    }

    func joinLiveEdge() {
        playerViewController.seekToLiveEdge { outcome in
            print("[Seek] live edge:", outcome?.landedTime as Any)
        }
    }

    // MARK: The seek delegate, with the SDK's TimeInterval requirements

    func onTimeUpdate(currentTime: TimeInterval, duration: TimeInterval) {
        self.currentTime = currentTime
    }

    func onSeekEnd(at time: TimeInterval) {
        seekEnds.append(time)
    }

    // MARK: Stubs of the app's own UI

    func updateScrubUI(_ state: ScrubState) { scrubStates.append(state) }
}

extension VideoPlayerViewController: SeekPrecisionListener {
    func onSeekAccuracy(_ accuracy: SeekAccuracy, outcome: SeekOutcome) {
        print("[Seek] off by", accuracy.absoluteDelta, "s; ok:", accuracy.withinRequestedTolerance)
    }
    // Fired only when a target was actually moved.
    func onSeekClamped(_ clamp: SeekClamp) {
        print("[Seek]", clamp.explanation)
    }
    func onScrubStateChanged(_ state: ScrubState) { updateScrubUI(state) }
    // Throttled positions during a drag. NO seek is associated with this event.
    func onScrubPositionChanged(_ position: ScrubPosition) {
        timeLabel.text = format(position.time)
    }
    func onFrameStep(_ result: FrameStepResult) {
        if let reason = result.unavailableReason { print("[Step] refused:", reason.explanation) }
    }
}
