/// The frames of a `FrameTable`, in presentation order, at 16 bytes a frame (24 where packet
/// positions are kept).
///
/// A two-hour film has some 200,000 frames, and a `FrameEntry` with its `MediaTime`s is over
/// 100 bytes: the table would outweigh everything else an open holds. So a frame is kept as
/// the raw numbers it comes from (PTS, duration in ticks, decode order, keyframe flag, and the
/// packet position where the table keeps one), and the `FrameEntry` with its exact times is made when it is read: its time
/// is `timeBase.time(ofTicks: pts - originPTS)`, its end the next frame's time (or its own
/// end, before missing data and for the last frame).
///
/// An audio stream's frames usually follow one another at one duration, each a keyframe in
/// decode order: those are kept as runs (`FrameRuns`), with only the packet position stored
/// per frame, so a three-hour MP3's 400,000 frames take 3 MB. Frames whose times do not
/// follow from their PTS (tables whose times a playlist places, test tables) are kept whole
/// instead, so every table reads back exactly the entries it was made from.
public struct FrameList: RandomAccessCollection, Sendable {
    /// One frame as stored: 8 + 4 + 4 bytes, a stride of 16. Frames whose numbers do not fit
    /// (a duration past 32 bits, a decode order past 31) are kept whole instead. The packet's
    /// position is not here: only audio landings use it (to tell FFmpeg's generic index where
    /// a frame lies), so a video table, which a two-hour film makes 200,000 frames long, does
    /// not pay 8 bytes a frame for it (`PackedPositions`).
    package struct Packed: Sendable {
        let pts: Int64
        private let duration: Int32
        /// The decode order in the low 31 bits, the keyframe flag in the top one.
        private let orderAndKeyframe: UInt32

        /// The frame, nil when its duration does not fit 32 bits or its decode order 31.
        package init?(pts: Int64, durationTicks: Int64, decodeOrder: Int, isKeyframe: Bool) {
            guard let duration = Int32(exactly: durationTicks), decodeOrder >= 0, decodeOrder <= Int(Int32.max) else { return nil }
            self.pts = pts
            self.duration = duration
            orderAndKeyframe = UInt32(decodeOrder) | (isKeyframe ? 0x8000_0000 : 0)
        }

        var durationTicks: Int64 { Int64(duration) }
        var decodeOrder: Int { Int(orderAndKeyframe & 0x7FFF_FFFF) }
        var isKeyframe: Bool { orderAndKeyframe & 0x8000_0000 != 0 }
    }

    /// Packet positions beside packed frames, one per frame (-1 where unknown); nil when the
    /// table keeps none or knows none.
    typealias PackedPositions = [Int64]?

    private enum Storage: Sendable {
        case runs(FrameRuns)
        case packed([Packed])
        case whole([FrameEntry])
    }

    private var storage: Storage
    /// The packed frames' positions, beside the storage rather than in its `.packed` case: a
    /// second array there let Swift keep the enum's tag in the first array's spare pointer
    /// bits, which LeakSanitizer then could not follow (it reported the frames as leaked).
    private let positions: PackedPositions
    private let timeBase: TimeBase
    private let originPTS: Int64
    /// Frames that cover only their own duration: those followed by missing data.
    private let endingAtOwnDuration: Set<Int>

    /// The first index: 0.
    public var startIndex: Int { 0 }

    /// One past the last index: the number of frames.
    public var endIndex: Int {
        switch storage {
        case .runs(let runs): runs.count
        case .packed(let packed): packed.count
        case .whole(let whole): whole.count
        }
    }

