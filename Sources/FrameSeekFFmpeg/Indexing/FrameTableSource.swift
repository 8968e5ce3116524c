import FrameSeekCore

/// One way to get the selected stream's frame table: from an index cache entry, from an MP4's
/// sample table or the packets its index lists, from a scan of the packets, from a decode.
///
/// The open asks its sources in order (`FrameTableChoice`) and takes the first table one
/// builds; a source that does not apply declines, and the next answers. Another way to index
/// media is one more conforming type, placed in the order where it should answer.
protocol FrameTableSource {
    /// Whether the source reads the stream's packets from the first one: a demuxer an earlier
    /// source moved is reopened for it. A source answering from the container's index or from
    /// a cache reads no packet through it, and takes the demuxer as it stands.
    var readsPacketsFromStart: Bool { get }
    /// Whether it answers from the container's index alone: once a source found that packets
    /// the index lists cannot be read, the media ends before its index says, and only a scan
    /// can tell where.
    var answersFromIndexAlone: Bool { get }

    /// The table `builder` (the stream, and the demuxer to read it through) gives this way, or
    /// why another source must answer.
    func table(using builder: FrameTableBuilder) throws(MediaError) -> FrameTableBuilder.TableOutcome
}

extension FrameTableSource {
    var readsPacketsFromStart: Bool { true }
    var answersFromIndexAlone: Bool { false }
}

/// The sources an open asks, in order, and the decode of the stream that answers when they
/// all decline: there the decoder decides which frames exist.
struct FrameTableChoice {
    /// The stream, and the demuxer at its first packet.
    let builder: FrameTableBuilder
    let sources: [any FrameTableSource]
    /// Makes the decoder of a decode scan.
    let makeDecoder: () throws(FFmpegError) -> Decoder

    /// The first table a source builds.
    func build() throws(MediaError) -> FrameTableBuilder.Result {
        var builder = builder
        var moved = false
        var indexUnreadable = false
        // What demuxers other than the opening one read: sources that read through their own,
        // and the demuxers reopened here. The open paid for all of it.
        var declinedReads = MediaReads.none
        var reopened: [Demuxer] = []
        func separateReads() -> MediaReads { reopened.reduce(declinedReads) { $0 + $1.reads } }
        for source in sources where !(indexUnreadable && source.answersFromIndexAlone) {
            if moved, source.readsPacketsFromStart {
                builder = try builder.reopened(probingStreams: false)
                reopened.append(builder.demuxer)
                moved = false
            }
            switch try source.table(using: builder) {
            case .built(let result): return result.adding(separateReads: separateReads())
            case .declined(let movedDemuxer, let reads):
                moved = moved || movedDemuxer
                declinedReads = declinedReads + (reads ?? .none)
            case .unreadable:
                moved = true
                indexUnreadable = true
            }
        }
        // A decode reads every packet from the very start of the file, streams probed again.
        if moved {
            builder = try builder.reopened(probingStreams: true)
            reopened.append(builder.demuxer)
        }
        return try builder.tableFromDecoding(makeDecoder).adding(separateReads: separateReads())
    }
}

/// A table kept between opens of a local file (`IndexCache`), read before the open asks any
/// other source; declined when there is no entry or the entry is rejected.
struct IndexCacheSource: FrameTableSource {
    /// What reading the entry gave: nil without an entry.
    let cached: Result<FrameTableBuilder.Result, IndexCacheRejection>?

    var readsPacketsFromStart: Bool { false }

    func table(using builder: FrameTableBuilder) -> FrameTableBuilder.TableOutcome {
        if case .success(let table) = cached { return .built(table) }
        return .declined(movedDemuxer: false)
    }
}

/// An MP4's table from its sample table's boxes (`FrameTableBuilder.buildFromSampleTable`).
struct MP4SampleTableSource: FrameTableSource {
    var answersFromIndexAlone: Bool { true }

    func table(using builder: FrameTableBuilder) throws(MediaError) -> FrameTableBuilder.TableOutcome {
        try builder.buildFromSampleTable()
    }
}

/// A fragmented MP4's table from its `moof` boxes, its samples skipped
/// (`FrameTableBuilder.buildFromFragments`).
struct FragmentedMP4Source: FrameTableSource {
    var readsPacketsFromStart: Bool { false }
    var answersFromIndexAlone: Bool { true }

    func table(using builder: FrameTableBuilder) throws(MediaError) -> FrameTableBuilder.TableOutcome {
        try builder.buildFromFragments()
    }
}

/// An MP4's table from the packets its index lists, read through a demuxer of its own with
/// their payloads skipped (`FrameTableBuilder.buildFromContainerIndex`).
struct ContainerIndexSource: FrameTableSource {
    var readsPacketsFromStart: Bool { false }
    var answersFromIndexAlone: Bool { true }

    func table(using builder: FrameTableBuilder) throws(MediaError) -> FrameTableBuilder.TableOutcome {
        try builder.buildFromContainerIndex()
    }
}

/// Audio whose codec makes one frame of each packet, from its packets and libavcodec's
/// trimming rule (`FrameTableBuilder.audioTableFromPackets`).
struct AudioPacketTableSource: FrameTableSource {
    /// Makes the decoder that checks the rule on the first packets.
    let makeDecoder: () throws(FFmpegError) -> Decoder

    func table(using builder: FrameTableBuilder) throws(MediaError) -> FrameTableBuilder.TableOutcome {
        try builder.audioTableFromPackets(decodeWith: makeDecoder)
    }
}

/// Video from a scan of every packet, without decoding (`FrameTableBuilder.tableFromScan`);
/// declined when a packet carries no PTS: only the decoder knows the frames then.
struct PacketScanSource: FrameTableSource {
    func table(using builder: FrameTableBuilder) throws(MediaError) -> FrameTableBuilder.TableOutcome {
        try builder.tableFromScan()
    }
}
