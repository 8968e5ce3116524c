import Foundation
import FrameSeekCore
import FrameSeekImages

/// Where a set of seeks landed in one media stream, with what identifies the media and the
/// decoding environment: a file kept beside the media and checked again in CI
/// (`ManifestCheck`) after an encoder, FFmpeg or FrameSeek upgrade.
///
/// JSON: `{"format": "frameseek-landing-manifest", "schema_version": 1, "media": ...,
/// "environment": ..., "barcode": ..., "entries": [...]}`, written pretty-printed with sorted
/// keys so that a re-recorded manifest diffs line by line.
public struct Manifest: Sendable, Hashable, Codable {
    /// The schema this FrameSeek writes, and the newest it reads.
    public static let schemaVersion = 1
    /// The `format` value every manifest carries, so another JSON file is not taken for one.
    public static let format = "frameseek-landing-manifest"
    /// The largest manifest read: 256 MiB, about 700,000 entries at some 360 bytes each, more
    /// than every frame of three hours at 60 fps. A larger file is refused, not read.
    public static let maximumBytes = 256 << 20

    /// The schema the manifest was written with (`schema_version`).
    public var schemaVersion: Int
    /// The media the seeks ran on.
    public var media: ManifestMedia
    /// The FFmpeg libraries, decoder and FrameSeek that recorded the landings.
    public var environment: ManifestEnvironment
    /// Whether the entries carry barcode values (recorded with barcodes).
    public var barcode: Bool
    /// The seeks, in the order they were recorded.
    public var entries: [ManifestEntry]
    /// The picture tolerances a check holds video landings to (`ssim:0.95`), besides those it
    /// is given; empty compares MD5s.
    public var tolerances: [String] = []
    /// What the last `landing check --update` rebaselined from; nil for a manifest never updated.
    public var updatedFrom: ManifestUpdate?

    /// Creates a manifest of the current schema unless told otherwise.
    public init(
        schemaVersion: Int = Manifest.schemaVersion, media: ManifestMedia,
        environment: ManifestEnvironment, barcode: Bool, entries: [ManifestEntry]
    ) {
        self.schemaVersion = schemaVersion
        self.media = media
        self.environment = environment
        self.barcode = barcode
        self.entries = entries
    }

    enum CodingKeys: String, CodingKey {
        case format, schemaVersion = "schema_version", media, environment, barcode, entries, tolerances
        case updatedFrom = "updated_from"
    }

    /// Reads a manifest.
    ///
    /// - Throws: `DecodingError` when `format` is not `frameseek-landing-manifest` or a field
    ///   is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == Self.format else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container,
                debugDescription: "format is \"\(format)\", not \"\(Self.format)\"")
        }
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        media = try container.decode(ManifestMedia.self, forKey: .media)
        environment = try container.decode(ManifestEnvironment.self, forKey: .environment)
        barcode = try container.decode(Bool.self, forKey: .barcode)
        entries = try container.decode([ManifestEntry].self, forKey: .entries)
        tolerances = try container.decodeIfPresent([String].self, forKey: .tolerances) ?? []
        updatedFrom = try container.decodeIfPresent(ManifestUpdate.self, forKey: .updatedFrom)
    }

    /// Writes the manifest, `format` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(media, forKey: .media)
        try container.encode(environment, forKey: .environment)
        try container.encode(barcode, forKey: .barcode)
        try container.encode(entries, forKey: .entries)
        // Written only when used, so a manifest without them is the same bytes as before they
        // existed.
        if !tolerances.isEmpty { try container.encode(tolerances, forKey: .tolerances) }
        try container.encodeIfPresent(updatedFrom, forKey: .updatedFrom)
    }

    /// The path of the media as people see it: `media.path` resolved against the directory of
    /// the manifest at `manifestPath`, `..` removed, symbolic links kept. Whether it may be
    /// read is `ManifestRoot.checkedPath`'s to say.
    public func mediaPath(relativeTo manifestPath: String) -> String {
        ManifestRoot.lexicalPath(media.path, relativeTo: Self.folder(of: manifestPath))
    }

    /// The folder of the manifest at `manifestPath`, which its relative `media.path` starts from.
    static func folder(of manifestPath: String) -> String {
        URL(fileURLWithPath: manifestPath).deletingLastPathComponent().path
    }
}

