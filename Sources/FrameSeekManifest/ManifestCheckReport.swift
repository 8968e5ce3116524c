import Foundation
import FrameSeekCore

/// What a check of one manifest found.
public struct ManifestCheckReport: Sendable, Hashable {
    /// The manifest as the caller named it.
    public var manifestPath: String
    /// The media checked: the manifest's `media.path` resolved against its directory.
    public var mediaPath: String
    /// True when the media's SHA-256 differs from the manifest's and it was checked anyway
    /// (`ManifestCheck.Options.allowChangedMedia`, or another file given by
    /// `ManifestCheck.Options.media`).
    public var mediaChanged: Bool
    /// True when the seeks were replayed on another file than the manifest's
    /// (`ManifestCheck.Options.media`): its identity was not checked.
    public var mediaReplaced = false
    /// The entries a rebaseline rewrote (`ManifestCheck.Options.update`), by offset; empty when
    /// the manifest was not rewritten.
    public var updatedEntries: [Int] = []
    /// The environment the check decoded in, to set beside the manifest's.
    public var environment: ManifestEnvironment
    /// One result per manifest entry, in the manifest's order.
    public var results: [ManifestEntryResult]

    /// Creates a report.
    public init(
        manifestPath: String, mediaPath: String, mediaChanged: Bool, environment: ManifestEnvironment,
        results: [ManifestEntryResult]
    ) {
        self.manifestPath = manifestPath
        self.mediaPath = mediaPath
        self.mediaChanged = mediaChanged
        self.environment = environment
        self.results = results
    }

    /// Whether every entry passed: landed where the manifest says (or within tolerance), or
    /// moved as expected.
    public var passed: Bool { results.allSatisfy(\.passed) }
}

/// One replayed entry: what the manifest expected, what landed now, what moved, and the verdict.
public struct ManifestEntryResult: Sendable, Hashable {
    /// The manifest's entry.
    public var expected: ManifestEntry
    /// The same seek, replayed now.
    public var landed: ManifestEntry
    /// What moved, in `ManifestEntryChange.allCases` order; empty when the entry matches.
    public var changes: [ManifestEntryChange]
    /// The tolerances the landed picture was held to; empty when the check compared MD5s (and
    /// for audio, which is always compared by MD5).
    public var tolerances: [PictureTolerance]
    /// The landed picture's score against the reference picture, when there are tolerances.
    public var score: PictureScore?
    /// Whether a changed frame index or time fails the entry when it is judged by picture
    /// (`--strict-frames`); without tolerances they always do.
    public var strictFrames: Bool
    /// The diff PNG written for a mismatch, when the check was given a diff directory.
    public var diffPicture: String?

    /// Creates a result; `changes` are computed from the two entries.
    public init(
        expected: ManifestEntry, landed: ManifestEntry, comparingBarcodes: Bool, tolerances: [PictureTolerance] = [],
        score: PictureScore? = nil, strictFrames: Bool = false, diffPicture: String? = nil
    ) {
        self.expected = expected
        self.landed = landed
        self.changes = ManifestEntryChange.allCases.filter { $0.differs(expected, landed, comparingBarcodes: comparingBarcodes) }
        self.tolerances = score == nil ? [] : tolerances
        self.score = score
        self.strictFrames = strictFrames
        self.diffPicture = diffPicture
    }

    /// The changes that fail the entry. Judged by picture, different pixels never do (the
    /// score decides), and another frame index or time only with `strictFrames`: a re-encode
    /// may renumber frames and shift times. Judged by MD5, every change does.
    public var failingChanges: [ManifestEntryChange] {
        guard score != nil else { return changes }
        return changes.filter { change in
            switch change {
            case .pixels: return false
            case .frameIndex, .time: return strictFrames
            case .barcode, .damaged: return true
            }
        }
    }

    /// The tolerances the landed picture is outside of.
    public var failedTolerances: [PictureTolerance] {
        guard let score else { return [] }
        return tolerances.filter { !$0.admits(score) }
    }

    /// Whether the entry landed where the manifest says: no failing change, and the picture
    /// within every tolerance.
    public var matches: Bool { failingChanges.isEmpty && failedTolerances.isEmpty }

    /// The verdict: `matches`, turned round for an entry expected to move.
    public var verdict: ManifestEntryVerdict {
        switch (expected.expectedOutcome, matches) {
        case (nil, true): return .passed
        case (nil, false): return .failed
        case (.moved?, false): return .expectedFailure
        case (.moved?, true): return .unexpectedPass
        }
    }

    /// Whether the entry passes the check: it matches, or it moved as expected.
    public var passed: Bool { verdict == .passed || verdict == .expectedFailure }

    /// One line: the seek, then what moved and the score, e.g. `92.5 s exact: frame 2773 ->
    /// 2774, time 92.492 s -> 92.525 s, pixels differ`, `92.5 s exact: frame 2773 -> 2774, ssim
    /// 0.9121 below 0.95`, or `... : frame 2773 as recorded`.
    public var summary: String {
        var parts = changeDescriptions
        if let score {
            parts.removeAll { $0 == "pixels differ" }
            parts += tolerances.map { tolerance in
                let value = PictureTolerance.number(Self.rounded(score[tolerance.metric], tolerance.metric))
                let within = tolerance.admits(score) ? "within" : "below"
                return "\(tolerance.metric.rawValue) \(value) \(within) \(PictureTolerance.number(tolerance.minimum))"
            }
        }
        var line =
            parts.isEmpty || changes.isEmpty && score == nil
            ? "\(seek): frame \(expected.frameIndex) as recorded" : "\(seek): \(parts.joined(separator: ", "))"
        switch verdict {
        case .expectedFailure: line += " (expected to move\(expected.reason.map { ": \($0)" } ?? ""))"
        case .unexpectedPass: line += " (expected to move, but landed as recorded\(expected.reason.map { "; reason given: \($0)" } ?? ""))"
        case .passed, .failed: break
        }
        return line
    }

