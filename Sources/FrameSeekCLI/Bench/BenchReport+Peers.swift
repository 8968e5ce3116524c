import Foundation

extension BenchReport {
    /// What the peers were measured on, for a report drawn from a peers file alone.
    static func peerSettingsTable(_ peers: PeerComparison) -> String {
        var rows: [(String, String)] = []
        if let file = peers.file { rows.append(("file", "<span class=\"mono\">\(escape(file))</span>")) }
        rows.append(("n", peers.count.map(String.init) ?? missing))
        rows.append(("seed", peers.seed.map(String.init) ?? missing))
        rows.append(("threads", peers.threads.map(threadsText) ?? missing))
        if let cpu = peers.cpuModel { rows.append(("CPU", escape(cpu))) }
        if let date = peers.date { rows.append(("date", escape(date))) }
        return keyValueTable(rows)
    }

    /// The grouped bar chart: per workload a group, per decoder a bar of its median with its
    /// p95 drawn lighter behind it, on a logarithmic axis (a 2 ms cache hit and a 500 ms seek
    /// both stay readable). Decoders that did not run, and wrong landings, are listed below.
    static func peersSection(_ peers: PeerComparison) -> String {
        var section = "<section class=\"peers\"><h2>Beside the peers</h2>\n<p class=\"note\">"
        section += [
            peers.file.map { "<span class=\"mono\">\(escape($0))</span>" }, peers.count.map { "n \($0)" },
            peers.seed.map { "seed \($0)" }, peers.threads.map(threadsText)
        ]
        .compactMap { $0 }.joined(separator: ", ")
        section +=
            ". Bars are medians; the lighter bar behind each is the p95. The numbers are the medians, in ms. Same file, same targets, same run.</p>\n"
        let colors = peerColors(peers)
        let drawn = peers.workloads.map { workload in (workload, workload.entries.filter { $0.medianSeconds != nil }) }
        let values = drawn.flatMap { $0.1.flatMap { [$0.medianSeconds, $0.p95Seconds].compactMap { $0 } } }.map { $0 * 1000 }
        if let smallest = values.min(), let largest = values.max() {
            section += peerChart(drawn, colors: colors, axis: LogAxis(from: smallest, to: largest))
            section +=
                "<p class=\"legend\">"
                + colors.map { peer, color in
                    "<span class=\"key\"><span class=\"swatch\" style=\"background:\(color)\"></span>\(escape(peer))</span>"
                }.joined() + "</p>\n"
        } else {
            section += "<p class=\"empty\">No measurements: no decoder in the peers file has a median to draw.</p>\n"
        }
        section += peerNotes(peers)
        return section + "</section>\n"
    }

