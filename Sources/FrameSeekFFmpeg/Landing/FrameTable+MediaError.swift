import FrameSeekCore

// A time or tolerance no landing can aim at, asked of a whole table, a window's or a
// playlist's, is one kind of error whichever engine was asked: `.invalidRequest`, naming the
// file or URL.
extension FrameTable {
    /// `checkRequest(_:precision:)`, failing as `MediaError` (`.invalidRequest`) for `path`.
    static func checkRequest(_ requested: MediaTime, precision: SeekPrecision, for path: String) throws(MediaError) {
        do { try checkRequest(requested, precision: precision) } catch { throw MediaError(path: path, invalidRequest: error) }
    }

    /// `planLanding(at:precision:)`, failing as `MediaError` (`.invalidRequest`) for `path`.
    func planLanding(at requested: MediaTime, precision: SeekPrecision, for path: String) throws(MediaError) -> LandingPlan {
        do { return try planLanding(at: requested, precision: precision) } catch {
            throw MediaError(path: path, invalidRequest: error)
        }
    }
}

extension MediaError {
    init(path: String, invalidRequest error: LandingError) {
        self.init(path: path, reason: .invalidRequest, cause: error.description)
    }
}
