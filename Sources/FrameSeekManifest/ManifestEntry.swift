import FrameSeekCore

/// One seek of a landing manifest: what was asked (target and precision) and where it landed
/// (frame, time, pixels). `ManifestRecorder` writes entries; `ManifestCheck` replays them and
/// compares what lands now with the entry.
///
/// In JSON, times are exact rationals (`"target": "45/10"`) read back exactly; the
/// `target_seconds` and `time_seconds` beside them are for people and are never read.
public struct ManifestEntry: Sendable, Hashable, Codable {
    /// The requested time on the zero-based timeline.
    public var target: MediaTime
    /// The precision of the seek, stored as the command line spells it (`exact`,
    /// `previous-keyframe`, `tolerance:0.5,0.5`).
    public var precision: SeekPrecision
    /// The landed frame's index in presentation order.
    public var frameIndex: Int
    /// The landed frame's raw PTS, in the stream's time base.
    public var pts: Int64
    /// The landed frame's time on the zero-based timeline.
    public var time: MediaTime
    /// The keyframe decoding started from, nil when that keyframe is no frame of its own (a
    /// packet an edit list discards) or nothing was decoded.
    public var keyframeIndex: Int?
    /// Whether the landing may differ from a clean decode (`SeekLanding.damaged`): its MD5 is
    /// then no reference for anyone's pixels.
    public var damaged: Bool
    /// The MD5 of the landed frame as `ffmpeg -f framemd5` prints it: the native planes of a
    /// video frame (`DecodedPicture.md5`), the 16-bit samples of an audio frame
    /// (`DecodedAudio.md5`).
    public var md5: String
    /// The frame number read from the picture's barcode band (`FrameBarcode`), when the
    /// manifest was recorded with barcodes and the picture carries one.
    public var barcode: Int?
    /// The landed picture kept beside the manifest (`landing record --pictures`): what a check
    /// with a tolerance compares another encode's landing with. Nil for audio and for
    /// manifests recorded without pictures.
    public var picture: ManifestPicture?
    /// Set when the landing is known to have moved (`"moved"`): a check reports the entry as an
    /// expected failure, and fails it when it lands as recorded after all.
    public var expectedOutcome: ManifestExpectedOutcome?
    /// Why the entry is expected to fail, for the report.
    public var reason: String?

    /// Creates an entry.
    public init(
        target: MediaTime, precision: SeekPrecision, frameIndex: Int, pts: Int64, time: MediaTime,
        keyframeIndex: Int?, damaged: Bool, md5: String, barcode: Int?
    ) {
        self.target = target
        self.precision = precision
        self.frameIndex = frameIndex
        self.pts = pts
        self.time = time
        self.keyframeIndex = keyframeIndex
        self.damaged = damaged
        self.md5 = md5
        self.barcode = barcode
    }

    /// The entry with `other`'s landing (frame, PTS, time, keyframe, damage, MD5, barcode):
    /// what a rebaseline keeps of a replay. The target, precision, picture and expected outcome
    /// stay this entry's.
    public func relanded(as other: ManifestEntry) -> ManifestEntry {
        var entry = other
        entry.target = target
        entry.precision = precision
        entry.picture = picture
        entry.expectedOutcome = expectedOutcome
        entry.reason = reason
        return entry
    }

    enum CodingKeys: String, CodingKey {
        case target, targetSeconds = "target_seconds", precision, frameIndex = "frame_index", pts, time
        case timeSeconds = "time_seconds", keyframeIndex = "keyframe_index", damaged, md5, barcode
        case picture, expectedOutcome = "expected", reason
    }

    /// Reads an entry; the `_seconds` fields are ignored, the rationals are the values.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the field when a time or the precision
    ///   does not parse.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        target = try Self.time(container, .target)
        let spelled = try container.decode(String.self, forKey: .precision)
        do {
            precision = try SeekPrecision(parsing: spelled)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .precision, in: container, debugDescription: error.description)
        }
        frameIndex = try container.decode(Int.self, forKey: .frameIndex)
        pts = try container.decode(Int64.self, forKey: .pts)
        time = try Self.time(container, .time)
        keyframeIndex = try container.decodeIfPresent(Int.self, forKey: .keyframeIndex)
        damaged = try container.decode(Bool.self, forKey: .damaged)
        md5 = try container.decode(String.self, forKey: .md5)
        barcode = try container.decodeIfPresent(Int.self, forKey: .barcode)
        picture = try container.decodeIfPresent(ManifestPicture.self, forKey: .picture)
        expectedOutcome = try container.decodeIfPresent(ManifestExpectedOutcome.self, forKey: .expectedOutcome)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        if let reason, let problem = Self.reasonProblem(reason) {
            throw DecodingError.dataCorruptedError(forKey: .reason, in: container, debugDescription: problem)
        }
    }

    /// The longest `reason` a manifest may give.
    public static let maximumReasonLength = 1_000

    /// Why `reason` cannot be printed as it is, nil when it can: it reaches terminals, CI
    /// logs (where a line starting `::` is a workflow command) and JUnit, so it is one line of
    /// printable text.
    static func reasonProblem(_ reason: String) -> String? {
        guard reason.unicodeScalars.count <= maximumReasonLength else {
            return "longer than \(maximumReasonLength) characters"
        }
        let printable = reason.unicodeScalars.allSatisfy { scalar in
            !(scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator)
        }
        return printable ? nil : "holds a control, format or line-separator character: a reason is one line of text"
    }

    /// Writes the entry; absent optionals are written as `null`, so every entry has every key,
    /// except the picture and the expected outcome, which only entries that have them carry.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target.rationalText, forKey: .target)
        try container.encode(target.seconds, forKey: .targetSeconds)
        try container.encode(precision.description, forKey: .precision)
        try container.encode(frameIndex, forKey: .frameIndex)
        try container.encode(pts, forKey: .pts)
        try container.encode(time.rationalText, forKey: .time)
        try container.encode(time.seconds, forKey: .timeSeconds)
        try container.encode(keyframeIndex, forKey: .keyframeIndex)
        try container.encode(damaged, forKey: .damaged)
        try container.encode(md5, forKey: .md5)
        try container.encode(barcode, forKey: .barcode)
        try container.encodeIfPresent(picture, forKey: .picture)
        try container.encodeIfPresent(expectedOutcome, forKey: .expectedOutcome)
        try container.encodeIfPresent(reason, forKey: .reason)
    }

    /// A rational time field, parsed exactly.
    private static func time(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> MediaTime {
        let text = try container.decode(String.self, forKey: key)
        do {
            return try MediaTime(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
        }
    }
}

/// A reference picture of an entry: a PNG beside the manifest, named by the entry.
public struct ManifestPicture: Sendable, Hashable, Codable {
    /// The PNG, relative to the manifest's folder. A check reads it only when it resolves
    /// inside its root and is a regular file (`ManifestRoot`), as the media.
    public var path: String
    /// The SHA-256 of the PNG file, lowercase hex: a check refuses a picture that differs.
    public var sha256: String

    /// Creates a picture reference.
    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }
}

/// What a check should find for an entry other than its recorded landing.
public enum ManifestExpectedOutcome: String, Sendable, Hashable, Codable {
    /// The landing is known to move: its failure is expected.
    case moved
}
