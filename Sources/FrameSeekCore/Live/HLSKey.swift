import Foundation

/// EXT-X-KEY (RFC 8216 4.3.2.4): how the segments after it are encrypted, until the next key.
///
/// METHOD=NONE is no key (`HLSSegment.key` is nil).
public struct HLSKey: Sendable, Hashable {
    /// METHOD.
    public enum Method: Sendable, Hashable {
        /// The whole segment is AES-128-CBC with PKCS7 padding, under a 16-byte key at `uri`.
        case aes128
        /// Samples are encrypted inside the segment (SAMPLE-AES, SAMPLE-AES-CTR): DRM, which
        /// FrameSeek does not decrypt.
        case sampleEncryption(String)
    }

    /// METHOD.
    public let method: Method
    /// The key's URI, resolved against the playlist's URL.
    public let uri: URL
    /// IV: 16 bytes; nil when the tag has none, and the segment's Media Sequence Number,
    /// big-endian in 16 bytes, is the IV (RFC 8216 5.2).
    public let iv: [UInt8]?
    /// KEYFORMAT; "identity" (the default) is a key a client can fetch and use as it is.
    public let keyFormat: String

    /// A key with every property stated; the parser fills these in.
    public init(method: Method, uri: URL, iv: [UInt8]?, keyFormat: String = "identity") {
        self.method = method
        self.uri = uri
        self.iv = iv
        self.keyFormat = keyFormat
    }

    /// The IV of segment `mediaSequence` under this key: the tag's own, else the number
    /// big-endian in 16 bytes (RFC 8216 5.2).
    public func iv(forMediaSequence mediaSequence: Int) -> [UInt8] {
        if let iv { return iv }
        let number = UInt64(truncatingIfNeeded: mediaSequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> ($0 * 8)) }
    }

    /// Why the segment cannot be decrypted here, nil when it can: an AES-128 key in the
    /// identity format.
    public var unsupportedReason: String? {
        switch method {
        case .sampleEncryption(let name):
            return "EXT-X-KEY METHOD=\(name) encrypts samples (DRM), which FrameSeek does not decrypt"
        case .aes128:
            return keyFormat == "identity"
                ? nil : "EXT-X-KEY KEYFORMAT=\"\(keyFormat)\" is not a key FrameSeek can fetch and use (identity)"
        }
    }

    /// The 16 bytes of an IV written as `0x` and up to 32 hexadecimal digits; nil for other text.
    static func parseIV(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        let digits = Array(text.dropFirst(2))
        guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy(\.isHexDigit) else { return nil }
        let padded = [Character](repeating: "0", count: 32 - digits.count) + digits
        return stride(from: 0, to: 32, by: 2).map { UInt8(String(padded[$0..<($0 + 2)]), radix: 16) ?? 0 }
    }
}
