/// The unit of a stream's raw timestamps, as FFmpeg's `AVStream.time_base` gives it
/// (`1/90000` for MPEG-TS, `1/12800` for a 25 fps MP4 track, ...).
///
/// Raw PTS values are integers in this unit; `time(ofTicks:)` turns them into exact
/// `MediaTime` values without passing through floating point.
public struct TimeBase: Sendable, Hashable, CustomStringConvertible {
    /// The numerator of one tick in seconds.
    public let numerator: Int32
    /// The denominator of one tick in seconds.
    public let denominator: Int32

    /// A time base of `numerator/denominator` seconds per tick.
    public init(numerator: Int32, denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The duration of `ticks` ticks, exactly.
    ///
    /// The result's timescale is `denominator`, so times of one stream compare and subtract
    /// without any change of scale.
    public func time(ofTicks ticks: Int64) -> MediaTime {
        guard numerator > 0, denominator > 0 else { return .invalid }
        let (value, overflow) = ticks.multipliedReportingOverflow(by: Int64(numerator))
        if overflow { return ticks < 0 ? .negativeInfinity : .positiveInfinity }
        return MediaTime(value: value, timescale: denominator)
    }

    /// The number of whole ticks in `time`, rounded toward negative infinity, so a time
    /// inside a tick maps to the tick that contains it.
    public func ticks(in time: MediaTime) -> Int64? {
        guard time.isNumeric, numerator > 0, denominator > 0 else { return nil }
        // ticks = time.value * den / (time.timescale * num), floored, in 128 bits.
        let numeratorWide = Int128(time.value) * Int128(denominator)
        let denominatorWide = Int128(time.timescale) * Int128(numerator)
        var quotient = numeratorWide / denominatorWide
        if numeratorWide % denominatorWide != 0 && numeratorWide < 0 { quotient -= 1 }
        guard let result = Int64(exactly: quotient) else { return nil }
        return result
    }

    /// `"num/den"`, as ffprobe prints a time base.
    public var description: String { "\(numerator)/\(denominator)" }
}
