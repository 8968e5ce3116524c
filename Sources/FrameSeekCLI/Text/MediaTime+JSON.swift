import FrameSeek

extension MediaTime {
    /// Seconds for JSON: display only, never read back.
    var json: JSONValue { .number(seconds) }
    /// The exact rational as `value/timescale`, for JSON readers that want it.
    var rational: JSONValue { isNumeric ? .string("\(value)/\(timescale)") : .null }
}
