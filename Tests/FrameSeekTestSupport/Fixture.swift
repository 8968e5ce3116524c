// The fixture manifest, Fixtures/fixtures.json: which (file, stream) pairs the tests run on
// and where their oracles are.

import Foundation
import Testing

/// One entry of `Fixtures/fixtures.json`: a (file, stream) pair and where its oracles are.
public struct Fixture: Sendable, Hashable, CustomTestStringConvertible {
    public let id: String
    public let name: String
    /// Relative to Fixtures/.
    public let file: String
    public let stream: Int
    public let isVideo: Bool
    public let hasBarcode: Bool
    public let barcodeOffset: Int
    public let probe: String
    public let frames: String
    public let framemd5: String?

    /// The media file's absolute path.
    public var path: String { Repository.fixture(file) }
    public var testDescription: String { id }
}

public enum FixtureCatalog {
    /// Every manifest entry; empty if the manifest cannot be read (a test checks it is not).
    public static let all: [Fixture] = (try? load()) ?? []
    public static var video: [Fixture] { all.filter(\.isVideo) }
    public static var audio: [Fixture] { all.filter { !$0.isVideo } }
    public static var barcoded: [Fixture] { all.filter(\.hasBarcode) }

    public static func fixture(_ id: String) -> Fixture? { all.first { $0.id == id } }

    public static func load() throws -> [Fixture] {
        let data = try Repository.stableContents(of: Repository.fixture("fixtures.json"))
        guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return entries.compactMap { entry in
            guard let id = entry["id"] as? String, let file = entry["file"] as? String,
                let oracle = entry["oracle"] as? [String: Any],
                let probe = oracle["probe"] as? String, let frames = oracle["frames"] as? String
            else { return nil }
            return Fixture(
                id: id, name: entry["name"] as? String ?? id, file: file,
                stream: JSON.int(entry["stream"]) ?? 0,
                isVideo: entry["media_type"] as? String == "video",
                hasBarcode: entry["barcode"] as? Bool ?? false,
                barcodeOffset: JSON.int(entry["barcode_offset"]) ?? 0,
                probe: probe, frames: frames, framemd5: oracle["framemd5"] as? String)
        }
    }
}
