internal import CFFmpeg
import Foundation
import FrameSeekCore

/// libavutil's MD5 as lowercase hex: the form framemd5 prints.
enum MD5Digest {
    /// `av_md5_sum` of `bytes`, in lowercase hex.
    static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeBufferPointer { buffer in
            av_md5_sum(&digest, buffer.baseAddress, Int(buffer.count))
        }
        return lowercaseHex(digest)
    }
}

/// Lowercase hex of a digest, two digits a byte, as `md5sum` and `sha256sum` print it.
func lowercaseHex(_ digest: [UInt8]) -> String {
    digest.map { byte in
        let hex = String(byte, radix: 16)
        return byte < 16 ? "0" + hex : hex
    }.joined()
}

/// Digests of whole media files, computed by libavutil so that FrameSeek writes no hash of
/// its own.
public enum MediaDigest {
    /// Bytes read per `av_sha_update`: large enough that a multi-gigabyte file costs few calls,
    /// small enough that hashing never holds the file in memory.
    static let chunkBytes = 1 << 20

    /// The SHA-256 of the file at `path` in lowercase hex (what `sha256sum` prints), streamed
    /// through libavutil's `av_sha_alloc` / `av_sha_init(ctx, 256)` / `av_sha_update` /
    /// `av_sha_final` a chunk at a time.
    ///
    /// - Throws: `MediaError` naming the file: `.fileNotFound` when nothing is there,
    ///   `.readFailed` when it cannot be opened or read (and when `av_sha_alloc` returns NULL,
    ///   or `av_sha_init` fails, which only happens out of memory).
    public static func sha256(ofFileAt path: String) throws(MediaError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if !FileManager.default.fileExists(atPath: path) {
                throw MediaError(path: path, reason: .fileNotFound, cause: "no such file")
            }
            throw MediaError(path: path, reason: .readFailed, cause: "cannot open for reading")
        }
        defer { try? handle.close() }
        guard let context = av_sha_alloc() else {
            throw MediaError(path: path, reason: .readFailed, cause: "av_sha_alloc: out of memory")
        }
        // av_sha_alloc hands out memory av_malloc owns; av_free releases it.
        defer { av_free(UnsafeMutableRawPointer(context)) }
        guard av_sha_init(context, 256) == 0 else {
            throw MediaError(path: path, reason: .readFailed, cause: "av_sha_init(256) failed")
        }
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkBytes) ?? Data()
            } catch {
                throw MediaError(path: path, reason: .readFailed, cause: "cannot read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { raw in
                av_sha_update(context, raw.bindMemory(to: UInt8.self).baseAddress, chunk.count)
            }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return lowercaseHex(digest)
    }

    /// The SHA-256 of `bytes` in lowercase hex, as `sha256(ofFileAt:)` gives it for a file of
    /// those bytes; nil only when `av_sha_alloc` is out of memory.
    public static func sha256(of bytes: [UInt8]) -> String? {
        SHA256Digest.digest(of: bytes).map(lowercaseHex)
    }
}

/// libavutil's SHA-256 of bytes in memory: what keys and checks index cache files.
enum SHA256Digest {
    /// `av_sha_init(ctx, 256)` / `av_sha_update` / `av_sha_final` over `bytes`, raw; nil only
    /// when `av_sha_alloc` is out of memory.
    static func digest<Bytes: ContiguousBytes>(of bytes: Bytes) -> [UInt8]? {
        guard let context = av_sha_alloc() else { return nil }
        // av_sha_alloc hands out memory av_malloc owns; av_free releases it.
        defer { av_free(UnsafeMutableRawPointer(context)) }
        guard av_sha_init(context, 256) == 0 else { return nil }
        bytes.withUnsafeBytes { raw in
            av_sha_update(context, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest
    }
}
