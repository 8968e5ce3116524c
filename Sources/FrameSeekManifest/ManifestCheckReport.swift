import Foundation
import FrameSeekCore

/// What a check of one manifest found.
public struct ManifestCheckReport: Sendable, Hashable {
    /// The manifest as the caller named it.
    public var manifestPath: String
    /// The media checked: the manifest's `media.path` resolved against its directory.
    public var mediaPath: String
    /// True when the media's SHA-256 differs from the manifest's and it was checked anyway
    /// (`ManifestCheck.Options.allowChangedMedia`).
    public var mediaChanged: Bool
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

    /// Whether every entry landed where the manifest says.
    public var passed: Bool { results.allSatisfy(\.matches) }
}

/// One replayed entry: what the manifest expected, what landed now, and what moved.
public struct ManifestEntryResult: Sendable, Hashable {
    /// The manifest's entry.
    public var expected: ManifestEntry
    /// The same seek, replayed now.
    public var landed: ManifestEntry
    /// What moved, in `ManifestEntryChange.allCases` order; empty when the entry matches.
    public var changes: [ManifestEntryChange]
    /// The diff PNG written for a mismatch, when the check was given a diff directory.
    public var diffPicture: String?

    /// Creates a result; `changes` are computed from the two entries.
    public init(expected: ManifestEntry, landed: ManifestEntry, comparingBarcodes: Bool, diffPicture: String? = nil) {
        self.expected = expected
        self.landed = landed
        self.changes = ManifestEntryChange.allCases.filter { $0.differs(expected, landed, comparingBarcodes: comparingBarcodes) }
        self.diffPicture = diffPicture
    }

    /// Whether the entry landed where the manifest says.
    public var matches: Bool { changes.isEmpty }

    /// One line: the seek, then what moved, e.g. `92.5 s exact: frame 2773 -> 2774, time
    /// 92.492 s -> 92.525 s, pixels differ`, or `... : frame 2773 as recorded`.
    public var summary: String {
        let seek = "\(Self.seconds(expected.target, digits: 6)) s \(expected.precision)"
        guard !changes.isEmpty else { return "\(seek): frame \(expected.frameIndex) as recorded" }
        let parts = changes.map { change -> String in
            switch change {
            case .frameIndex: return "frame \(expected.frameIndex) -> \(landed.frameIndex)"
            case .time: return "time \(Self.times(expected.time, landed.time))"
            case .pixels: return "pixels differ"
            case .barcode: return "barcode \(expected.barcode.map(String.init) ?? "none") -> \(landed.barcode.map(String.init) ?? "none")"
            case .damaged: return landed.damaged ? "now damaged" : "no longer damaged"
            }
        }
        return "\(seek): \(parts.joined(separator: ", "))"
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
