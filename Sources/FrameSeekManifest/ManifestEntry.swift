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

    enum CodingKeys: String, CodingKey {
        case target, targetSeconds = "target_seconds", precision, frameIndex = "frame_index", pts, time
        case timeSeconds = "time_seconds", keyframeIndex = "keyframe_index", damaged, md5, barcode
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
    }

    /// Writes the entry; absent optionals are written as `null`, so every entry has every key.
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