    /// The frame at `index`, with its exact times.
    public subscript(index: Int) -> FrameEntry {
        switch storage {
        case .whole(let whole):
            return whole[index]
        case .runs(let runs):
            let frame = runs[index]
            var entry = FrameEntry(
                index: index, pts: frame.pts, time: timeBase.time(ofTicks: frame.pts &- originPTS),
                durationTicks: frame.durationTicks, duration: timeBase.time(ofTicks: frame.durationTicks),
                isKeyframe: true, decodeOrder: frame.decodeOrder, packetPosition: frame.position)
            if index + 1 < runs.count, !endingAtOwnDuration.contains(index) {
                entry.end = timeBase.time(ofTicks: runs[index + 1].pts &- originPTS)
            }
            return entry
        case .packed(let packed):
            let frame = packed[index]
            let time = timeBase.time(ofTicks: frame.pts &- originPTS)
            let duration = timeBase.time(ofTicks: frame.durationTicks)
            let position = positions.flatMap { $0[index] < 0 ? nil : $0[index] }
            var entry = FrameEntry(
                index: index, pts: frame.pts, time: time, durationTicks: frame.durationTicks,
                duration: duration, isKeyframe: frame.isKeyframe,
                decodeOrder: frame.decodeOrder, packetPosition: position)
            if index + 1 < packed.count, !endingAtOwnDuration.contains(index) {
                entry.end = timeBase.time(ofTicks: packed[index + 1].pts &- originPTS)
            }
            return entry
        }
    }

    /// The frames `entries`, each of which covers up to the next one's time except those in
    /// `endingAtOwnDuration` and the last; packed when every entry's times follow from its PTS
    /// and duration in `timeBase` from `originPTS`, as a scanned table's do.
    package init(_ entries: [FrameEntry], timeBase: TimeBase, originPTS: Int64, endingAtOwnDuration: Set<Int>) {
        self.timeBase = timeBase
        self.originPTS = originPTS
        self.endingAtOwnDuration = endingAtOwnDuration
        var packed: [Packed] = []
        packed.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() {
            guard entry.index == i, entry.time == timeBase.time(ofTicks: entry.pts &- originPTS),
                entry.duration == timeBase.time(ofTicks: entry.durationTicks),
                let frame = Packed(
                    pts: entry.pts, durationTicks: entry.durationTicks,
                    decodeOrder: entry.decodeOrder, isKeyframe: entry.isKeyframe)
            else {
                storage = .whole(Self.covering(entries, endingAtOwnDuration: endingAtOwnDuration))
                positions = nil
                return
            }
            packed.append(frame)
        }
        storage = .packed(packed)
        positions = entries.contains { $0.packetPosition != nil } ? entries.map { $0.packetPosition ?? -1 } : nil
    }

    /// `count` frames packed as they are read, without making their entries first: what a
    /// scan of a long file builds, so that its table never exists at 100 bytes a frame. Frame
    /// `i`'s time is `timeBase.time(ofTicks: pts - originPTS)`; `frame(i)` gives its numbers.
    /// Packet positions are kept only when `keepingPacketPositions` (see `Builder`).
    package init(
        count: Int, timeBase: TimeBase, originPTS: Int64, endingAtOwnDuration: Set<Int>, keepingPacketPositions: Bool = true,
        frame: (Int) -> (pts: Int64, durationTicks: Int64, isKeyframe: Bool, decodeOrder: Int, position: Int64?)
    ) {
        var builder = Builder(timeBase: timeBase, originPTS: originPTS, capacity: count, keepingPacketPositions: keepingPacketPositions)
        for i in 0..<count {
            let f = frame(i)
            builder.append(
                pts: f.pts, durationTicks: f.durationTicks, isKeyframe: f.isKeyframe, decodeOrder: f.decodeOrder, position: f.position)
        }
        self = builder.finish(endingAtOwnDuration: endingAtOwnDuration)
    }

    /// Frames packed already, in presentation order, without packet positions: what a video
    /// table made from packets is, built in one loop by its maker (`FrameTableBuilder`) rather
    /// than a frame at a time through `Builder`, which for a two-hour film's 215,784 frames
    /// cost a fifth of the open. The maker leaves tables whose frames are all keyframes to
    /// `Builder`, which keeps those as runs where that pays.
    package init(packed: [Packed], timeBase: TimeBase, originPTS: Int64, endingAtOwnDuration: Set<Int>) {
        self.init(
            storage: .packed(packed), positions: nil, timeBase: timeBase, originPTS: originPTS,
            endingAtOwnDuration: endingAtOwnDuration)
    }