    /// What moved, one phrase per change: `frame 2773 -> 2774`, `pixels differ`.
    public var changeDescriptions: [String] {
        changes.map { change -> String in
            switch change {
            case .frameIndex: return "frame \(expected.frameIndex) -> \(landed.frameIndex)"
            case .time: return "time \(Self.times(expected.time, landed.time))"
            case .pixels: return "pixels differ"
            case .barcode: return "barcode \(expected.barcode.map(String.init) ?? "none") -> \(landed.barcode.map(String.init) ?? "none")"
            case .damaged: return landed.damaged ? "now damaged" : "no longer damaged"
            }
        }
    }

    /// The seek, as reports name it: `92.5 s exact`.
    public var seek: String { "\(Self.seconds(expected.target, digits: 6)) s \(expected.precision)" }

    /// A score as the summary shows it: SSIM to 4 places, PSNR to 2.
    private static func rounded(_ value: Double, _ metric: PictureMetric) -> Double {
        guard value.isFinite else { return value }
        let scale = metric == .ssim ? 10_000.0 : 100.0
        return (value * scale).rounded() / scale
    }

    /// Two different times at millisecond precision, or as exact rationals when milliseconds
    /// would show them equal.
    private static func times(_ a: MediaTime, _ b: MediaTime) -> String {
        let (x, y) = (seconds(a, digits: 3), seconds(b, digits: 3))
        return x == y ? "\(a.rationalText) -> \(b.rationalText)" : "\(x) s -> \(y) s"
    }

    /// Seconds for people, trailing zeros dropped (`92.5`); never read back.
    private static func seconds(_ time: MediaTime, digits: Int) -> String {
        var text = String(format: "%.\(digits)f", time.seconds)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}

/// What a check says of one entry.
public enum ManifestEntryVerdict: String, Sendable, Hashable {
    /// Landed as recorded (or within tolerance).
    case passed
    /// Moved.
    case failed
    /// Moved, as the entry says it would (`expected: "moved"`): passes.
    case expectedFailure = "expected_failure"
    /// Landed as recorded though the entry says it would move: fails, so the stale
    /// expectation is seen and removed.
    case unexpectedPass = "unexpected_pass"
}

/// What moved between a recorded landing and its replay.
public enum ManifestEntryChange: String, Sendable, Hashable, Codable, CaseIterable {
    /// Another frame index.
    case frameIndex = "frame_index"
    /// Another landed time (exact comparison).
    case time
    /// Another MD5: different pixels (or samples).
    case pixels
    /// Another barcode value (compared only in manifests recorded with barcodes).
    case barcode
    /// Damaged then and not now, or the other way round.
    case damaged

    /// Whether `expected` and `landed` differ in this respect.
    func differs(_ expected: ManifestEntry, _ landed: ManifestEntry, comparingBarcodes: Bool) -> Bool {
        switch self {
        case .frameIndex: return expected.frameIndex != landed.frameIndex
        case .time: return expected.time != landed.time
        case .pixels: return expected.md5 != landed.md5
        case .barcode: return comparingBarcodes && expected.barcode != landed.barcode
        case .damaged: return expected.damaged != landed.damaged
        }
    }
}

/// A check that could not run. Its description is one line naming the file and the cause, as
/// the command line prints it.
public struct ManifestCheckError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Reason: Sendable, Hashable {
        /// The manifest's `media.path` resolves (`realpath(3)`) outside the check's root, or to
        /// something that is not a regular file (`stat(2)`): refused before it is opened.
        case mediaRefused
        /// The media is missing, or cannot be hashed (`MediaDigest.sha256`, libavutil's `av_sha_*`), opened
        /// or seeked (`FFmpegEngine`, FFmpeg's `avformat_open_input` and decoders).
        case mediaUnreadable
        /// The media's SHA-256 differs from the manifest's (`av_sha_final`), and changed media
        /// was not allowed.
        case mediaChanged
        /// A diff picture could not be written: its directory (`FileManager.createDirectory`)
        /// or the PNG (libpng's `png_image_write_to_file`, or the rename into place).
        case diffUnwritable
        /// The check holds pictures to a tolerance but has no reference picture for an entry:
        /// the manifest was recorded without `--pictures` and no `--reference` media was given.
        case referenceMissing
        /// The manifest's tolerances do not parse (`PictureTolerance(parsing:)`).
        case toleranceMalformed
        /// A rebaseline could not write the manifest or a picture (`OutputFile`).
        case manifestUnwritable
    }

    /// The file the failure is about: the media, the manifest naming refused media, or the
    /// diff picture.
    public let path: String
    /// The kind of failure.
    public let reason: Reason
    /// The cause, in words, without the path.
    public let cause: String

    /// Creates an error.
    public init(path: String, reason: Reason, cause: String) {
        self.path = path
        self.reason = reason
        self.cause = cause
    }

    /// `PATH: cause`.
    public var description: String { "\(path): \(cause)" }
}
