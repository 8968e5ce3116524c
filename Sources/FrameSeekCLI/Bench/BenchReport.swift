import Foundation
import FrameSeek

/// The bench report: one self-contained HTML file, inline SVG, no scripts, nothing fetched.
///
/// It opens with the run's settings (what was measured, on what, with what), then a summary
/// row per workload, then per workload the latency distribution and latency against the
/// distance from the keyframe, which is where a GOP structure shows: exact-seek cost grows
/// with the number of frames decoded from the keyframe. With a peers file, a grouped bar chart
/// puts FrameSeek beside the other decoders.
package enum BenchReport {
    /// The report's HTML for `results` (may be empty when only `peers` is drawn).
    /// With several files (`bench A B`), a side-by-side section comes first (`verdicts` are
    /// its verdict lines), then each file's own part.
    package static func html(
        _ results: [BenchResult], peers: PeerComparison? = nil, network: NetworkModel? = nil,
        verdicts: [String] = []
    ) -> String {
        var body = "<h1>FrameSeek bench</h1>\n"
        var files: [String] = []
        for r in results where !files.contains(r.input) { files.append(r.input) }
        if files.count > 1 {
            body += sideBySideSection(results, files: files, network: network, verdicts: verdicts)
            for (index, file) in files.enumerated() {
                let own = results.filter { $0.input == file }
                body +=
                    "<section class=\"encode\"><h2 class=\"encode\"><span class=\"swatch\" style=\"background:\(color(index))\"></span>"
                    + "encode \(index + 1): \(escape(SeekCostSummary.name(file)))</h2>\n"
                body += settingsTable(own[0].settings, results: own) + summaryTable(own)
                for result in own { body += workloadSection(result) }
                body += "</section>\n"
            }
        } else if let first = results.first {
            body += settingsTable(first.settings, results: results)
            body += summaryTable(results)
            for result in results { body += workloadSection(result) }
        } else if let peers {
            body += peerSettingsTable(peers)
        }
        if let peers { body += peersSection(peers) }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>FrameSeek bench</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
            h2 { margin-top: 1.6em; font-size: 1.15em; }
            table { border-collapse: collapse; margin: 0.6em 0 1em; }
            th, td { border: 1px solid #ccc; padding: 4px 9px; text-align: right; vertical-align: top; }
            th:first-child, td:first-child { text-align: left; }
            table.summary th { white-space: nowrap; }
            table.settings th { background: #f4f4f4; font-weight: 600; white-space: nowrap; }
            table.settings td { text-align: left; }
            .mono { font-family: ui-monospace, monospace; font-size: 13px; overflow-wrap: anywhere; }
            .baseline { color: #666; white-space: nowrap; }
            .charts { display: flex; gap: 1.5em; flex-wrap: wrap; }
            .empty { padding: 1em 1.2em; background: #fff7e0; border: 1px solid #e8d08a; display: inline-block; }
            .note { color: #555; }
            .legend .key { white-space: nowrap; margin-right: 1.2em; }
            .legend .swatch, .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; }
            ul.verdicts li { margin: 0.3em 0; }
            svg text { font: 11px system-ui, sans-serif; fill: #333; }
            svg text.title { font-weight: bold; font-size: 12px; }
            svg .grid { stroke: #e6e6e6; }
            svg text.median { fill: #c33; }
            svg text.halo { stroke: #fff; stroke-width: 3px; paint-order: stroke; }
            </style></head><body>
            \(body)</body></html>

            """
    }

    /// What the run was measured on and with.
    static func settingsTable(_ s: BenchSettings, results: [BenchResult]) -> String {
        var rows: [(String, String)] = [("file", "<span class=\"mono\">\(escape(s.file))</span>"), ("codec", escape(s.codec))]
        if let width = s.width, let height = s.height { rows.append(("resolution", "\(width)x\(height)")) }
        rows.append(
            (
                "GOP",
                s.frameCount.map { count in
                    s.medianGOP.map { "\($0) frames (median distance between keyframes), \(count) frames in all" }
                        ?? "no keyframes in the frame table, \(count) frames in all"
                } ?? "not indexed: a playlist read as a player reads it, segment by segment"
            ))
        let requested = s.requestedCount.map { "\($0) per workload (-n)" } ?? "each workload's default"
        rows.append(
            ("n", requested + "; measured: " + results.map { "\($0.workload.rawValue) \($0.samples.count)" }.joined(separator: ", ")))
        rows.append(("targets", s.targetsFile.map { "from <span class=\"mono\">\(escape($0))</span>" } ?? "drawn with seed \(s.seed)"))
        rows.append(("seed", String(s.seed)))
        rows.append(
            (
                "threads",
                threadsText(s.threads)
                    + (s.batchDecoders.map { "; a batch (sample) split between \($0) decoder\($0 == 1 ? "" : "s")" } ?? "")
            ))
        rows.append(("precision", precisionsText(results)))
        rows.append(("cache", "\(megabytes(s.cacheBytes)) MB"))
        rows.append(
            (
                "decoding",
                (s.skipsNonReferenceFrames ? "non-reference frames before a target skipped" : "every frame decoded (--no-skip-nonref)")
                    + (s.convertsToRGB ? "; each landed frame converted to RGB" : "; no RGB conversion (--no-convert)")
            ))
        rows.append(("FFmpeg", escape(s.librariesText)))
        rows.append(("CPU", escape(s.cpuModel ?? "unknown") + ", \(ProcessInfo.processInfo.activeProcessorCount) cores online"))
        rows.append(("date", s.isoDate))
        return keyValueTable(rows)
    }

    /// A two-column table of settings, keys on the left.
    static func keyValueTable(_ rows: [(String, String)]) -> String {
        "<h2>Run settings</h2>\n<table class=\"settings\">"
            + rows.map { "<tr><th>\($0.0)</th><td>\($0.1)</td></tr>" }.joined(separator: "\n") + "</table>\n"
    }

    /// One row per workload: counts, latencies, throughput beside ffmpeg's, memory.
    static func summaryTable(_ results: [BenchResult]) -> String {
        var table =
            "<table class=\"summary\"><tr><th>workload</th><th>n</th><th>precision</th><th>threads</th><th>open<br>ms</th>"
            + "<th>median<br>ms</th><th>p95<br>ms</th><th>mean<br>ms</th><th>max<br>ms</th><th>fps<br>(ffmpeg -threads 1)</th>"
            + "<th>peak RSS<br>MB</th><th>pool peak<br>MB</th><th>pool bound<br>MB</th></tr>\n"
        for r in results {
            table += "<tr><td>\(r.workload.rawValue)</td><td>\(r.samples.count)</td><td>\(escape(r.precision.description))</td>"
            table += "<td>\(r.threads)</td><td>\(r.openLatency.milliseconds.fixed(1))</td>"
            for value in [r.median, r.p95, r.mean, r.max] { table += "<td>\(milliseconds(value))</td>" }
            table += "<td>\(framesPerSecondText(r))</td>"
            table += "<td>\(r.peakResidentBytes.map { String(megabytes($0)) } ?? "not measured")</td>"
            for bytes in [r.poolPeakBytes, r.poolBoundBytes] { table += "<td>\(bytes.map { String(megabytes($0)) } ?? "-")</td>" }
            table += "</tr>\n"
        }
        return table + "</table>\n<p class=\"note\">Peak RSS is each workload's own (Linux VmHWM, reset before the workload)"
            + (results.last?.processPeakResidentBytes.map { "; the process's peak over the run was \(megabytes($0)) MB" } ?? "")
            + ".</p>\n"
    }

    /// A workload's charts, or the reason there are none.
    static func workloadSection(_ r: BenchResult) -> String {
        var section = "<section class=\"workload\"><h2>\(r.workload.rawValue): \(escape(r.workload.summary))</h2>\n"
        if r.samples.isEmpty {
            section += "<p class=\"empty\">No measurements: this workload ran no operations (n = 0), so it has no latencies to draw."
            if r.workload == .thumbnails && r.settings.width == nil { section += " Audio has no pictures to make thumbnails of." }
            section += "</p>"
        } else {
            section += "<div class=\"charts\">\(histogram(r))\(scatter(r))</div>"
        }
        return section + "</section>\n"
    }

    /// "320.9" and beside it ffmpeg's figure and the ratio, for the sequential workload.
    static func framesPerSecondText(_ r: BenchResult) -> String {
        guard r.workload == .sequential, r.framesPerSecond.isFinite else { return missing }
        var text = r.framesPerSecond.fixed(1)
        if let ffmpeg = r.ffmpegFramesPerSecond, ffmpeg > 0 {
            text += "<br><span class=\"baseline\">ffmpeg \(ffmpeg.fixed(1)): \((r.framesPerSecond / ffmpeg).fixed(2))x</span>"
        } else {
            text += "<br><span class=\"baseline\">ffmpeg not run</span>"
        }
        return text
    }

    /// Each precision used, with the workloads that used it.
    static func precisionsText(_ results: [BenchResult]) -> String {
        var order: [String] = [], workloads: [String: [String]] = [:]
        for r in results {
            let name = r.precision.description
            if workloads[name] == nil { order.append(name) }
            workloads[name, default: []].append(r.workload.rawValue)
        }
        return order.map { "\(escape($0)) (\(workloads[$0]!.joined(separator: ", ")))" }.joined(separator: "; ")
    }

    /// The decoder threads as a reader reads them: "1 decoder thread", "0 (FFmpeg's choice)".
    static func threadsText(_ threads: Int) -> String {
        threads == 0 ? "0 (FFmpeg's choice)" : "\(threads) decoder thread\(threads == 1 ? "" : "s")"
    }

    /// What a cell shows when there is no value.
    static let missing = "–"

    /// A latency cell: three decimals, or the missing mark when there was nothing to measure.
    static func milliseconds(_ value: Double) -> String { value.isFinite ? value.fixed(3) : missing }

    /// Bytes as whole megabytes (MiB), as `peak_rss_mb` counts them.
    static func megabytes(_ bytes: Int) -> Int { bytes / 1_048_576 }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
