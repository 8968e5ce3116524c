// Scrub previews: a scrub session asks a `ThumbnailPreviewProvider` (a decoder of its own) for
// the picture of a proposed time. Checked over the seek-counting engine: no preview ever
// reaches the player's engine (seek count unchanged, playhead unchanged), previews land where
// the landing rules say (computed from ffprobe's table), show the frame the synthetic barcode
// names, come from the cache when they land on a frame already shown, keep coming after
// thousands of requests, and keep coming while the player's engine is stopped.

import Dispatch
import Foundation
import FrameSeek
@testable import FrameSeekCore
import FrameSeekTestSupport
import Testing

@Suite("Player: scrub previews", .ffmpegLog)
struct ScrubPreviewTests {
    /// Proposed times from -0.5 s to past the end of gop250 (12.012 s), every 1/25 s.
    static let proposed: [MediaTime] = (-12...315).map { MediaTime(value: Int64($0), timescale: 25) }

    /// The frame number in the top band of an RGB picture of a 320x240 synthetic frame shown
    /// at `image`'s size: block b sampled at its centre, white when the grey level >= 128.
    static func barcode(_ image: RGBImage) -> Int {
        var number = 0
        let y = Int(10.5 * Double(image.height) / 240)
        for bit in 0..<16 {
            let x = Int((Double(20 * bit) + 10.5) * Double(image.width) / 320)
            let p = (y * image.width + x) * 3
            if (Int(image.pixels[p]) + Int(image.pixels[p + 1]) + Int(image.pixels[p + 2])) / 3 >= 128 { number |= 1 << bit }
        }
        return number
    }

    /// Where an array's bytes live: equal for two arrays sharing one buffer.
    static func storage(_ image: RGBImage) -> UInt? {
        image.pixels.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }

    /// A harness with gop250 loaded whose scrub session previews through the provider
    /// `makeProvider` makes for the fixture's path.
    static func previewing(
        _ label: String = #function, _ makeProvider: (String) throws -> ThumbnailPreviewProvider
    )
        async throws -> (Harness, Oracle, ScrubSession)
    {
        let (h, oracle) = try await Harness.gop250(label)
        let scrub = h.player.scrub
        scrub.previewProvider = try makeProvider(try Fixtures.gop250.path)
        return (h, oracle, scrub)
    }

    @Test("Previews during a scrub: nearest keyframes, the expected size, no seek, the playhead still")
    func previewsDuringScrub() async throws {
        let h = Harness()
        let fixture = try Fixtures.gop250
        let oracle = try await h.load(fixture)
        _ = await h.player.seek(to: oracle.middle(20), precision: .exact)
        #expect(h.probe.seekCount == 1)
        #expect(h.player.currentTime == oracle.time(20))
        let scrub = h.player.scrub
        scrub.previewProvider = try ThumbnailPreviewProvider(path: fixture.path)

        scrub.beginScrubbing(at: h.player.currentTime)
        for t in Self.proposed {
            scrub.updateScrubbing(to: t)
            let preview = try await withDeadline("preview at \(t)") { await scrub.preview(at: t) }
            let context = "preview at \(t)"
            guard let preview else {
                Issue.record("\(context): nil")
                continue
            }
            let expected = oracle.expectedLanding(at: t, before: nil, after: nil)
            #expect(oracle.frames[expected].isKey)
            #expect(preview.requestedTime == t, "\(context): answered for \(preview.requestedTime)")
            #expect(preview.actualTime == oracle.time(expected), "\(context): actual \(preview.actualTime), expected keyframe \(expected)")
            #expect(preview.image.width == 120 && preview.image.height == 90, "\(context): \(preview.image.width)x\(preview.image.height)")
            #expect(Self.barcode(preview.image) == expected, "\(context): the picture shows frame \(Self.barcode(preview.image))")
        }
        await h.drainEngine()
        #expect(h.probe.seekCount == 1, "previews reached the player's engine")
        #expect(h.probe.innerSeeks.count == 1)
        #expect(h.player.currentTime == oracle.time(20), "previews moved the playhead")
        #expect(scrub.scrubState == .scrubbing)
        #expect(scrub.sampleCount == Self.proposed.count)

        // The session still ends with its one seek, where the rules say.
        let target = MediaTime(value: 9, timescale: 1)
        let result = try await withDeadline("endScrubbing") { await scrub.endScrubbing(at: target, precision: .exact) }
        let expected = try #require(oracle.covering(target))
        #expect(result.outcome?.frameIndex == expected)
        #expect(h.player.currentTime == oracle.time(expected))
        #expect(h.probe.seekCount == 2)
    }

