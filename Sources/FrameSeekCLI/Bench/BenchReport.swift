import Foundation
import FrameSeek

/// The bench report: one self-contained HTML file, inline SVG, no scripts, nothing fetched.
///
/// Per workload: a summary row, the latency distribution, and latency against the distance
/// from the keyframe, which is where a GOP structure shows: exact-seek cost grows with the
/// number of frames decoded from the keyframe.
enum BenchReport {
    static func html(_ results: [BenchResult]) -> String {
        var body = "<h1>FrameSeek seek latency</h1>\n"
        if let file = results.first?.file { body += "<p class=\"file\">\(escape(file))</p>\n" }
        body += "<table><tr><th>workload</th><th>n</th><th>open ms</th><th>median ms</th><th>p95 ms</th><th>mean ms</th><th>max ms</th><th>peak RSS MB</th></tr>\n"
        for r in results {
            body += "<tr><td>\(r.workload.rawValue)</td><td>\(r.samples.count)</td><td>\(r.openLatency.milliseconds.fixed(1))</td>"
            body += "<td>\(r.median.fixed(3))</td><td>\(r.p95.fixed(3))</td><td>\(r.mean.fixed(3))</td><td>\(r.max.fixed(3))</td>"
            body += "<td>\(r.peakResidentBytes.map { String($0 / 1_048_576) } ?? "-")</td></tr>\n"
        }
        body += "</table>\n"
        for r in results {
            body += "<section><h2>\(r.workload.rawValue): \(escape(r.workload.summary))</h2>\n"
            body += "<div class=\"charts\">\(histogram(r))\(scatter(r))</div></section>\n"
        }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>FrameSeek bench</title>
        <style>
        body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
        table { border-collapse: collapse; margin: 1em 0; }
        th, td { border: 1px solid #ccc; padding: 4px 10px; text-align: right; }
        th:first-child, td:first-child { text-align: left; }
        .charts { display: flex; gap: 2em; flex-wrap: wrap; }
        .file { color: #666; font-family: monospace; }
        svg text { font: 11px system-ui, sans-serif; fill: #333; }
        </style></head><body>
        \(body)</body></html>

        """
    }

    private static let width = 460.0, height = 260.0, left = 52.0, bottom = 36.0, top = 24.0, right = 12.0

    /// Latency histogram: 24 bins from 0 to the maximum.
    static func histogram(_ r: BenchResult) -> String {
        let values = r.sortedMilliseconds
        guard let maximum = values.last, maximum > 0 else { return "" }
        let bins = 24
        var counts = [Int](repeating: 0, count: bins)
        for v in values { counts[min(bins - 1, Int(v / maximum * Double(bins)))] += 1 }
        let tallest = Double(counts.max() ?? 1)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        var svg = frame(title: "latency distribution", xLabel: "latency (ms)", yLabel: "operations")
        for (i, c) in counts.enumerated() where c > 0 {
            let x = left + plotWidth * Double(i) / Double(bins)
            let h = plotHeight * Double(c) / tallest
            svg += "<rect x=\"\(x.fixed(1))\" y=\"\((top + plotHeight - h).fixed(1))\" width=\"\((plotWidth / Double(bins) - 1).fixed(1))\" height=\"\(h.fixed(1))\" fill=\"#4a7fb5\"/>"
        }
        svg += axisTicks(maxX: maximum, maxY: tallest, wholeY: true)
        let medianX = left + plotWidth * r.median / maximum
        svg += "<line x1=\"\(medianX.fixed(1))\" y1=\"\(top)\" x2=\"\(medianX.fixed(1))\" y2=\"\(top + plotHeight)\" stroke=\"#c33\" stroke-dasharray=\"4 3\"/>"
        svg += "<text x=\"\((medianX + 4).fixed(1))\" y=\"\(top + 12)\" fill=\"#c33\">median \(r.median.fixed(2))</text>"
        return svg + "</svg>"
    }

    /// Latency against frames from the keyframe decoding started at.
    static func scatter(_ r: BenchResult) -> String {
        let points = r.samples.map { (Double($0.frameIndex - ($0.keyFrameIndex ?? $0.frameIndex)), $0.latency.milliseconds) }
        guard let maxY = points.map(\.1).max(), maxY > 0 else { return "" }
        let maxX = max(1, points.map(\.0).max() ?? 1)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        var svg = frame(title: "latency against distance from the keyframe", xLabel: "frames after the keyframe", yLabel: "latency (ms)")
        for (x, y) in points {
            let px = left + plotWidth * max(0, x) / maxX, py = top + plotHeight - plotHeight * y / maxY
            svg += "<circle cx=\"\(px.fixed(1))\" cy=\"\(py.fixed(1))\" r=\"3\" fill=\"#4a7fb5\" fill-opacity=\"0.6\"/>"
        }
        svg += axisTicks(maxX: maxX, maxY: maxY)
        return svg + "</svg>"
    }

    private static func frame(title: String, xLabel: String, yLabel: String) -> String {
        let plotHeight = height - top - bottom
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>"
            + "<text x=\"\(left)\" y=\"15\" font-weight=\"bold\">\(escape(title))</text>"
            + "<line x1=\"\(left)\" y1=\"\(top + plotHeight)\" x2=\"\(width - right)\" y2=\"\(top + plotHeight)\" stroke=\"#555\"/>"
            + "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(top + plotHeight)\" stroke=\"#555\"/>"
            + "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 4)\" text-anchor=\"middle\">\(escape(xLabel))</text>"
            + "<text x=\"12\" y=\"\(top + plotHeight / 2)\" transform=\"rotate(-90 12 \(top + plotHeight / 2))\" text-anchor=\"middle\">\(escape(yLabel))</text>"
    }

    private static func axisTicks(maxX: Double, maxY: Double, wholeY: Bool = false) -> String {
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        var svg = ""
        for i in 0...4 {
            let fx = Double(i) / 4
            svg += "<text x=\"\((left + plotWidth * fx).fixed(1))\" y=\"\(top + plotHeight + 14)\" text-anchor=\"middle\">\(tick(maxX * fx))</text>"
            let y = maxY * fx
            // Counts are whole: label only the ticks that fall on whole numbers.
            if wholeY && y != y.rounded() { continue }
            svg += "<text x=\"\(left - 4)\" y=\"\((top + plotHeight - plotHeight * fx + 4).fixed(1))\" text-anchor=\"end\">\(wholeY ? String(Int(y)) : tick(y))</text>"
        }
        return svg
    }

    private static func tick(_ v: Double) -> String { v >= 10 ? String(Int(v.rounded())) : v.fixed(v >= 1 ? 1 : 3) }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
