import Foundation
import FrameSeek

// The UI the documents' snippets run in, stubbed: UIKit's view controller, the host app's seek
// bar and label, and AVKit's `player` property. Each records what the snippets did to it.
// Like UIKit objects they are not Sendable and are touched on one queue only: the player's
// callback queue, which plays the main queue's part.

/// A label whose text the snippets set.
final class Label {
    /// What the label shows.
    var text: String?
}

/// The host app's seek bar: records every `updateTime` and `resetBuffer` call.
final class SeekBar {
    /// Each `updateTime(current:duration:)`, in order.
    private(set) var updates: [(current: TimeInterval, duration: TimeInterval)] = []
    /// How many times `resetBuffer()` was called.
    private(set) var resets = 0

    func updateTime(current: TimeInterval, duration: TimeInterval) { updates.append((current, duration)) }
    func resetBuffer() { resets += 1 }
}

/// UIKit's `UIViewController`, as far as the recipes use it.
class ViewController {
    /// Set by the test before `viewWillDisappear`, as UIKit sets it while popping.
    var isMovingFromParent = false
    /// Set by the test before `viewWillDisappear`, as UIKit sets it while dismissing.
    var isBeingDismissed = false

    func viewWillDisappear(_ animated: Bool) {}
}

extension Player {
    /// AVKit's `AVPlayerViewController.player`, which the resume recipe sets to nil to release
    /// playback. It is AVKit's, not the SDK's, so it is stubbed as the UI is: setting nil
    /// closes the item.
    var player: Player? {
        get { self }
        set { if newValue == nil { Task { await close() } } }
    }
}

/// The app's own formatting of a scrub position for `timeLabel`.
func format(_ time: MediaTime) -> String { String(format: "%.3f", time.seconds) }
