// The Swift Testing example of docs-landing-manifest.md, run on manifests recorded here, so the
// example keeps compiling against the API and keeps passing on good manifests.

import Foundation
import FrameSeek
import FrameSeekTestSupport
import Testing

@Suite("Landing manifests: the documented example")
struct DocsExampleTests {
    @Test("The documented check passes on a freshly recorded manifest", arguments: FixtureCatalog.barcoded.prefix(2))
    func documentedExample(_ fixture: Fixture) throws {
        let directory = try temporaryDirectory("landing-docs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try recordFixture(fixture, in: directory).path
        // From here on, the example's body as the docs give it.
        let manifest = try LandingManifest.load(from: path)
        var options = LandingCheck.Options()
        options.diffDirectory = directory.appendingPathComponent("landing-diffs").path
        let report = try LandingCheck.run(manifest, manifestPath: path, options: options)
        for result in report.results {
            print(result.summary)
        }
        let mismatches = report.results.filter { !$0.matches }
        #expect(mismatches.isEmpty, "\(mismatches.map(\.summary).joined(separator: "\n"))")
    }
}
