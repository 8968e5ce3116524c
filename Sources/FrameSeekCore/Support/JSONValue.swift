/// A JSON value with ordered object keys, so output reads in the order the contract lists
/// the fields (the command line's JSON, storyboards).
package enum JSONValue: Sendable {
    /// A string.
    case string(String)
    /// An integer, written without a fraction.
    case integer(Int64)
    /// A number; non-finite values are written as null.
    case number(Double)
    /// true or false.
    case bool(Bool)
    /// null.
    case null
    /// An array.
    case array([JSONValue])
    /// An object whose keys keep their order.
    case object(KeyValuePairs)

    /// An object's members, in order.
    package typealias KeyValuePairs = [(String, JSONValue)]

    /// Compact serialization, one line.
    package var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .integer(let i): out += String(i)
        case .number(let d): out += d.isFinite ? JSONValue.format(d) : "null"
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let pairs):
            out += "{"
            for (i, (key, value)) in pairs.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Integral values print without a fraction; others in Swift's shortest round-trip form.
    private static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // U+0085, U+2028 and U+2029 end a line for some readers (Swift's isNewline):
                // escaped, a JSON line stays one line whatever a string holds.
                if scalar.value < 0x20 || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// An optional integer, null when absent.
    package static func integer(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }
    /// An optional string, null when absent.
    package static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
}
