// A deterministic live playlist for the Player's live tests: a "server" (`FakeLiveStream`) whose
// published window the test grows, slides and ends, and an engine (`FakeLiveEngine`) that reads
// it like an HLS engine reads a playlist: the window comes from the real `HLSTimeline`, frames
// are laid on that timeline at 30 fps, landings follow the real rules (`FrameTable.planLanding`).
// Reloads can be held inside the engine until the test releases them, to put a close or a load
// at an exact point of a reload's life.

import Dispatch
import Foundation
import FrameSeekCore

/// One segment the fake server can publish: its Media Sequence Number, its length in frames at
/// 30 fps, and its EXT-X-PROGRAM-DATE-TIME.
package struct FakeLiveSegment: Sendable, Hashable {
    /// Its Media Sequence Number.
    package let sequence: Int
    /// Frames in it, 1/30 s each; the first is a keyframe, as HLS segments start with one.
    package let frameCount: Int
    /// The date of its first frame, written on it; nil for a playlist without dates.
    package let date: ProgramDate?

    package init(sequence: Int, frameCount: Int, date: ProgramDate?) {
        self.sequence = sequence
        self.frameCount = frameCount
        self.date = date
    }

    /// Its EXTINF duration: `frameCount` thirtieths of a second, exact.
    package var duration: MediaTime { MediaTime(value: Int64(frameCount), timescale: 30) }
}

/// The fake server of one live playlist: every segment it will ever publish, which of them the
/// playlist lists now, and whether it has ended. The test changes it; the engine reads it on
/// load and on each reload. Also holds reloads inside the engine while told to.
package final class FakeLiveStream: Sendable {
    private struct State {
        var published: Range<Int>
        var ended = false
        var failures: [MediaError] = []
        var holding = false
        var held: [DispatchSemaphore] = []
        var reloadsEntered = 0
        var duringReload: (@Sendable () -> Void)?
    }

    /// Every segment, in sequence order; `segments[i].sequence == i`.
    package let segments: [FakeLiveSegment]
    /// EXT-X-TARGETDURATION, in whole seconds.
    package let targetDuration: Int
    private let state: Locked<State>

    /// A stream of `segments` whose playlist lists `published` at first.
    package init(segments: [FakeLiveSegment], published: Range<Int>, targetDuration: Int) {
        self.segments = segments
        self.targetDuration = targetDuration
        state = Locked(State(published: published))
    }

    /// The segments the playlist lists from the next reload on (grow: raise the upper bound;
    /// slide: raise both).
    package func publish(_ range: Range<Int>) { state.withLock { $0.published = range } }

    /// The playlist gets EXT-X-ENDLIST at the next reload.
    package func end() { state.withLock { $0.ended = true } }

    /// The next reload throws `error` (the server answered with garbage).
    package func failNextReload(with error: MediaError) { state.withLock { $0.failures.append(error) } }

    /// From now on, reloads wait inside the engine until released.
    package func holdReloads() { state.withLock { $0.holding = true } }

    /// Reloads pass from now on, and every held one goes on.
    package func openReloads() {
        let released = state.withLock { s -> [DispatchSemaphore] in
            s.holding = false
            defer { s.held.removeAll() }
            return s.held
        }
        released.forEach { $0.signal() }
    }

    /// Runs `work` inside every reload from now on, before the playlist is read: a test moves
    /// its scheduler's time there, as a request that takes that long would.
    package func duringReloads(_ work: @escaping @Sendable () -> Void) { state.withLock { $0.duringReload = work } }

    /// Reloads that have entered an engine, held or not.
    package var reloadsEntered: Int { state.withLock(\.reloadsEntered) }

    /// Returns once `count` reloads have entered an engine (and, while holding, wait there).
    package func waitForReloads(_ count: Int) async throws {
        try await waitUntil("\(count) reloads to enter the engine") { reloadsEntered >= count }
    }

    /// The playlist as the server would serve it now. `reloading` counts the read as a reload,
    /// which passes the hold and may fail.
    fileprivate func playlist(url: URL, reloading: Bool) throws(MediaError) -> HLSMediaPlaylist {
        if reloading { enterReload() }
        let (range, ended, failure) = state.withLock { s -> (Range<Int>, Bool, MediaError?) in
            let failure = reloading && !s.failures.isEmpty ? s.failures.removeFirst() : nil
            return (s.published, s.ended, failure)
        }
        if let failure { throw failure }
        let listed = segments[range].map { segment in
            HLSSegment(
                mediaSequence: segment.sequence, uri: url.appending(path: "segment\(segment.sequence).ts"),
                duration: segment.duration, title: nil, byteRange: nil, map: nil, programDate: segment.date,
                discontinuity: false, discontinuitySequence: 0, line: segment.sequence + 1)
        }
        return HLSMediaPlaylist(
            url: url, version: 6, targetDuration: targetDuration, mediaSequence: range.lowerBound,
            discontinuitySequence: 0, playlistType: nil, hasEndList: ended, holdBack: nil,
            segments: listed)
    }

    private func enterReload() {
        let (wait, work) = state.withLock { s -> (DispatchSemaphore?, (@Sendable () -> Void)?) in
            s.reloadsEntered += 1
            guard s.holding else { return (nil, s.duringReload) }
            let semaphore = DispatchSemaphore(value: 0)
            s.held.append(semaphore)
            return (semaphore, s.duringReload)
        }
        wait?.wait()
        work?()
    }
}

