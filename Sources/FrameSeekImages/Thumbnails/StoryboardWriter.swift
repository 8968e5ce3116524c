#if canImport(Glibc)
    import Glibc
#endif
import Dispatch
import Foundation
import FrameSeekCore
import FrameSeekFFmpeg

/// Writes a storyboard (see `Storyboard.write`) as its thumbnails arrive in time order: each
/// picture file, a sheet or a single thumbnail, is assembled and encoded (PNG through libpng,
/// JPEG or WebP through FFmpeg's encoders, `PictureEncoder`) on a queue of its own as soon as
/// its last tile arrives, while the decoders go on. The set is still written
/// whole: every file under a temporary name, renamed into place only by `finish`.
///
/// Not Sendable: add thumbnails and finish from one thread. A writer dropped before `finish`
/// removes its temporary files.
public final class StoryboardWriter {
    private let directory: String
    private let count: Int
    private let tileWidth: Int, tileHeight: Int
    /// Columns and tiles per file; nil columns for one thumbnail per file.
    private let columns: Int?
    private let perFile: Int
    private let withTrack: Bool
    private let compression: PNGCompression
    private let format: PictureFormat
    private let quality: Int
    /// The streaming forms to write beside the track (`Storyboard.StreamingForms`): their
    /// sheets are all the size of a full one.
    private let streaming: Storyboard.StreamingForms
    /// The encoder's queue: files are encoded one at a time, in order, beside the decoding.
    private let encoder = DispatchQueue(label: "frameseek.storyboard.encoder")
    /// The first encoding error (`PNGWriteError`, or `OutputFileError` for JPEG and WebP), set
    /// on `encoder`, read after draining it.
    private let failure = Locked<(any Error)?>(nil)
    private var pending: [RGBImage] = []
    private var placed: [(requested: MediaTime, actual: MediaTime, file: String, x: Int, y: Int)] = []
    private var staged: [(temporary: String, final: String)] = []
    private var finished = false

    /// A writer for `count` thumbnails of `tileWidth` x `tileHeight` into `directory`: single
    /// files (`thumb-NNNN.png`, `.jpg` or `.webp` as `format` says) when `columns` and `rows`
    /// are nil, else sheets of at most `columns` x `rows` (`sheet-NNN.png`); with `withTrack`,
    /// `thumbnails.vtt` and `storyboard.json` too. PNGs use `compression`; JPEG and WebP
    /// `quality` (1-100, `PictureQuality`).
    ///
    /// - Throws: `StoryboardLimitError` beyond the limits (see `Storyboard.checkLimits`).
    public init(
        directory: String, count: Int, tileWidth: Int, tileHeight: Int, columns: Int? = nil, rows: Int? = nil,
        withTrack: Bool = false, compression: PNGCompression = .default, format: PictureFormat = .png,
        quality: Int = PictureQuality.default, streaming: Storyboard.StreamingForms = []
    ) throws(StoryboardLimitError) {
        try Storyboard.checkLimits(
            count: count, tileWidth: max(1, tileWidth), tileHeight: max(1, tileHeight),
            columns: columns, rows: rows, fullSheets: !streaming.isEmpty)
        self.directory = directory
        self.count = count
        self.tileWidth = tileWidth
        self.tileHeight = tileHeight
        self.withTrack = withTrack
        self.compression = compression
        self.format = format
        self.quality = quality
        self.streaming = streaming
        if let columns, let rows {
            self.columns = columns
            // Never capped with `streaming`: checkLimits has refused a grid over the cap there,
            // so the layout the playlist and MPD state is `columns` x `rows`.
            perFile = min(columns.multipliedReportingOverflow(by: rows).overflow ? Int.max : columns * rows, Storyboard.maximumCount)
        } else {
            self.columns = nil
            perFile = 1
        }
    }

    deinit {
        if !finished { abandon() }
    }