    private static func peerChart(
        _ groups: [(PeerComparison.Workload, [PeerComparison.Entry])], colors: [(String, String)],
        axis: LogAxis
    ) -> String {
        let slot = 24.0, bar = 18.0, gap = 36.0
        let groupWidths = groups.map { max(1, Double($0.1.count)) * slot + gap }
        var chart = SVGChart(
            kind: "peers", width: max(480, 74 + groupWidths.reduce(0, +)), height: 340,
            title: "median and p95 seek latency per workload", xLabel: "workload", yLabel: "latency (ms, log scale)")
        chart.yTicks(axis.ticks, fraction: axis.fraction, label: axis.label)
        let color = Dictionary(uniqueKeysWithValues: colors)
        var x = chart.left + gap / 2
        for ((workload, entries), groupWidth) in zip(groups, groupWidths) {
            chart.add("<g class=\"peer-group\" data-workload=\"\(escape(workload.name))\">")
            for (position, entry) in entries.enumerated() {
                let left = x + Double(position) * slot + (slot - bar) / 2
                let fill = color[entry.peer] ?? "#888"
                let title = "<title>\(escape(barTitle(entry, workload: workload.name)))</title>"
                if let p95 = entry.p95Seconds {
                    let top = chart.y(axis.fraction(p95 * 1000))
                    chart.add(
                        "<rect class=\"peer-bar p95\" data-peer=\"\(escape(entry.peer))\" x=\(quoted(left)) y=\(quoted(top)) "
                            + "width=\(quoted(bar)) height=\(quoted(chart.baseline - top)) fill=\"\(fill)\" fill-opacity=\"0.3\">\(title)</rect>"
                    )
                }
                let median = entry.medianSeconds ?? 0
                let top = chart.y(axis.fraction(median * 1000))
                let wrong = (entry.wrongLandings ?? 0) > 0 ? " stroke=\"#c00\" stroke-width=\"2\"" : ""
                chart.add(
                    "<rect class=\"peer-bar median\" data-peer=\"\(escape(entry.peer))\" data-median-s=\"\(median)\" "
                        + "x=\(quoted(left + 2)) y=\(quoted(top)) width=\(quoted(bar - 4)) height=\(quoted(chart.baseline - top)) "
                        + "fill=\"\(fill)\"\(wrong)>\(title)</rect>")
                // The median's value, written upward above the taller of the two bars.
                let labelY = chart.y(axis.fraction(max(median, entry.p95Seconds ?? 0) * 1000)) - 3
                chart.add(
                    "<text x=\(quoted(left + bar / 2 + 3)) y=\(quoted(labelY)) transform=\"rotate(-90 \((left + bar / 2 + 3).fixed(1)) \(labelY.fixed(1)))\" "
                        + "class=\"value\">\(significant(median * 1000))</text>")
            }
            chart.add(
                "<text x=\(quoted(x + (groupWidth - gap) / 2)) y=\(quoted(chart.baseline + 16)) text-anchor=\"middle\" "
                    + "class=\"tick x\">\(escape(workload.name))</text></g>")
            x += groupWidth
        }
        return "<div class=\"charts\">" + chart.finished() + "</div>\n"
    }

    /// A bar's tooltip: the decoder, the workload, its median, p95, n and wrong landings.
    static func barTitle(_ e: PeerComparison.Entry, workload: String) -> String {
        var parts = ["\(e.peer), \(workload)"]
        if let median = e.medianSeconds { parts.append("median \(significant(median * 1000)) ms") }
        if let p95 = e.p95Seconds { parts.append("p95 \(significant(p95 * 1000)) ms") }
        if let n = e.count { parts.append("n \(n)") }
        if let wrong = e.wrongLandings { parts.append("\(wrong) wrong landing\(wrong == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// Decoders that did not run, and landings that were wrong: what a bar alone cannot say.
    private static func peerNotes(_ peers: PeerComparison) -> String {
        var notes: [String] = []
        for workload in peers.workloads {
            for entry in workload.entries {
                if entry.medianSeconds == nil {
                    notes.append(
                        "\(escape(entry.peer)) did not run on \(escape(workload.name)): \(escape(entry.errors.joined(separator: "; ")))")
                } else if let wrong = entry.wrongLandings, wrong > 0 {
                    let of = entry.count.map { " of \($0)" } ?? ""
                    notes.append(
                        "\(escape(entry.peer)) landed on the wrong frame for \(wrong)\(of) \(escape(workload.name)) targets (outlined in red)"
                    )
                }
            }
        }
        return notes.isEmpty ? "" : "<ul class=\"note\">" + notes.map { "<li>\($0)</li>" }.joined() + "</ul>\n"
    }

    /// One colour per decoder, in first-seen order; FrameSeek's is the report's own blue.
    private static func peerColors(_ peers: PeerComparison) -> [(String, String)] {
        let palette = ["#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]
        var colors: [(String, String)] = []
        for entry in peers.workloads.flatMap(\.entries) where !colors.contains(where: { $0.0 == entry.peer }) {
            let others = colors.filter { $0.0 != "frameseek" }.count
            colors.append((entry.peer, entry.peer == "frameseek" ? "#2b6cb0" : palette[others % palette.count]))
        }
        return colors
    }

    /// Three significant figures, as the Performance article's tables write latencies (2.2, 241, 0.004).
    static func significant(_ value: Double) -> String {
        guard value.isFinite, value > 0 else { return "0" }
        let decimals = max(0, 2 - Int(log10(value).rounded(.down)))
        return String(format: "%.\(decimals)f", value)
    }
}
