// A pass of forward steps split between decoders (`stepForward(count:repeats:decoders:each:delivered:)`)
// steps onto the frames ffprobe lists, with ffmpeg's pixels, reports each step as `step` does
// (frames moved, the edge), and leaves the engine standing on the last frame, as one decoder does.

import FrameSeekCore
import FrameSeekFFmpeg
import FrameSeekTestSupport
import Testing

@Suite("Step passes split between decoders", .ffmpegLog)
struct StepPassTests {
    /// What a decoder reports of a step from its own thread: the frame's MD5 and which engine
    /// landed it. The checks run afterwards, on the test's thread.
    struct Stepped: Sendable {
        let md5: String?
        let engine: ObjectIdentifier
    }

    static let cases: [(Fixture, Int)] = FixtureCatalog.video.flatMap { [($0, 1), ($0, 3)] }

    @Test(
        "From frame 0 to the end, steps of N frames land on ffprobe's frames with framemd5's pixels, then report the end",
        arguments: cases)
    func passToTheEnd(_ fixture: Fixture, _ count: Int) throws {
        let oracle = try Oracle(fixture)
        let engine = try openEngine(fixture)
        _ = try engine.seek(to: oracle.middle(0), precision: .exact)
        let repeats = oracle.lastIndex / count + 5  // more than the clip has: the pass meets the end
        var steps: [(report: FrameStepReport, output: Stepped)] = []
        try engine.stepForward(count: count, repeats: repeats, decoders: 2) { _, report, decoder in
            Stepped(md5: report.result.didStep ? try decoder.landedPicture()?.md5 : nil, engine: ObjectIdentifier(decoder))
        } delivered: {
            steps.append(($0, $1))
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
        var steps: [(report: FrameStepReport, output: ObjectIdentifier)] = []
        try engine.stepForward(repeats: repeats, decoders: 2) { _, _, decoder in
            ObjectIdentifier(decoder)
        } delivered: {
            steps.append(($0, $1))
        }
        #expect(steps.map(\.report.frame?.index) == Array(3...(2 + repeats)))
        #expect(Set(steps.map(\.output)).count <= 2)
        let next = engine.step(.forward)
        #expect(next.frame?.index == 3 + repeats && next.framesDecoded == 1, "\(fixture.id): the next step decodes on, one frame")
        if let md5s = oracle.md5s { #expect(try engine.landedPicture()?.md5 == md5s[3 + repeats]) }
    }
}

extension StepPassTests {
    @Test(
        "Over a frame no decoder produces (bitflip_mdat.mp4, frame 222), the pass keeps the steps made and goes on as step does: the same frames, the same frames moved"
    )
    func passOverUndecodableFrame() throws {
        let path = Repository.fixture("bad/bitflip_mdat.mp4")
        let engine = try FFmpegEngine(path: path)
        let reference = try FFmpegEngine(path: path)
        _ = try engine.seek(to: engine.frameTable.frames[0].time, precision: .exact)
        _ = try reference.seek(to: reference.frameTable.frames[0].time, precision: .exact)
        let repeats = 300
        var steps: [FrameStepReport] = []
        try engine.stepForward(repeats: repeats, decoders: 2) { _, _, _ in
            0
        } delivered: { report, _ in
            steps.append(report)
        }
        var expected: [FrameStepReport] = []
        for _ in 0..<repeats {
            let report = reference.step(.forward)
            expected.append(report)
            if !report.result.didStep { break }
        }
        #expect(steps.map(\.frame?.index) == expected.map(\.frame?.index), "frames stepped to")
        #expect(steps.map(\.framesStepped) == expected.map(\.framesStepped), "frames moved")
        #expect(steps.map(\.result.didStep) == expected.map(\.result.didStep))
        let over = try #require(steps.firstIndex { $0.frame?.index == 223 }, "the pass reached frame 223")
        #expect(steps[over].framesStepped == 2 && steps[over].damaged, "the step over frame 222 moves 2 and is damaged")
    }
}
