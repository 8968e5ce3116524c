/// Text laid out in columns, for tables and help: padding, right alignment, fixed decimals.

extension String {
    /// The string padded with spaces to `width`, and always at least one space past it.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    /// The string right-aligned in `width` columns (never cut).
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension Double {
    /// Fixed-point text with `digits` decimals, for tables.
    func fixed(_ digits: Int) -> String {
        guard isFinite, abs(self) < 1e12 else { return description }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(self) * scale).rounded()
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        let fractionText = String(fraction)
        let sign = self < 0 && scaled != 0 ? "-" : ""
        return "\(sign)\(whole)." + String(repeating: "0", count: max(0, digits - fractionText.count)) + fractionText
    }
}
