import FrameSeek

extension BenchReport {
    /// One colour per encode, in the order given; the first is the single-file report's blue.
    static let encodeColors = ["#4a7fb5", "#d9822b", "#3a9a5b", "#b5484a", "#7a5bb5", "#8a8a3a"]

    /// The side-by-side part of a report on several encodes: each encode's structure and seek
    /// cost in one table, the verdicts, and per seek workload latency and bytes against the
    /// distance from the keyframe, every encode in its own colour.
    static func sideBySideSection(_ results: [BenchResult], files: [String], network: NetworkModel?, verdicts: [String]) -> String {
        var section = "<section class=\"side-by-side\"><h2>\(files.count) encodes side by side</h2>\n"
        section +=
            "<p class=\"legend\">"
            + files.enumerated().map { index, file in
                "<span class=\"key encode\"><span class=\"swatch\" style=\"background:\(color(index))\"></span>\(escape(SeekCostSummary.name(file)))</span>"
            }.joined() + "</p>\n"
        section +=
            "<p class=\"note\">The seeks of random, scrub and long go to the same targets in every encode (the same "
            + "times, or the same fractions of each duration). Bytes and requests are counted, not estimated."
            + (network.map {
                " Columns marked <em>modeled</em> add each operation's modeled transfer over \(escape($0.description)): "
                    + "requests x RTT + bytes x 8 / bandwidth; they are a model, not a measurement."
            } ?? "") + "</p>\n"
        section += costTable(results, files: files, network: network)
        if !verdicts.isEmpty {
            section += "<ul class=\"verdicts\">" + verdicts.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
        }
        for workload in orderedWorkloads(results) where SideBySide.sharesTargets(workload) {
            let group = results.filter { $0.workload == workload }
            section += "<h3>\(workload.rawValue): seek-cost profile</h3>\n<div class=\"charts\">"
            section += encodeScatter(
                group, files: files, title: "latency against distance from the keyframe",
                yLabel: "latency (ms)"
            ) { $0.latency.milliseconds }
            if group.contains(where: { $0.samples.contains { $0.reads != nil } }) {
                section += encodeScatter(group, files: files, title: "bytes read per seek", yLabel: "kB read") {
                    $0.reads.map { Double($0.bytes) / 1000 }
                }
            }
            section += "</div>\n"
        }
        return section + "</section>\n"
    }

    /// A row per encode and workload: the frame table's structure, then what the operations
    /// cost at the median and p95, and per operation the bytes and requests.
    static func costTable(_ results: [BenchResult], files: [String], network: NetworkModel?) -> String {
        var table =
            "<table class=\"summary cost\"><tr><th>encode</th><th>GOP<br>median (min–max)</th><th>keyframes</th>"
            + "<th>reorder<br>depth</th><th>workload</th><th>n</th><th>p50<br>ms</th><th>p95<br>ms</th>"
            + "<th>bytes per op<br>median</th><th>requests per op<br>median</th><th>open<br>bytes, requests</th>"
        if network != nil { table += "<th>modeled<br>p50 ms</th><th>modeled<br>p95 ms</th>" }
        table += "</tr>\n"
        for r in results {
            let s = r.settings, cost = SeekCostSummary(r, network: network)
            let index = files.firstIndex(of: r.input) ?? 0
            let requests = LatencySamples(milliseconds: r.samples.compactMap { $0.reads?.requests.map(Double.init) })
            table +=
                "<tr><td><span class=\"swatch\" style=\"background:\(color(index))\"></span>\(escape(SeekCostSummary.name(r.input)))</td>"
            table += "<td>\(s.medianGOP.map { "\($0) (\(s.minimumGOP ?? $0)–\(s.maximumGOP ?? $0))" } ?? missing)</td>"
            table += "<td>\(s.keyframeCount.map(String.init) ?? missing)</td><td>\(s.reorderDepth.map(String.init) ?? missing)</td>"
            table += "<td>\(r.workload.rawValue)</td><td>\(r.samples.count)</td>"
            table += "<td>\(milliseconds(cost.latencies.median))</td><td>\(milliseconds(cost.latencies.p95))</td>"
            table += "<td>\(cost.bytesPerOperation.count > 0 ? String(Int(cost.bytesPerOperation.median)) : missing)</td>"
            table += "<td>\(requests.count > 0 ? requests.median.fixed(1) : missing)</td>"
            table += "<td>\(r.openReads.bytes)\(r.openReads.requests.map { ", \($0)" } ?? "")</td>"
            if network != nil {
                table += "<td>\(cost.modeledSeeks.map { milliseconds($0.median) } ?? missing)</td>"
                table += "<td>\(cost.modeledSeeks.map { milliseconds($0.p95) } ?? missing)</td>"
            }
            table += "</tr>\n"
        }
        return table + "</table>\n"
    }

    /// `value` of every sample against frames after the keyframe, one colour per encode.
    static func encodeScatter(
        _ group: [BenchResult], files: [String], title: String, yLabel: String,
        value: (BenchSample) -> Double?
    ) -> String {
        let points = group.flatMap { r in r.samples.compactMap { s in value(s).map { (r, s, $0) } } }
        guard let largest = points.map(\.2).max() else { return "" }
        let xAxis = LinearAxis(upTo: Double(points.map(\.1.framesAfterKeyframe).max() ?? 0), wholeNumbers: true)
        let yAxis = LinearAxis(upTo: largest)
        var chart = SVGChart(kind: "scatter encodes", title: title, xLabel: "frames after the keyframe", yLabel: yLabel)
        chart.inset = 8
        chart.yTicks(yAxis.ticks, fraction: yAxis.fraction, label: yAxis.label)
        chart.xTicks(xAxis.ticks, fraction: xAxis.fraction, label: xAxis.label)
        for (result, sample, y) in points {
            let index = files.firstIndex(of: result.input) ?? 0
            chart.add(
                "<circle class=\"encode-point\" cx=\(quoted(chart.x(xAxis.fraction(Double(sample.framesAfterKeyframe))))) "
                    + "cy=\(quoted(chart.y(yAxis.fraction(y)))) r=\"3\" fill=\"\(color(index))\" fill-opacity=\"0.6\">"
                    + "<title>\(escape(SeekCostSummary.name(result.input))): \(escape(pointTitle(sample)))</title></circle>")
        }
        return chart.finished()
    }

    /// The workloads of `results` in the order they first appear.
    static func orderedWorkloads(_ results: [BenchResult]) -> [BenchWorkload] {
        var seen: [BenchWorkload] = []
        for r in results where !seen.contains(r.workload) { seen.append(r.workload) }
        return seen
    }

    /// Encode `index`'s colour.
    static func color(_ index: Int) -> String { encodeColors[index % encodeColors.count] }
}
