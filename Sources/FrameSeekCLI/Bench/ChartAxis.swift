import Foundation

/// A chart axis whose ticks are round numbers: 1, 2 or 5 times a power of ten, from 0 up to
/// the first tick at or above the data's maximum, so no point falls off the chart and every
/// label is a number a reader would write (never 12.5 frames, never 0.873 ms).
package struct LinearAxis: Sendable {
    /// The distance between ticks: 1, 2 or 5 times a power of ten (at least 1 on a whole-number axis).
    package let step: Double
    /// The axis ends at this tick.
    package let upper: Double
    /// Ticks from 0 to `upper`, `step` apart.
    package var ticks: [Double] { (0...Int((upper / step).rounded())).map { Double($0) * step } }

    /// An axis from 0 that holds `maximum` with about `tickCount` intervals. `wholeNumbers`
    /// keeps every tick an integer, for counts and frame distances.
    package init(upTo maximum: Double, tickCount: Int = 5, wholeNumbers: Bool = false) {
        // Capped so that the axis's end, a tick above the maximum, is still finite.
        let top = maximum.isFinite && maximum > 0 ? Swift.min(maximum, 1e300) : 1
        var step = Self.roundStep(atLeast: top / Double(Swift.max(1, tickCount)))
        if wholeNumbers { step = Swift.max(1, step) }
        self.step = step
        // The epsilon keeps a maximum that is already a tick (10 on steps of 2) from adding one more.
        self.upper = (top / step - 1e-9).rounded(.up) * step
    }

    /// The smallest of 1, 2 and 5 times a power of ten that is at least `rough`.
    package static func roundStep(atLeast rough: Double) -> Double {
        let power = pow(10, (log10(rough)).rounded(.down))
        for mantissa in [1.0, 2, 5, 10] where mantissa * power >= rough * (1 - 1e-12) { return mantissa * power }
        return 10 * power
    }

    /// Where `value` sits along the axis, 0 at the origin and 1 at `upper`.
    package func fraction(_ value: Double) -> Double { value / upper }

    /// A tick's label, with as many decimals as the step needs and no more.
    package func label(_ value: Double) -> String { Self.label(value, step: step) }

    /// `value` written with the decimals a tick spacing of `step` needs.
    static func label(_ value: Double, step: Double) -> String {
        let exponent = (-log10(step)).rounded(.up)
        // A step of 0 or NaN (never one of the axes above) gets whole numbers rather than a trap.
        let decimals = exponent.isFinite ? Int(Swift.min(Swift.max(0, exponent), 20)) : 0
        guard decimals == 0 else { return String(format: "%.\(decimals)f", value) }
        // A whole number beyond Int (a tick of 1e20 ms) is written by printf, which cannot trap.
        return Int(exactly: value.rounded()).map(String.init) ?? String(format: "%.0f", value)
    }
}

/// A logarithmic axis for values that span decades (a cache hit at 2 ms beside a seek at
/// 500 ms): from the power of ten at or below the smallest value to the one at or above the
/// largest, ticks at 1, 2 and 5 in each decade when there are few decades, else at the powers.
package struct LogAxis: Sendable {
    /// The axis starts at this power of ten.
    package let lower: Double
    /// The axis ends at this power of ten.
    package let upper: Double
    /// The tick values, ascending, every one 1, 2 or 5 times a power of ten.
    package let ticks: [Double]

    /// An axis holding every value in `minimum...maximum` (both positive).
    package init(from minimum: Double, to maximum: Double) {
        let low = Self.exponent(of: minimum).rounded(.down)
        var high = Self.exponent(of: maximum).rounded(.up)
        if high <= low { high = low + 1 }
        lower = pow(10, low)
        upper = pow(10, high)
        let decades = Int(high - low)
        let mantissas: [Double] = decades <= 3 ? [1, 2, 5] : [1]
        var ticks: [Double] = []
        for decade in 0..<decades {
            for mantissa in mantissas { ticks.append(mantissa * pow(10, low + Double(decade))) }
        }
        ticks.append(upper)
        self.ticks = ticks
    }

    /// `log10(value)` within -9...300: values below 1e-9 (and 0) sit at the bottom, and an
    /// infinite or NaN value cannot make the number of decades one no `Int` holds.
    private static func exponent(of value: Double) -> Double {
        let exponent = log10(value)
        guard !exponent.isNaN else { return -9 }
        return Swift.min(Swift.max(exponent, -9), 300)
    }

    /// Where `value` sits along the axis, 0 at `lower` and 1 at `upper`.
    package func fraction(_ value: Double) -> Double {
        (log10(Swift.max(value, lower)) - log10(lower)) / (log10(upper) - log10(lower))
    }

    /// A tick's label: whole numbers plainly, fractions with the decimals they need.
    package func label(_ value: Double) -> String { LinearAxis.label(value, step: value) }
}
