import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// The sequence the index cache fuzz target runs on every input: the bytes as the cache entry
/// of a small Matroska file, opened twice through `FFmpegEngine(path:)` with that cache:
/// - as they are, the whole entry file (magic, version, key, length, checksum, payload);
/// - as the payload of an entry whose header is the real one, checksum included, so the
///   SHA-256 that guards against damage lets every input through to the payload decoder and
///   then to the engine, as a crafted entry would be.
///
/// - and wrapped so again once its stream index (the payload's bytes 1..<9, after the source
///   byte) is the file's own, so the fuzzer also explores the tables past a wrong index.
///
/// Each way the engine must read the entry or reject it with a reason, and then seek and
/// step on whatever table it kept without a trap.
package enum IndexCacheExercise {
    /// The engine outcomes for one input, as text.
    package struct Summary: Sendable, CustomStringConvertible {
        /// What the cache did with the input as the whole entry file.
        package var asEntry: String
        /// What it did with the input as the payload of an entry with a valid header.
        package var asPayload: String
        /// Whether the payload was read (and so trusted) rather than rejected.
        package var payloadRead: Bool
        /// What it did with the payload once its stream index was the file's, nil when the
        /// input is too short to hold one.
        package var asPayloadOfTheStream: String?

        package var description: String {
            "as entry: \(asEntry); as payload: \(asPayload)" + (asPayloadOfTheStream.map { "; as the stream's payload: \($0)" } ?? "")
        }
    }

    /// The media, its cache, and what the engine wrote there for it: where the entry lives,
    /// its header up to the payload's length (magic, version, key), and its payload.
    private struct Setup: Sendable {
        let media: String
        let cache: IndexCache
        let entryPath: String
        let header: [UInt8]
        let payload: [UInt8]
        let scratch: String
    }

    private static let setup: Setup? = {
        let folder = FuzzScratch.folder("index-cache")
        let media = folder + "/media.mkv"
        try? FileManager.default.removeItem(atPath: media)
        guard (try? FileManager.default.copyItem(atPath: FuzzScratch.media("tiny-h264.mkv"), toPath: media)) != nil else { return nil }
        let cache = IndexCache(directory: folder + "/cache")
        guard let engine = try? FFmpegEngine(path: media, options: options(cache)),
            case let .written(entryPath) = engine.indexCacheOutcome,
            let entry = FileManager.default.contents(atPath: entryPath).map(Array.init),
            let (header, payload) = split(entry)
        else { return nil }
        return Setup(media: media, cache: cache, entryPath: entryPath, header: header, payload: payload, scratch: folder)
    }()

    /// The payload of the entry the engine wrote for the small file: a real one, for the seed
    /// corpus and for the test that checks the wrapping reaches the decoder.
    package static var writtenPayload: [UInt8]? { setup?.payload }

    @discardableResult
    package static func run(_ bytes: [UInt8]) -> Summary {
        FuzzScratch.oneAtATime { runAlone(bytes) }
    }

    private static func runAlone(_ bytes: [UInt8]) -> Summary {
        guard let setup else {
            return Summary(asEntry: "no setup: the small file's entry was not written", asPayload: "-", payloadRead: false)
        }
        FuzzScratch.write(bytes, to: setup.entryPath)
        let asEntry = open(setup)
        let asPayload = openWrapped(bytes, setup)
        var summary = Summary(asEntry: asEntry.text, asPayload: asPayload.text, payloadRead: asPayload.read)
        let streamIndex = 1..<9
        if bytes.count >= streamIndex.upperBound, setup.payload.count >= streamIndex.upperBound,
            bytes[streamIndex] != setup.payload[streamIndex]
        {
            var ofTheStream = bytes
            ofTheStream.replaceSubrange(streamIndex, with: setup.payload[streamIndex])
            summary.asPayloadOfTheStream = openWrapped(ofTheStream, setup).text
        }
        return summary
    }

    /// Opens the media with `payload` as its entry's, behind the real header and a valid checksum.
    private static func openWrapped(_ payload: [UInt8], _ setup: Setup) -> (text: String, read: Bool) {
        var wrapped = setup.header
        withUnsafeBytes(of: Int64(payload.count).littleEndian) { wrapped += $0 }
        wrapped += sha256(payload, scratch: setup.scratch)
        wrapped += payload
        FuzzScratch.write(wrapped, to: setup.entryPath)
        return open(setup)
    }

    /// Opens the media with the cache, then seeks and steps on the table it got.
    private static func open(_ setup: Setup) -> (text: String, read: Bool) {
        let engine: FFmpegEngine
        do {
            engine = try FFmpegEngine(path: setup.media, options: options(setup.cache))
        } catch {
            return ("open failed: \(error)", false)
        }
        let frames = engine.frameTable.frames
        for target in MediaExercise.seekTargets(in: engine.frameTable).prefix(3) {
            _ = try? engine.seek(to: target, precision: .exact)
        }
        _ = engine.step(.backward, count: 2)
        switch engine.indexCacheOutcome {
        case .read: return ("read, \(frames.count) frames", true)
        case let .rejected(_, reason, _): return ("rejected: \(reason)", false)
        case let outcome: return ("\(outcome.map { "\($0)" } ?? "no outcome")", false)
        }
    }

    private static func options(_ cache: IndexCache) -> FFmpegEngine.Options {
        var options = MediaExercise.options
        options.indexCache = cache
        return options
    }

    /// An entry's bytes up to its payload's length field, and its payload; nil when it is too
    /// short to hold the header `IndexCacheFile` writes: "FSIDX", a UInt32 version, the key
    /// (an Int64 length and its UTF-8), the payload's Int64 length and its 32-byte SHA-256.
    private static func split(_ entry: [UInt8]) -> (header: [UInt8], payload: [UInt8])? {
        let keyLengthAt = 5 + 4
        guard entry.count >= keyLengthAt + 8 else { return nil }
        let keyLength = entry[keyLengthAt..<(keyLengthAt + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
        let (headerEnd, overflow) = (keyLengthAt + 8).addingReportingOverflow(keyLength)
        guard !overflow, keyLength >= 0, headerEnd + 8 + 32 <= entry.count else { return nil }
        return (Array(entry[..<headerEnd]), Array(entry[(headerEnd + 8 + 32)...]))
    }

    /// The SHA-256 of `bytes`, through the library's own file digest (the one public way to
    /// libavutil's SHA-256).
    private static func sha256(_ bytes: [UInt8], scratch: String) -> [UInt8] {
        let path = scratch + "/payload"
        FuzzScratch.write(bytes, to: path)
        guard let hex = try? MediaDigest.sha256(ofFileAt: path) else { return [UInt8](repeating: 0, count: 32) }
        var digest: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            digest.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return digest
    }
}
