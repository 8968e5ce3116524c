internal import CFFmpeg

/// AES-128-CBC decryption with PKCS7 padding, by libavutil's AES (`av_aes_*`): how an HLS
/// segment under EXT-X-KEY METHOD=AES-128 is encrypted (RFC 8216 4.3.2.4, 5.2).
enum AESDecryption {
    /// Why bytes could not be decrypted: `function` names the libavutil call that failed, or
    /// is "PKCS7" when the decrypted bytes do not end in valid padding (a wrong key or IV).
    struct Failure: Error, Sendable, CustomStringConvertible {
        let function: String
        let cause: String
        var description: String { "\(function): \(cause)" }
    }

    /// `data` decrypted under the 16-byte `key` and `iv`, its padding removed.
    ///
    /// - Throws: `Failure` when the key or IV is not 16 bytes, `data` is not whole 16-byte
    ///   blocks, `av_aes_alloc` or `av_aes_init` fails, or the padding is not PKCS7's.
    static func decrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16, iv.count == 16 else {
            throw Failure(function: "av_aes_init", cause: "a key of \(key.count) bytes and an IV of \(iv.count); AES-128 needs 16 each")
        }
        guard !data.isEmpty, data.count % 16 == 0, let blocks = Int32(exactly: data.count / 16) else {
            throw Failure(function: "av_aes_crypt", cause: "\(data.count) bytes are not whole 16-byte blocks")
        }
        guard let context = av_aes_alloc() else { throw Failure(function: "av_aes_alloc", cause: "out of memory") }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        let status = key.withUnsafeBufferPointer { av_aes_init(context, $0.baseAddress, 128, 1) }
        guard status == 0 else { throw Failure(function: "av_aes_init", cause: "status \(status)") }
        var chain = iv
        var plain = [UInt8](repeating: 0, count: data.count)
        plain.withUnsafeMutableBufferPointer { output in
            data.withUnsafeBufferPointer { input in
                av_aes_crypt(context, output.baseAddress, input.baseAddress, blocks, &chain, 1)
            }
        }
        // PKCS7: the last byte says how many bytes of padding, each of that value.
        guard let padding = plain.last, (1...16).contains(padding),
            plain.suffix(Int(padding)).allSatisfy({ $0 == padding })
        else {
            throw Failure(function: "PKCS7", cause: "the decrypted segment does not end in PKCS7 padding: wrong key or IV")
        }
        plain.removeLast(Int(padding))
        return plain
    }
}
