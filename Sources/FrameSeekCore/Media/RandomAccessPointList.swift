/// A table's random access points, sorted by PTS: listed one by one, or, where every frame is
/// a keyframe decoded in presentation order (audio), made from the frames as they are read, so
/// that a three-hour MP3 does not hold 400,000 of them.
public struct RandomAccessPointList: RandomAccessCollection, Sendable, Equatable {
    private enum Storage: Sendable {
        case listed([RandomAccessPoint])
        case everyFrame(FrameList)
    }

    private let storage: Storage

    /// The points `points`, sorted by PTS.
    public init(_ points: [RandomAccessPoint]) { storage = .listed(points) }

    /// Every frame of `frames` as its own random access point, with no DTS of its own.
    package static func everyFrame(of frames: FrameList) -> RandomAccessPointList {
        RandomAccessPointList(storage: .everyFrame(frames))
    }

    /// The keyframes of `frames`, each its own random access point with no DTS of its own: as
    /// `everyFrame(of:)` where every frame is one, else listed.
    package static func keyframes(of frames: FrameList) -> RandomAccessPointList {
        if frames.isEveryFrameAKeyframe { return everyFrame(of: frames) }
        return RandomAccessPointList(
            frames.indices.filter { frames.isKeyframe(at: $0) }.map {
                RandomAccessPoint(pts: frames[$0].pts, dts: nil, decodeOrder: frames.decodeOrder(at: $0), frameIndex: $0)
            })
    }

    private init(storage: Storage) { self.storage = storage }

    /// Whether every frame is its own point (`everyFrame(of:)`).
    package var isEveryFrame: Bool {
        if case .everyFrame = storage { return true }
        return false
    }

    /// The first index: 0.
    public var startIndex: Int { 0 }

    /// One past the last index: the number of points.
    public var endIndex: Int {
        switch storage {
        case .listed(let points): points.count
        case .everyFrame(let frames): frames.count
        }
    }

    /// The point at `index`.
    public subscript(index: Int) -> RandomAccessPoint {
        switch storage {
        case .listed(let points):
            points[index]
        case .everyFrame(let frames):
            RandomAccessPoint(pts: frames[index].pts, dts: nil, decodeOrder: frames.decodeOrder(at: index), frameIndex: index)
        }
    }

    /// Whether both hold the same points, whichever way each stores them.
    public static func == (lhs: RandomAccessPointList, rhs: RandomAccessPointList) -> Bool { lhs.elementsEqual(rhs) }
}

/// The indices of a table's keyframes, ascending: listed, or all of them.
struct KeyframeIndexList: RandomAccessCollection, Sendable {
    private let listed: [Int]?
    let endIndex: Int

    /// The keyframes of `frames`.
    init(_ frames: FrameList) {
        if frames.isEveryFrameAKeyframe {
            listed = nil
            endIndex = frames.count
        } else {
            let keyframes = frames.keyframeIndices()
            listed = keyframes
            endIndex = keyframes.count
        }
    }

    var startIndex: Int { 0 }

    subscript(position: Int) -> Int { listed?[position] ?? position }
}
