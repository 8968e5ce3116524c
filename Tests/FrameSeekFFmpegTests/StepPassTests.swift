// A pass of forward steps split between decoders (`stepForward(count:repeats:decoders:each:)`)
// steps onto the frames ffprobe lists, with ffmpeg's pixels, reports each step as `step` does
// (frames moved, the edge), and leaves the engine standing on the last frame, as one decoder does.

import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Step passes split between decoders")
struct StepPassTests {
    /// What a decoder reports of a step from its own thread: the frame's MD5 and which engine
    /// landed it. The checks run afterwards, on the test's thread.
    struct Stepped: Sendable {
        let md5: String?
        let engine: ObjectIdentifier
    }

    static let cases: [(Fixture, Int)] = FixtureCatalog.video.flatMap { [($0, 1), ($0, 3)] }

    @Test("From frame 0 to the end, steps of N frames land on ffprobe's frames with framemd5's pixels, then report the end",
          arguments: cases)
    func passToTheEnd(_ fixture: Fixture, _ count: Int) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        _ = try engine.seek(to: oracle.middle(0), precision: .exact)
        let repeats = oracle.lastIndex / count + 5  // more than the clip has: the pass meets the end
        let steps = try engine.stepForward(count: count, repeats: repeats, decoders: 2) { _, report, decoder in
            Stepped(md5: report.result.didStep ? try decoder.landedPicture()?.md5 : nil, engine: ObjectIdentifier(decoder))
        }
        // One decoder, step after step, is the reference for everything but the pixels.
        let reference = try openEngine(fixture)
        _ = try reference.seek(to: oracle.middle(0), precision: .exact)
        var expected: [(index: Int?, moved: Int, didStep: Bool)] = []
        for _ in 0..<repeats {
            let report = reference.step(.forward, count: count)
            expected.append((report.frame?.index, report.framesStepped, report.result.didStep))
            if !report.result.didStep { break }
        }
        #expect(steps.map(\.report.frame?.index) == expected.map(\.index), "\(fixture.id) by \(count): frames stepped to")
        #expect(steps.map(\.report.framesStepped) == expected.map(\.moved), "\(fixture.id) by \(count): frames moved")
        #expect(steps.map(\.report.result.didStep) == expected.map(\.didStep))
        #expect(steps.last?.report.result.unavailableReason == .endOfStream, "\(fixture.id): the pass ends at the end")
        if let md5s = oracle.md5s {
            for (ordinal, step) in steps.enumerated() where step.report.result.didStep {
                let index = try #require(step.report.frame?.index)
                #expect(step.output.md5 == md5s[index], "\(fixture.id) step \(ordinal + 1) onto frame \(index): framemd5's pixels")
            }
        }
        #expect(engine.currentFrameIndex == steps.last?.report.frame?.index, "\(fixture.id): the engine stands on the last frame")
        if let last = engine.currentFrameIndex, let md5s = oracle.md5s {
            #expect(try engine.landedPicture()?.md5 == md5s[last])
        }
    }

    @Test("A pass that stops short of the end takes exactly the steps asked, and the next step goes on from its last frame")
    func passThenStep() throws {
        // Three GOPs: the first and the last run are the calling engine's, the one between goes
        // to whichever decoder is free.
        let fixture = try #require(FixtureCatalog.video.first { $0.id.hasPrefix("h264_anamorphic") })
        let oracle = try Oracle(fixture)
        try #require(oracle.keyframes.count >= 3, "\(fixture.id): too few GOPs to split")
        let engine = try openEngine(fixture)
        _ = try engine.seek(to: oracle.middle(2), precision: .exact)
        let repeats = oracle.keyframes[2] + 3 - 2
        let steps = try engine.stepForward(repeats: repeats, decoders: 2) { _, _, decoder in ObjectIdentifier(decoder) }
        #expect(steps.map(\.report.frame?.index) == Array(3...(2 + repeats)))
        #expect(Set(steps.map(\.output)).count <= 2)
        let next = engine.step(.forward)
        #expect(next.frame?.index == 3 + repeats && next.framesDecoded == 1, "\(fixture.id): the next step decodes on, one frame")
        if let md5s = oracle.md5s { #expect(try engine.landedPicture()?.md5 == md5s[3 + repeats]) }
    }
}
