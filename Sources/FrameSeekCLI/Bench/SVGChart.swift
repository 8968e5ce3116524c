/// One inline SVG chart: a plot area with a title, axis labels, ticks and grid lines. The
/// report's charts draw their marks into it; nothing is scripted and nothing is fetched.
struct SVGChart {
    /// The whole picture's size, in pixels.
    let width: Double, height: Double
    /// Room around the plot area for the title, the tick labels and the axis labels.
    let left = 60.0, right = 14.0, top = 28.0, bottom = 40.0
    /// Room inside the plot area on the left and right, so points at the ends of the x axis
    /// are not drawn over the axis line (0 for bars, which start on it).
    var inset = 0.0
    /// The markup so far.
    private(set) var markup = ""

    /// The plot area's size.
    var plotWidth: Double { width - left - right }
    var plotHeight: Double { height - top - bottom }
    /// The plot area's baseline (y of the x axis).
    var baseline: Double { top + plotHeight }

    /// A chart of `width` x `height` with `title` above the plot and the two axis labels.
    /// `kind` names the chart in a class attribute, so tests and styles can find it.
    init(kind: String, width: Double = 480, height: Double = 280, title: String, xLabel: String, yLabel: String) {
        self.width = width
        self.height = height
        markup =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart \(kind)\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fcfcfc\" stroke=\"#e2e2e2\"/>"
            + "<text x=\"\(left)\" y=\"17\" class=\"title\">\(BenchReport.escape(title))</text>"
            + "<text x=\(quoted(left + plotWidth / 2)) y=\(quoted(height - 6)) text-anchor=\"middle\">\(BenchReport.escape(xLabel))</text>"
            + "<text x=\"14\" y=\(quoted(top + plotHeight / 2)) transform=\"rotate(-90 14 \((top + plotHeight / 2).fixed(1)))\" text-anchor=\"middle\">\(BenchReport.escape(yLabel))</text>"
    }

    /// Appends raw SVG markup (marks drawn by the caller).
    mutating func add(_ svg: String) { markup += svg }

    /// x of a fraction (0...1) along the plot's width.
    func x(_ fraction: Double) -> Double { left + inset + (plotWidth - 2 * inset) * fraction }
    /// y of a fraction (0...1) up the plot's height.
    func y(_ fraction: Double) -> Double { baseline - plotHeight * fraction }

    /// Horizontal grid lines and labels at `ticks`, placed by `fraction`.
    mutating func yTicks(_ ticks: [Double], fraction: (Double) -> Double, label: (Double) -> String) {
        for tick in ticks {
            let ty = y(fraction(tick))
            markup += "<line x1=\(quoted(left)) y1=\(quoted(ty)) x2=\(quoted(width - right)) y2=\(quoted(ty)) class=\"grid\"/>"
            markup += "<text x=\(quoted(left - 5)) y=\(quoted(ty + 4)) text-anchor=\"end\" class=\"tick y\">\(label(tick))</text>"
        }
    }

    /// Tick marks and labels under the x axis at `ticks`, placed by `fraction`.
    mutating func xTicks(_ ticks: [Double], fraction: (Double) -> Double, label: (Double) -> String) {
        for tick in ticks {
            let tx = x(fraction(tick))
            markup += "<line x1=\(quoted(tx)) y1=\(quoted(baseline)) x2=\(quoted(tx)) y2=\(quoted(baseline + 4)) stroke=\"#555\"/>"
            markup += "<text x=\(quoted(tx)) y=\(quoted(baseline + 16)) text-anchor=\"middle\" class=\"tick x\">\(label(tick))</text>"
        }
    }

    /// The two axis lines, drawn last so marks never cover them; closes the picture.
    func finished() -> String {
        markup + "<line x1=\(quoted(left)) y1=\(quoted(baseline)) x2=\(quoted(width - right)) y2=\(quoted(baseline)) stroke=\"#555\"/>"
            + "<line x1=\(quoted(left)) y1=\(quoted(top)) x2=\(quoted(left)) y2=\(quoted(baseline)) stroke=\"#555\"/></svg>"
    }
}

/// A coordinate as an SVG attribute value, quotes included, to one decimal.
func quoted(_ value: Double) -> String { "\"\(value.fixed(1))\"" }
