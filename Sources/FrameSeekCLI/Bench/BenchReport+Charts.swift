import FrameSeek

extension BenchReport {
    /// The latency histogram: bins a fifth of a tick wide (so bin edges are round numbers too)
    /// from 0 to the axis end, counts on a whole-number axis, the median marked.
    static func histogram(_ r: BenchResult) -> String {
        let values = r.sortedMilliseconds
        guard let maximum = values.last else { return "" }
        let xAxis = LinearAxis(upTo: maximum)
        var binWidth = xAxis.step / 5
        if xAxis.upper / binWidth > 40 { binWidth = xAxis.step / 2 }
        let bins = Int((xAxis.upper / binWidth).rounded())
        var counts = [Int](repeating: 0, count: bins)
        for value in values { counts[min(bins - 1, max(0, Int(value / binWidth)))] += 1 }
        let yAxis = LinearAxis(upTo: Double(counts.max() ?? 1), wholeNumbers: true)
        var chart = SVGChart(kind: "histogram", title: "latency distribution", xLabel: "latency (ms)", yLabel: "operations")
        chart.yTicks(yAxis.ticks, fraction: yAxis.fraction, label: yAxis.label)
        let binPixels = chart.plotWidth / Double(bins)
        for (bin, count) in counts.enumerated() where count > 0 {
            let low = Double(bin) * binWidth, height = chart.plotHeight * yAxis.fraction(Double(count))
            let range = "\(LinearAxis.label(low, step: binWidth))–\(LinearAxis.label(low + binWidth, step: binWidth)) ms"
            chart.add(
                "<rect x=\(quoted(chart.x(xAxis.fraction(low)) + 0.5)) y=\(quoted(chart.baseline - height)) "
                    + "width=\(quoted(max(1, binPixels - 1))) height=\(quoted(height)) fill=\"#4a7fb5\">"
                    + "<title>\(range): \(count) operation\(count == 1 ? "" : "s")</title></rect>")
        }
        chart.xTicks(xAxis.ticks, fraction: xAxis.fraction, label: xAxis.label)
        let medianX = chart.x(xAxis.fraction(r.median))
        chart.add(
            "<line x1=\(quoted(medianX)) y1=\(quoted(chart.top)) x2=\(quoted(medianX)) y2=\(quoted(chart.baseline)) "
                + "stroke=\"#c33\" stroke-dasharray=\"4 3\"/>")
        // The label goes left of the line when the median sits near the right edge.
        let labelLeft = medianX > chart.x(0.7)
        chart.add(
            "<text x=\(quoted(medianX + (labelLeft ? -4 : 4))) y=\(quoted(chart.top + 12)) "
                + "text-anchor=\"\(labelLeft ? "end" : "start")\" class=\"halo median\">median \(r.median.fixed(2)) ms</text>")
        return chart.finished()
    }

    /// Latency against frames from the keyframe decoding started at; each point says in its
    /// tooltip which operation it is.
    static func scatter(_ r: BenchResult) -> String {
        guard let maxLatency = r.samples.map(\.latency.milliseconds).max() else { return "" }
        let xAxis = LinearAxis(upTo: Double(r.samples.map(\.framesAfterKeyframe).max() ?? 0), wholeNumbers: true)
        let yAxis = LinearAxis(upTo: maxLatency)
        var chart = SVGChart(
            kind: "scatter", title: "latency against distance from the keyframe",
            xLabel: "frames after the keyframe", yLabel: "latency (ms)")
        chart.inset = 8
        chart.yTicks(yAxis.ticks, fraction: yAxis.fraction, label: yAxis.label)
        chart.xTicks(xAxis.ticks, fraction: xAxis.fraction, label: xAxis.label)
        for sample in r.samples {
            let latency = sample.latency.milliseconds
            let px = chart.x(xAxis.fraction(Double(sample.framesAfterKeyframe))), py = chart.y(yAxis.fraction(latency))
            chart.add(
                "<circle cx=\(quoted(px)) cy=\(quoted(py)) r=\"3\" fill=\"#4a7fb5\" fill-opacity=\"0.6\">"
                    + "<title>\(escape(pointTitle(sample)))</title></circle>")
        }
        return chart.finished()
    }

    /// A point's tooltip: target, latency, frame index, frames decoded.
    static func pointTitle(_ s: BenchSample) -> String {
        "target \(s.target.seconds.fixed(3)) s, latency \(s.latency.milliseconds.fixed(3)) ms, "
            + (s.isIndexed ? "frame \(s.frameIndex), " : "\(s.framesAfterKeyframe) frames after its keyframe, ")
            + "\(s.framesDecoded) frame\(s.framesDecoded == 1 ? "" : "s") decoded"
            + (s.reads.map { ", \($0.bytes) bytes" + ($0.requests.map { " in \($0) request\($0 == 1 ? "" : "s")" } ?? "") } ?? "")
            + (s.servedFromCache ? ", served from the cache or a parked decoder" : "")
    }
}