    /// Frames packed one by one as they are read, in presentation order: kept as runs while
    /// they follow one another (`FrameRuns`), packed from the first that does not, whole from
    /// the first whose numbers do not fit.
    ///
    /// Packed frames keep their packet positions only when `keepingPacketPositions` and only
    /// from the first frame that has one: a table that never reads them (video's) or never
    /// knew them (one from a cache file without them) costs 16 bytes a frame, not 24.
    package struct Builder {
        private let timeBase: TimeBase
        private let originPTS: Int64
        private var runs: FrameRuns? = FrameRuns()
        private var packed: [Packed] = []
        private var positions: PackedPositions = nil
        private var whole: [FrameEntry]?
        private let capacity: Int
        private let keepingPacketPositions: Bool

        /// A builder for frames in `timeBase` from `originPTS`; `capacity` frames are expected.
        package init(timeBase: TimeBase, originPTS: Int64, capacity: Int = 0, keepingPacketPositions: Bool = true) {
            self.timeBase = timeBase
            self.originPTS = originPTS
            self.capacity = capacity
            self.keepingPacketPositions = keepingPacketPositions
        }

        /// Adds the next frame in presentation order.
        package mutating func append(pts: Int64, durationTicks: Int64, isKeyframe: Bool, decodeOrder: Int, position: Int64?) {
            if whole == nil, runs != nil,
                runs!.append(
                    pts: pts, durationTicks: durationTicks, isKeyframe: isKeyframe,
                    decodeOrder: decodeOrder, position: keepingPacketPositions ? position : nil)
            {
                return
            }
            // Runs no longer pay: the frames so far are packed and the rest follow them.
            packRuns()
            appendPacked(pts: pts, durationTicks: durationTicks, isKeyframe: isKeyframe, decodeOrder: decodeOrder, position: position)
        }

        /// Moves the frames kept as runs, if any, to the packed (or whole) form.
        private mutating func packRuns() {
            guard let kept = runs else { return }
            runs = nil
            packed.reserveCapacity(Swift.max(capacity, kept.count + 1))
            for i in 0..<kept.count {
                let f = kept[i]
                appendPacked(pts: f.pts, durationTicks: f.durationTicks, isKeyframe: true, decodeOrder: f.decodeOrder, position: f.position)
            }
        }

        private mutating func appendPacked(pts: Int64, durationTicks: Int64, isKeyframe: Bool, decodeOrder: Int, position: Int64?) {
            if whole == nil, let frame = Packed(pts: pts, durationTicks: durationTicks, decodeOrder: decodeOrder, isKeyframe: isKeyframe) {
                if keepingPacketPositions, positions == nil, position != nil {
                    var earlier: [Int64] = []
                    earlier.reserveCapacity(Swift.max(capacity, packed.count + 1))
                    earlier.append(contentsOf: repeatElement(-1, count: packed.count))
                    positions = earlier
                }
                packed.append(frame)
                positions?.append(position ?? -1)
                return
            }
            if whole == nil {
                whole = packed.enumerated().map { i, f in
                    FrameEntry(
                        index: i, pts: f.pts, time: timeBase.time(ofTicks: f.pts &- originPTS), durationTicks: f.durationTicks,
                        duration: timeBase.time(ofTicks: f.durationTicks), isKeyframe: f.isKeyframe,
                        decodeOrder: f.decodeOrder, packetPosition: positions.flatMap { $0[i] < 0 ? nil : $0[i] })
                }
                packed = []
                positions = nil
            }
            let index = whole!.count
            whole!.append(
                FrameEntry(
                    index: index, pts: pts, time: timeBase.time(ofTicks: pts &- originPTS), durationTicks: durationTicks,
                    duration: timeBase.time(ofTicks: durationTicks), isKeyframe: isKeyframe,
                    decodeOrder: decodeOrder, packetPosition: keepingPacketPositions ? position : nil))
        }

        /// The list, with `endingAtOwnDuration` as the frames that cover only their own duration.
        package func finish(endingAtOwnDuration: Set<Int>) -> FrameList {
            var built = self
            if let runs = built.runs {
                if runs.pays {
                    return FrameList(
                        storage: .runs(runs), positions: nil, timeBase: timeBase, originPTS: originPTS,
                        endingAtOwnDuration: endingAtOwnDuration)
                }
                built.packRuns()
            }
            let storage: Storage =
                built.whole.map { .whole(FrameList.covering($0, endingAtOwnDuration: endingAtOwnDuration)) }
                ?? .packed(built.packed)
            return FrameList(
                storage: storage, positions: built.whole == nil ? built.positions : nil, timeBase: timeBase,
                originPTS: originPTS, endingAtOwnDuration: endingAtOwnDuration)
        }
    }

