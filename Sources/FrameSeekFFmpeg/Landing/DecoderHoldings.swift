/// What one decoder of the pool and its demuxer hold in memory, as the pool's bound counts it.
///
/// FFmpeg's decoders take their pictures from buffer pools that keep every buffer they have
/// handed out and never shrink; only closing the decoder frees them (a flush does not). A
/// frame the cache holds is one of those buffers, lent out, and once the cache drops it, it
/// goes back to this decoder's pool and stays there. So a decoder that refilled the cache for
/// backward steps ends up holding about a whole cache's worth of pictures when the cache moves
/// on, however few its level lets it use. The count here follows that: the buffers its pools
/// can have allocated are its own pictures plus the most it ever had lent at once, all of
/// them counted, lent or not, since those lent come back to it.
final class DecoderHoldings {
    /// The most pictures the decoder uses itself (`Decoder.heldPictureCount`).
    let ownPictures: Int
    /// Frames of this decoder the frame cache holds now.
    private(set) var lentToCache = 0
    /// The most buffers the decoder's pools can have allocated so far.
    private(set) var pooledBuffers: Int
    /// The largest picture the decoder has made, in bytes, or the header's size before any:
    /// a stream may change its picture size past its header (an MPEG-TS of small GOPs, then
    /// 4K ones).
    private(set) var pictureBytes: Int
    /// The memory the demuxer's index holds (`Demuxer.indexBytes`).
    private(set) var indexBytes: Int

    init(decoder: Decoder, demuxer: Demuxer) {
        ownPictures = decoder.heldPictureCount
        pooledBuffers = ownPictures
        pictureBytes = decoder.currentPictureBytes
        indexBytes = demuxer.indexBytes
    }

    /// The bytes the decoder and its demuxer hold: every buffer of its pools, at the largest
    /// picture size, and the index.
    var heldBytes: Int { pooledBuffers * pictureBytes + indexBytes }

    /// One more of the decoder's frames is in the cache.
    func lend() {
        lentToCache += 1
        if ownPictures + lentToCache > pooledBuffers { pooledBuffers = ownPictures + lentToCache }
    }

    /// The cache dropped one of the decoder's frames: its buffer is back in the decoder's pool.
    func giveBack() { lentToCache -= 1 }

    /// The decoder made a picture of `bytes`.
    func notePicture(bytes: Int) {
        if bytes > pictureBytes { pictureBytes = bytes }
    }

    /// Reads again what may have grown while the decoder decoded: the size the stream set it
    /// to, and the index, to which some demuxers add the keyframes they read.
    func update(decoder: Decoder, demuxer: Demuxer) {
        notePicture(bytes: decoder.currentPictureBytes)
        indexBytes = demuxer.indexBytes
    }
}