    @Test("Previews landing on one keyframe come from the cache, and keep coming after thousands of requests")
    func cached() async throws {
        let (h, oracle, scrub) = try await Self.previewing { try ThumbnailPreviewProvider(path: $0, cachedPreviews: 16) }
        scrub.beginScrubbing(at: .zero)

        // The first preview of each keyframe, then every proposed time again: the same bytes,
        // from the same buffer (the cached picture, not a new decode).
        var first: [MediaTime: RGBImage] = [:]
        for t in Self.proposed {
            let preview = try #require(await scrub.preview(at: t), "preview at \(t)")
            if let seen = first[preview.actualTime] {
                #expect(preview.image == seen, "preview at \(t): other bytes for keyframe at \(preview.actualTime)")
                #expect(Self.storage(preview.image) == Self.storage(seen), "preview at \(t): not the cached picture")
            } else {
                first[preview.actualTime] = preview.image
            }
        }
        #expect(Set(first.keys) == Set(oracle.keyframes.map(oracle.time)))
        #expect(first.count == 2)
        let pictures = first

        // Thousands of requests at once, from many tasks: every one answered, from the cache.
        let requests = 4_000
        let answers = try await withDeadline("\(requests) previews") { () -> [ScrubPreview?] in
            await withTaskGroup(of: (Int, ScrubPreview?).self) { group in
                for i in 0..<requests {
                    group.addTask { (i, await scrub.preview(at: Self.proposed[i % Self.proposed.count])) }
                }
                var answers = [ScrubPreview?](repeating: nil, count: requests)
                for await (i, preview) in group { answers[i] = preview }
                return answers
            }
        }
        #expect(answers.allSatisfy { $0 != nil }, "\(answers.filter { $0 == nil }.count) of \(requests) previews were nil")
        for (i, preview) in answers.enumerated() {
            guard let preview else { continue }
            let t = Self.proposed[i % Self.proposed.count]
            #expect(preview.requestedTime == t)
            #expect(preview.actualTime == oracle.time(oracle.expectedLanding(at: t, before: nil, after: nil)))
            #expect(preview.image == pictures[preview.actualTime])
            #expect(
                Self.storage(preview.image) == pictures[preview.actualTime].flatMap(Self.storage), "request \(i): not the cached picture")
        }
        await h.drainEngine()
        #expect(h.probe.seekCount == 0, "previews reached the player's engine")
        #expect(h.player.currentTime == .zero)
        scrub.cancelScrubbing()
    }

    @Test("An exact-precision provider shows the frame covering each proposed time, still without a seek")
    func exactPreviews() async throws {
        let fixture = try Fixtures.gop250
        // A cache of one picture, so going backward decodes again rather than hitting the cache.
        let (h, oracle, scrub) = try await Self.previewing {
            try ThumbnailPreviewProvider(path: $0, maximumSize: (320, 240), precision: .exact, cachedPreviews: 1)
        }
        scrub.beginScrubbing(at: .zero)
        // Every 7th frame's middle, forward then backward (the provider must seek back on its own).
        let frames = Array(stride(from: 0, to: oracle.count, by: 7))
        for i in frames + frames.reversed() {
            let t = oracle.middle(i)
            scrub.updateScrubbing(to: t)
            let preview = try #require(await scrub.preview(at: t), "preview at frame \(i)")
            #expect(preview.actualTime == oracle.time(i), "frame \(i): actual \(preview.actualTime)")
            #expect(preview.image.width == 320 && preview.image.height == 240)
            #expect(
                Self.barcode(preview.image) == i + fixture.barcodeOffset, "frame \(i): the picture shows \(Self.barcode(preview.image))")
        }
        await h.drainEngine()
        #expect(h.probe.seekCount == 0)
        #expect(h.player.currentTime == .zero)
        scrub.cancelScrubbing()
    }

    @Test("Previews keep coming while the player's engine is stopped mid-seek")
    func independentOfThePlayersEngine() async throws {
        let (h, oracle, scrub) = try await Self.previewing { try ThumbnailPreviewProvider(path: $0) }
        h.suspendEngine()
        defer { h.resumeEngine() }
        let player = h.player
        let seek = Task { await player.seek(to: oracle.middle(300), precision: .exact) }
        scrub.beginScrubbing(at: .zero)
        for t in [MediaTime(value: 1, timescale: 1), MediaTime(value: 10, timescale: 1), MediaTime(value: 3, timescale: 1)] {
            let preview = try await withDeadline("preview at \(t) with the engine stopped", timeout: .seconds(30)) {
                await scrub.preview(at: t)
            }
            #expect(preview?.actualTime == oracle.time(oracle.expectedLanding(at: t, before: nil, after: nil)))
        }
        #expect(h.player.currentTime == .zero)
        h.resumeEngine()
        let outcome = await seek.value
        #expect(outcome.frameIndex == 300)
        #expect(h.probe.seekCount == 1)
        scrub.cancelScrubbing()
    }

    @Test("No provider: nil, and no seek")
    func noProvider() async throws {
        let h = Harness()
        let fixture = try Fixtures.gop250
        try await h.load(fixture)
        let scrub = h.player.scrub
        #expect(scrub.previewProvider == nil)
        scrub.beginScrubbing(at: .zero)
        #expect(await scrub.preview(at: MediaTime(value: 3, timescale: 1)) == nil)
        // Set, then removed again.
        scrub.previewProvider = try ThumbnailPreviewProvider(path: fixture.path)
        #expect(await scrub.preview(at: MediaTime(value: 3, timescale: 1)) != nil)
        scrub.previewProvider = nil
        #expect(await scrub.preview(at: MediaTime(value: 3, timescale: 1)) == nil)
        scrub.cancelScrubbing()
        await h.drainEngine()
        #expect(h.probe.seekCount == 0)
        // Nothing loaded at all: still nil, no crash.
        let idle = Player(engineFactory: FFmpegEngine.factory(), callbackQueue: DispatchQueue(label: "test.idle"))
        #expect(await idle.scrub.preview(at: .zero) == nil)
    }

    @Test("A provider for a file without video cannot be made")
    func audioOnly() throws {
        let fixture = try Fixtures.audio
        #expect(throws: MediaError.self) { _ = try ThumbnailPreviewProvider(path: fixture.path) }
        do {
            _ = try ThumbnailPreviewProvider(path: fixture.path)
        } catch {
            #expect(error.reason == .noPlayableStream, "\(error)")
            #expect(error.description.contains(fixture.path))
        }
    }
}