extension Manifest {
    /// Reads the manifest at `path`.
    ///
    /// The schema version is read first, so a manifest from a newer FrameSeek is refused for
    /// what it is rather than as whatever field it changed.
    ///
    /// - Throws: `ManifestError` naming the file: `.unreadable` (missing, not a regular
    ///   file, larger than `maximumBytes`, or cannot be read),
    ///   `.newerSchema` (`schema_version` above `Manifest.schemaVersion`),
    ///   `.malformed` (not JSON, not a landing manifest, or a field missing or wrong).
    public static func load(from path: String) throws(ManifestError) -> Manifest {
        // A manifest that is a FIFO or /dev/zero (a symbolic link in a pull request can be
        // either) would block or never end, and one of many gigabytes would take them all.
        let data: Data
        do {
            data = try FileContents.read(path, limit: maximumBytes)
        } catch {
            throw ManifestError(path: path, reason: .unreadable, cause: error.description)
        }
        /// Only the fields that say which schema to read the rest with.
        struct Header: Decodable {
            let format: String?
            let schema_version: Int?
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw ManifestError(path: path, reason: .malformed, cause: "not a JSON object (\(Self.explain(error)))")
        }
        guard header.format == format else {
            throw ManifestError(
                path: path, reason: .malformed,
                cause: "not a landing manifest (\"format\" is not \"\(format)\")")
        }
        if let version = header.schema_version, version > schemaVersion {
            throw ManifestError(
                path: path, reason: .newerSchema,
                cause:
                    "schema_version \(version) is newer than this FrameSeek (\(FrameSeekVersion.current)) reads (schema_version \(schemaVersion)); upgrade FrameSeek to check it"
            )
        }
        do {
            return try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw ManifestError(path: path, reason: .malformed, cause: Self.explain(error))
        }
    }

    /// Writes the manifest to `path` atomically (`OutputFile`): pretty-printed, keys sorted,
    /// ending in a newline.
    ///
    /// - Throws: `ManifestError` (`.unwritable`) naming the file and the system's cause.
    public func write(to path: String) throws(ManifestError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text: String
        do {
            text = String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
        } catch {
            throw ManifestError(path: path, reason: .unwritable, cause: "cannot encode: \(error)")
        }
        do {
            try OutputFile.write(text, to: path)
        } catch {
            throw ManifestError(path: path, reason: .unwritable, cause: "cannot write (\(error.cause))")
        }
    }

    /// A `DecodingError` in one line: the field's path, then what was wrong.
    private static func explain(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(field(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let location = field(context.codingPath)
            return (location.isEmpty ? "" : location + ": ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

/// The media a manifest was recorded on.
public struct ManifestMedia: Sendable, Hashable, Codable {
    /// The file, relative to the manifest's directory. A check reads it only when it resolves
    /// (symbolic links included) to a regular file inside its root (`ManifestRoot`).
    public var path: String
    /// The file's size in bytes.
    public var size: Int64
    /// The SHA-256 of the file, lowercase hex: a check refuses other bytes unless asked.
    public var sha256: String
    /// The absolute index of the stream the seeks ran in, as ffprobe numbers streams.
    public var streamIndex: Int

    /// Creates a media description.
    public init(path: String, size: Int64, sha256: String, streamIndex: Int) {
        self.path = path
        self.size = size
        self.sha256 = sha256
        self.streamIndex = streamIndex
    }

    enum CodingKeys: String, CodingKey {
        case path, size, sha256, streamIndex = "stream_index"
    }
}

/// What decoded the landings: a check after an upgrade shows what changed beside what moved.
public struct ManifestEnvironment: Sendable, Hashable, Codable {
    /// The FFmpeg libraries' run-time versions by library name (`"libavcodec": "59.37.100"`).
    public var ffmpeg: [String: String]
    /// The FFmpeg decoder that decoded the stream (`h264`, `libdav1d`, ...).
    public var decoder: String
    /// The FrameSeek version (`FrameSeekVersion.current`).
    public var frameseek: String

    /// Creates an environment description.
    public init(ffmpeg: [String: String], decoder: String, frameseek: String) {
        self.ffmpeg = ffmpeg
        self.decoder = decoder
        self.frameseek = frameseek
    }
}

/// What a manifest was rebaselined from (`landing check --update`): the media and the
/// environment its entries were recorded with before.
public struct ManifestUpdate: Sendable, Hashable, Codable {
    /// The SHA-256 of the media the replaced entries were recorded on.
    public var mediaSHA256: String
    /// The FFmpeg libraries, decoder and FrameSeek that recorded them.
    public var environment: ManifestEnvironment
    /// Entries whose landing was replaced.
    public var entries: Int

    /// Creates an update record.
    public init(mediaSHA256: String, environment: ManifestEnvironment, entries: Int) {
        self.mediaSHA256 = mediaSHA256
        self.environment = environment
        self.entries = entries
    }

    enum CodingKeys: String, CodingKey {
        case mediaSHA256 = "media_sha256", environment, entries
    }
}

/// A manifest that could not be read or written. Its description is one line, `PATH: cause`,
/// as the command line prints it.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Reason: Sendable, Hashable {
        /// The file cannot be read (missing, a directory, a FIFO or device, no permission):
        /// from `FileContents`, which also refuses a file over `Manifest.maximumBytes`.
        case unreadable
        /// Not JSON, not a landing manifest, or a field missing or wrong: from `JSONDecoder`.
        case malformed
        /// Written by a newer FrameSeek, with a `schema_version` this one does not know.
        case newerSchema
        /// Cannot be written: from `OutputFile.write` (the temporary file or the rename).
        case unwritable
    }

    /// The manifest's path.
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