/// A `LivePlaybackEngine` over a `FakeLiveStream`: the window is the real `HLSTimeline`'s, and
/// the frame table holds the window's frames on that timeline, so frames of segments that left
/// the window are no longer seekable.
package final class FakeLiveEngine: LivePlaybackEngine {
    package private(set) var media: MediaDescription
    package private(set) var frameTable: FrameTable
    package private(set) var currentFrameIndex: Int?
    private var timeline: HLSTimeline
    private let stream: FakeLiveStream
    private let url: URL

    /// Opens `stream` as the playlist at `url`.
    package init(url: URL, stream: FakeLiveStream) throws(MediaError) {
        self.url = url
        self.stream = stream
        timeline = HLSTimeline(playlist: try stream.playlist(url: url, reloading: false))
        (frameTable, media) = Self.index(timeline, path: url.absoluteString)
    }

    /// A factory that opens the streams in `streams` by their URL's last path component and
    /// hands every other URL to `files` (a `FakePlaybackEngine` factory, say).
    package static func factory(
        streams: [String: FakeLiveStream], files: @escaping PlaybackEngineFactory
    )
        -> PlaybackEngineFactory
    {
        { (url: URL) throws(MediaError) -> any PlaybackEngine in
            guard let stream = streams[url.lastPathComponent] else { return try files(url) }
            return try FakeLiveEngine(url: url, stream: stream)
        }
    }

    package var liveSeekWindow: LiveSeekWindow { timeline.window }

    package var reloadDelay: MediaTime? { timeline.reloadDelay }

    package func reloadPlaylist() throws(MediaError) -> Bool {
        let playlist = try stream.playlist(url: url, reloading: true)
        let changed: Bool
        do { changed = try timeline.reload(with: playlist) } catch {
            throw MediaError(path: url.absoluteString, reason: .invalidRequest, cause: error.description)
        }
        if changed { (frameTable, media) = Self.index(timeline, path: url.absoluteString) }
        return changed
    }

    /// Lands by the rules on the window's frames.
    package func seek(
        to time: MediaTime, precision: SeekPrecision,
        interruption: SeekInterruptionFlag?
    ) throws(MediaError) -> SeekLanding {
        let plan: LandingPlan
        do { plan = try frameTable.planLanding(at: time, precision: precision) } catch {
            throw MediaError(path: media.path, reason: .invalidRequest, cause: error.description)
        }
        currentFrameIndex = plan.frameIndex
        return SeekLanding(
            plan: plan, frame: frameTable.frames[plan.frameIndex],
            keyframeIndex: plan.randomAccessPoint.frameIndex, framesDecoded: 1, demuxerSeeks: 1,
            latency: .zero)
    }

    /// Live tests do not step: every step is unavailable at the start.
    package func step(_ direction: FrameStepDirection, count: Int) -> FrameStepReport {
        FrameStepReport(
            result: .unavailable(.startOfStream), direction: direction, requestedCount: count,
            framesStepped: 0, frame: nil, framesDecoded: 0, latency: .zero)
    }

    /// The frames of `timeline`'s window, 1/30 s each from each segment's start, a keyframe
    /// at each segment's start; and the media they make.
    private static func index(_ timeline: HLSTimeline, path: String) -> (FrameTable, MediaDescription) {
        let timeBase = TimeBase(numerator: 1, denominator: 30)
        var frames: [FrameEntry] = []
        for (segment, start) in zip(timeline.playlist.segments, timeline.segmentStarts) {
            // Every start is a whole number of frames: durations are, and so is the target
            // duration the timeline bridges unseen segments with.
            let first = timeBase.ticks(in: start) ?? 0
            for k in 0..<Int64(timeBase.ticks(in: segment.duration) ?? 0) {
                frames.append(
                    FrameEntry(
                        index: frames.count, pts: first + k, time: timeBase.time(ofTicks: first + k),
                        durationTicks: 1, duration: timeBase.time(ofTicks: 1), isKeyframe: k == 0,
                        decodeOrder: frames.count, packetPosition: nil))
            }
        }
        let points = frames.filter(\.isKeyframe).map {
            RandomAccessPoint(pts: $0.pts, dts: $0.pts, decodeOrder: $0.index, frameIndex: $0.index)
        }
        let table = FrameTable(
            streamIndex: 0, timeBase: timeBase, originPTS: 0, frames: frames,
            randomAccessPoints: points, source: .packetScan)
        let stream = StreamDescription(
            index: 0, mediaType: .video, codec: "fake", timeBase: timeBase,
            width: 16, height: 16, pixelFormat: "gray", sampleRate: nil, channels: nil,
            orientation: .identity, sampleAspectRatio: nil)
        let media = MediaDescription(
            path: path, container: "hls", startTime: .zero,
            duration: table.seekableRange?.upperBound ?? .zero, streams: [stream],
            selectedStreamIndex: 0)
        return (table, media)
    }
}