    /// Places the next thumbnail, in time order; a file whose last tile this is goes to the
    /// encoder at once.
    ///
    /// - Throws: `StoryboardLimitError` for a picture that is not the tile size or one more
    ///   than `count`; `PNGWriteError` or `OutputFileError` when an earlier file could not be
    ///   written.
    public func add(_ thumbnail: Thumbnail) throws {
        guard thumbnail.image.width == tileWidth, thumbnail.image.height == tileHeight, placed.count < count else {
            throw StoryboardLimitError(
                message: "thumbnail \(placed.count + 1) of \(count) is \(thumbnail.image.width)x"
                    + "\(thumbnail.image.height), not the tile size \(tileWidth)x\(tileHeight)")
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let slot = placed.count % perFile
        let name =
            columns == nil
            ? String(format: "thumb-%04d.", placed.count + 1) + format.fileExtension
            : String(format: "sheet-%03d.", placed.count / perFile + 1) + format.fileExtension
        let columns = self.columns ?? 1
        placed.append((thumbnail.requestedTime, thumbnail.actualTime, name, (slot % columns) * tileWidth, (slot / columns) * tileHeight))
        pending.append(thumbnail.image)
        if pending.count == perFile { flush(as: name) }
    }

    /// Writes what is left, waits for the encoder, writes the track and storyboard, renames
    /// every file into place (pictures first), and removes the files of an earlier set that
    /// this one does not replace (see `Storyboard.write`).
    ///
    /// - Throws: `PNGWriteError` or `OutputFileError` naming the file that could not be
    ///   written; nothing is renamed into place then.
    public func finish(duration: MediaTime) throws -> Storyboard {
        if let last = placed.last, !pending.isEmpty { flush(as: last.file) }
        encoder.sync {}
        if let error = failure.withLock({ $0 }) { abandon(); throw error }
        let tiles = placed.indices.map { i in
            let end = i + 1 < placed.count ? placed[i + 1].requested : max(duration, placed[i].requested)
            return Storyboard.Tile(
                requested: placed[i].requested, end: end, actual: placed[i].actual,
                file: placed[i].file, x: placed[i].x, y: placed[i].y)
        }
        let storyboard = Storyboard(
            tileWidth: placed.isEmpty ? 0 : tileWidth, tileHeight: placed.isEmpty ? 0 : tileHeight,
            duration: duration, tiles: tiles)
        var extras: [String] = []
        do {
            var texts: [(String, String)] = []
            if withTrack {
                texts += [
                    (Storyboard.trackFileName, storyboard.webVTT), (Storyboard.storyboardFileName, storyboard.json.serialized + "\n")
                ]
            }
            if !streaming.isEmpty {
                // The sheets' sizes give the playlist's peak bandwidth: they are on disk, under
                // their temporary names, once the encoder is drained.
                let temporaries = Dictionary(staged.map { ($0.final, $0.temporary) }, uniquingKeysWith: { first, _ in first })
                let bytes = storyboard.sheetBytes { name in temporaries[directory + "/" + name] ?? "" }
                let layout = Storyboard.SheetLayout(columns: columns ?? 1, rows: perFile / (columns ?? 1))
                let files = try storyboard.streamingFiles(streaming, layout: layout, format: format, sheetBytes: bytes)
                texts += files
                extras = files.map(\.0)
            }
            for (name, text) in texts {
                let final = directory + "/" + name, temporary = OutputFile.temporaryPath(for: final)
                staged.append((temporary, final))
                try OutputFile.writeInPlace(text, to: temporary, naming: final)
            }
            // Pictures first, the track and storyboard that point at them last.
            for file in staged { try OutputFile.commit(file.temporary, to: file.final) }
        } catch {
            abandon()
            throw error
        }
        finished = true
        let kept = Set(tiles.map(\.file)).union(withTrack ? [Storyboard.trackFileName, Storyboard.storyboardFileName] : [])
            .union(extras)
        Storyboard.removeStaleFiles(in: directory, keeping: kept, format: format)
        return storyboard
    }

    /// Stops: waits for the encoder and removes every temporary file written so far.
    public func abandon() {
        finished = true
        encoder.sync {}
        for file in staged { unlink(file.temporary) }
        staged.removeAll()
    }

    /// Hands the pending tiles to the encoder as the file `name`.
    private func flush(as name: String) {
        let final = directory + "/" + name, temporary = OutputFile.temporaryPath(for: final)
        staged.append((temporary, final))
        let (images, columns, compression, failure) = (pending, self.columns, compression, failure)
        let (format, quality) = (self.format, self.quality)
        let slots = streaming.isEmpty ? nil : perFile
        let (tileWidth, tileHeight) = (self.tileWidth, self.tileHeight)
        pending.removeAll(keepingCapacity: true)
        encoder.async {
            guard failure.withLock({ $0 == nil }) else { return }
            let picture =
                columns.map { Storyboard.sheet(of: images, columns: $0, tileWidth: tileWidth, tileHeight: tileHeight, slots: slots) }
                ?? images[0]
            do {
                switch format {
                case .png: try PNGFile.writeInPlace(picture, to: temporary, naming: final, compression: compression)
                case .jpeg, .webp:
                    let codec: PictureEncoder.Codec = format == .jpeg ? .jpeg(quality: quality) : .webp(quality: quality)
                    let bytes: [UInt8]
                    do { bytes = try PictureEncoder(codec, width: picture.width, height: picture.height).encode(picture) } catch {
                        throw OutputFileError(path: final, cause: "cannot encode \(format.rawValue): \(error)")
                    }
                    try OutputFile.writeInPlace(bytes, to: temporary, naming: final)
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
    }
}