    /// The same frames, with `frames` as the ones that cover only their own duration (those
    /// followed by missing data); the storage is shared, not copied.
    package func endingAtOwnDuration(_ frames: Set<Int>) -> FrameList {
        switch storage {
        case .runs, .packed:
            return FrameList(storage: storage, positions: positions, timeBase: timeBase, originPTS: originPTS, endingAtOwnDuration: frames)
        case .whole(let whole):
            // Whole entries hold their ends: set again, as the packed form would read them.
            var entries = whole
            for i in entries.indices { entries[i].end = entries[i].time + entries[i].duration }
            return FrameList(
                storage: .whole(Self.covering(entries, endingAtOwnDuration: frames)), positions: nil,
                timeBase: timeBase, originPTS: originPTS, endingAtOwnDuration: frames)
        }
    }

    private init(storage: Storage, positions: PackedPositions, timeBase: TimeBase, originPTS: Int64, endingAtOwnDuration: Set<Int>) {
        self.storage = storage
        self.positions = positions
        self.timeBase = timeBase
        self.originPTS = originPTS
        self.endingAtOwnDuration = endingAtOwnDuration
    }

    /// Whether every frame is a keyframe decoded in presentation order, as audio frames are:
    /// then every frame is its own random access point (`RandomAccessPointList.everyFrame`).
    package var isEveryFrameAKeyframe: Bool {
        if case .runs = storage { return true }
        return false
    }

    /// The bytes the frames' storage holds (array capacity beyond `count` not included): what
    /// the compact forms save, for the tests that hold a long table to its budget.
    package var residentBytes: Int {
        switch storage {
        case .runs(let runs): runs.residentBytes
        case .packed(let packed):
            packed.count * MemoryLayout<Packed>.stride + (positions?.count ?? 0) * MemoryLayout<Int64>.stride
        case .whole(let whole): whole.count * MemoryLayout<FrameEntry>.stride
        }
    }

    /// Whether frame `index` is a keyframe, without making its entry.
    func isKeyframe(at index: Int) -> Bool {
        switch storage {
        case .runs: true
        case .packed(let packed): packed[index].isKeyframe
        case .whole(let whole): whole[index].isKeyframe
        }
    }

    /// Frame `index`'s decode order, without making its entry.
    func decodeOrder(at index: Int) -> Int {
        switch storage {
        case .runs(let runs): runs[index].decodeOrder
        case .packed(let packed): packed[index].decodeOrder
        case .whole(let whole): whole[index].decodeOrder
        }
    }

    /// Calls `body` with each frame's index and decode order, in order: the storage is looked
    /// at once, not per frame as `decodeOrder(at:)` does (the statistics read a long table's
    /// decode orders three times).
    func forEachDecodeOrder(_ body: (_ index: Int, _ decodeOrder: Int) throws -> Void) rethrows {
        switch storage {
        case .runs(let runs): for i in 0..<runs.count { try body(i, runs[i].decodeOrder) }
        case .packed(let packed): for (i, frame) in packed.enumerated() { try body(i, frame.decodeOrder) }
        case .whole(let whole): for (i, frame) in whole.enumerated() { try body(i, frame.decodeOrder) }
        }
    }

    /// The indices of the keyframes, ascending, the storage looked at once.
    func keyframeIndices() -> [Int] {
        switch storage {
        case .runs: Array(indices)
        case .packed(let packed): packed.indices.filter { packed[$0].isKeyframe }
        case .whole(let whole): whole.indices.filter { whole[$0].isKeyframe }
        }
    }

    /// `entries` with each `end` set to the next frame's time, as the packed form reads it.
    private static func covering(_ entries: [FrameEntry], endingAtOwnDuration: Set<Int>) -> [FrameEntry] {
        var covering = entries
        for i in covering.indices.dropLast() where !endingAtOwnDuration.contains(i) {
            covering[i].end = covering[i + 1].time
        }
        return covering
    }
}

extension FrameList: Equatable {
    /// Whether both lists hold the same frames, whichever way each stores them.
    public static func == (lhs: FrameList, rhs: FrameList) -> Bool { lhs.elementsEqual(rhs) }
}
