// The report's axes: ticks are round numbers (1, 2 or 5 times a power of ten), whole numbers
// on count and frame axes, and the axis always holds the data.

import Foundation
import FrameSeekCLI
import Testing

@Suite("Bench report axes")
struct BenchAxisTests {
    /// True when `value` is 1, 2 or 5 times a power of ten (checked by its decimal digits, not
    /// by the code under test's arithmetic).
    static func isRound(_ value: Double) -> Bool {
        let digits = String(format: "%.12e", value).split(separator: "e")[0]
        let mantissa = Double(digits)!
        return [1.0, 2, 5].contains { abs(mantissa - $0) < 1e-9 }
    }

    @Test(
        "the step is the smallest round number at least the rough step",
        arguments: [
            (0.3, 0.5), (1.0, 1.0), (1.01, 2.0), (2.5, 5.0), (3.0, 5.0), (7.0, 10.0), (12.0, 20.0), (0.0042, 0.005), (460.0, 500.0)
        ])
    func roundSteps(_ rough: Double, _ expected: Double) {
        #expect(abs(LinearAxis.roundStep(atLeast: rough) - expected) < expected * 1e-12)
    }

    @Test(
        "known axes: ticks from 0 to the first tick at or above the maximum",
        arguments: [
            (12.5, false, [0.0, 5, 10, 15]),
            (0.87, false, [0, 0.2, 0.4, 0.6, 0.8, 1.0]),
            (100.0, false, [0, 20, 40, 60, 80, 100]),
            (3.0, true, [0, 1, 2, 3]),
            (0.4, true, [0, 1]),
            (249.0, true, [0, 50, 100, 150, 200, 250]),
            (0.0, true, [0, 1])
        ])
    func knownAxes(_ maximum: Double, _ whole: Bool, _ expected: [Double]) {
        let ticks = LinearAxis(upTo: maximum, wholeNumbers: whole).ticks
        #expect(ticks.count == expected.count, "\(ticks)")
        for (tick, want) in zip(ticks, expected) { #expect(abs(tick - want) < 1e-9, "\(ticks)") }
    }

    @Test("for any maximum: a round step, ticks on multiples of it, the maximum inside, at most 6 intervals")
    func anyMaximum() {
        var generator = SystemRandomNumberGenerator()
        var failures: [String] = []
        for _ in 0..<2000 {
            let maximum = pow(10, Double.random(in: -4...5, using: &generator))
            for whole in [false, true] {
                let axis = LinearAxis(upTo: maximum, wholeNumbers: whole)
                let ticks = axis.ticks
                var problems: [String] = []
                if !Self.isRound(axis.step) { problems.append("step \(axis.step) is not round") }
                if axis.upper < maximum * (1 - 1e-12) || ticks.count > 7 { problems.append("does not hold the maximum in 6 intervals") }
                if whole && !ticks.allSatisfy({ $0 == $0.rounded() }) { problems.append("a fractional tick on a whole axis") }
                if !ticks.allSatisfy({ abs($0 / axis.step - ($0 / axis.step).rounded()) < 1e-9 }) { problems.append("a tick off the step") }
                // A label is the number itself: never 12.5 on a whole axis, nor 0.30000000000000004.
                if !ticks.allSatisfy({ abs(Double(axis.label($0))! - $0) <= axis.step * 1e-6 }) {
                    problems.append("a label that is not its tick")
                }
                if !problems.isEmpty { failures.append("max \(maximum) whole \(whole): \(ticks): \(problems.joined(separator: ", "))") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) axes, first: \(failures.prefix(3))")
    }

    @Test(
        "log axes: powers of ten at the ends, every tick 1, 2 or 5 times a power of ten",
        arguments: [
            (0.22, 103.0), (2.2, 630.0), (0.004, 0.2), (5.0, 5.0)
        ])
    func logAxes(_ smallest: Double, _ largest: Double) {
        let axis = LogAxis(from: smallest, to: largest)
        #expect(axis.lower <= smallest && axis.upper >= largest)
        #expect(Self.isRound(axis.lower) && Self.isRound(axis.upper))
        #expect(axis.ticks.allSatisfy(Self.isRound), "\(axis.ticks)")
        #expect(axis.ticks == axis.ticks.sorted())
        #expect(axis.fraction(axis.lower) == 0 && abs(axis.fraction(axis.upper) - 1) < 1e-12)
    }

    @Test(
        "axes on values beyond an Int, infinite or NaN are drawn, not trapped on: finite ends, labels that are their ticks",
        arguments: [
            (1e20, 1e20), (1e-3, 1e20), (1e306, .infinity), (0.0, .infinity), (.nan, .nan), (-1.0, 0.0),
            (Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude)
        ])
    func extremeLogAxes(_ smallest: Double, _ largest: Double) {
        let axis = LogAxis(from: smallest, to: largest)
        #expect(axis.lower.isFinite && axis.upper.isFinite && axis.lower < axis.upper)
        #expect(axis.ticks.allSatisfy(Self.isRound), "\(axis.ticks)")
        // Read back by Double's own parser: the label is the number, not a rounding of it to Int.
        #expect(axis.ticks.allSatisfy { abs(Double(axis.label($0))! - $0) <= $0 * 1e-9 }, "\(axis.ticks.map(axis.label))")
    }

    @Test("a whole-number label beyond Int is written in full; a linear axis on the largest Double ends finite")
    func labelsBeyondInt() {
        #expect(LogAxis(from: 1e20, to: 1e20).label(1e20) == "100000000000000000000")
        let axis = LinearAxis(upTo: .greatestFiniteMagnitude)
        #expect(axis.upper.isFinite && !axis.ticks.isEmpty)
        #expect(axis.ticks.allSatisfy { Double(axis.label($0)) != nil })
    }
}
