import Foundation
import FrameSeek

// `resumable-playback.md`, as written but for the vendor prefix and the two mends that
// README.md in this folder gives (the saved position is read before the first save, and
// `saveProgress` is not private). `UserDefaults.standard` holds the position, as in the recipe.

// MARK: - 1. Save & restore position in the Coordinator

final class Coordinator: SeekDelegate {

    weak var hostVC: PlayerHostVC?
    private var hasSeekedToSavedPosition = false

    // Retrieve the last saved position from your app / backend.
    private var savedPosition: TimeInterval {
        return UserDefaults.standard.double(forKey: "lastPlaybackPosition")
    }

    // onTimeUpdate: called periodically — save latest progress.
    func onTimeUpdate(currentTime: TimeInterval, duration: TimeInterval) {
        hostVC?.seekBar.updateTime(current: currentTime, duration: duration)
        // Read before the save below overwrites it (the recipe reads after, and never resumes).
        let resumePosition = savedPosition
        saveProgress(currentTime)

        // On first update after load, seek to the saved position.
        if !hasSeekedToSavedPosition && resumePosition > 0 {
            hasSeekedToSavedPosition = true
            hostVC?.playerViewController.seek(to: resumePosition)
        }
    }

    // onSeekEnd: also persist immediately after any seek.
    func onSeekEnd(at time: TimeInterval) {
        let dur = hostVC?.playerViewController.getDuration() ?? 0
        hostVC?.seekBar.updateTime(current: time, duration: dur)
        saveProgress(time)
    }

    // Save progress to your app / backend.
    func saveProgress(_ time: TimeInterval) {
        UserDefaults.standard.set(time, forKey: "lastPlaybackPosition")
    }

    // Clear saved progress when playback completes.
    func clearSavedProgress() {
        UserDefaults.standard.removeObject(forKey: "lastPlaybackPosition")
        hasSeekedToSavedPosition = false
    }
}

/// The recipe's `FastPixPlayerHostVC`.
final class PlayerHostVC: ViewController {
    let playerViewController: Player
    let seekBar = SeekBar()
    var coordinator: Coordinator?

    init(playerViewController: Player) {
        self.playerViewController = playerViewController
    }

    // MARK: - 2. Persist on app background / disappear in PlayerHostVC

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)

        if playerViewController.isPiPActive() { return }

        if isMovingFromParent || isBeingDismissed {
            let currentTime = playerViewController.getCurrentTime()
            coordinator?.saveProgress(currentTime) // persist before releasing
            playerViewController.pause()
            playerViewController.player = nil
        }
    }

    // MARK: - 3. Reset saved progress on playlist item change

    func playlistStateChanged(_ notification: Notification) {
        coordinator?.clearSavedProgress()
        seekBar.resetBuffer()
    }
}
