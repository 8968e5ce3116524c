import Foundation
import FrameSeekCore

extension IndexCache {
    /// What the stream an entry is opened for says of itself: what an entry's table must agree
    /// with before it is used.
    ///
    /// An entry's checksum only proves that its bytes are the ones written under its key, and
    /// anyone who can write the cache folder can write both. So the table is checked against
    /// the open stream, as FFmpeg reports it, in everything a table cannot be right without:
    /// the stream it indexes (so no index out of range ever reaches `Demuxer.stream(_:)`), its
    /// media type and codec, its time base and origin, and a frame count no larger than the
    /// container's own count where it states one.
    struct StreamFacts: Sendable, Hashable {
        /// The stream's index in the container.
        let index: Int
        /// `AVMediaType`, as its raw value.
        let mediaType: Int64
        /// `AVCodecID`, as its raw value.
        let codecID: Int64
        let timeBase: TimeBase
        /// The PTS of time zero (`FFmpegEngine`'s origin for the stream).
        let originPTS: Int64
        /// The most frames a table of the stream can hold, where the container says: its
        /// `nb_frames` and, for an MP4 that is not fragmented, the entries of its index (its
        /// samples). nil where neither is stated (Matroska, MPEG-TS, fragmented MP4), and for a
        /// table from decoding, whose frames need not be one a packet.
        let frameCountLimit: Int?

        /// The facts of `demuxer`'s stream `streamIndex`, which must be in range.
        init(demuxer: Demuxer, streamIndex: Int, originPTS: Int64) {
            let stream = demuxer.stream(streamIndex)
            index = streamIndex
            mediaType = stream.mediaTypeNumber
            codecID = stream.codecID.rawValue
            timeBase = stream.timeBase
            self.originPTS = originPTS
            // A fragmented MP4's `moov` states no samples, and its index holds only the fragments
            // read so far: it bounds nothing.
            let indexBounds = demuxer.formatName.hasPrefix("mov") && stream.frameCount > 0
            let stated = max(stream.frameCount, indexBounds ? demuxer.indexEntryCount(of: streamIndex) : 0)
            frameCountLimit = stated > 0 ? stated : nil
        }

        /// Facts given whole, for entries written and read without a demuxer (tests).
        init(index: Int, mediaType: Int64, codecID: Int64, timeBase: TimeBase, originPTS: Int64, frameCountLimit: Int?) {
            self.index = index
            self.mediaType = mediaType
            self.codecID = codecID
            self.timeBase = timeBase
            self.originPTS = originPTS
            self.frameCountLimit = frameCountLimit
        }

        /// Why `entry` cannot be this stream's table, nil when it agrees with it in
        /// everything checked.
        func mismatch(of entry: IndexCacheFile.Entry) -> String? {
            let table = entry.result.table
            if table.streamIndex != index { return "it indexes stream \(table.streamIndex), not stream \(index)" }
            if entry.mediaType != mediaType || entry.codecID != codecID {
                return "it indexes another codec (media type \(entry.mediaType), codec \(entry.codecID)) than stream \(index)'s"
            }
            if table.timeBase != timeBase {
                return "its time base \(table.timeBase) is not stream \(index)'s \(timeBase)"
            }
            if table.originPTS != originPTS { return "its origin PTS \(table.originPTS) is not stream \(index)'s \(originPTS)" }
            if let frameCountLimit, table.source != .decodeScan, table.frames.count > frameCountLimit {
                return "it lists \(table.frames.count) frames, more than the \(frameCountLimit) the container states"
            }
            return nil
        }
    }
}
