#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JSON written straight into bytes, for a document written often enough that JSONEncoder's
/// generic, boxed encoding shows in a profile (the session snapshot, on every metadata change).
///
/// It writes what it is told: objects, arrays, strings, integers (also as strings), doubles,
/// booleans and null. Strings are escaped as JSON requires (quote, backslash, control
/// characters); other text stays as UTF-8.
struct JSONBytes {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private(set) var bytes: [UInt8] = []
    /// No value written yet in the innermost open object or array: no comma before the next.
    private var atFirstValue = true

    /// An object whose members `members` writes with ``member(_:_:)``.
    mutating func object(_ members: (inout JSONBytes) -> Void) {
        open(UInt8(ascii: "{"))
        members(&self)
        close(UInt8(ascii: "}"))
    }

    /// One member of the object being written; `value` writes its value.
    mutating func member(_ name: StaticString, _ value: (inout JSONBytes) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        // The value is not an element of its own: no comma before it.
        atFirstValue = true
        value(&self)
        atFirstValue = false
    }

    /// An array of `elements`, each written by `element`.
    mutating func array<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONBytes, Elements.Element) -> Void) {
        open(UInt8(ascii: "["))
        for item in elements {
            separate()
            element(&self, item)
            atFirstValue = false
        }
        close(UInt8(ascii: "]"))
    }

    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(contentsOf: [UInt8(ascii: "\\"), byte])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                bytes.append(contentsOf: Array(#"\u00"#.utf8) + [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned: Int64.min has no positive twin.
        digits(value.magnitude)
    }

    /// A 64-bit integer as a JSON string (`"1700000000000000000"`), as proto3's JSON mapping
    /// writes one: a reader that takes every number for a double (JavaScript) keeps 53 bits only.
    mutating func integerString(_ value: Int64) {
        bytes.append(UInt8(ascii: "\""))
        integer(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An unsigned 64-bit integer as a JSON string, as the signed one is written.
    mutating func integerString(_ value: UInt64) {
        bytes.append(UInt8(ascii: "\""))
        digits(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// The shortest decimal that reads back as `value` (`0.1`, `2.0`, `1e-07`). NaN and the
    /// infinities, which JSON has no number for, are the strings `"NaN"`, `"Infinity"` and
    /// `"-Infinity"`, as proto3's JSON mapping writes them.
    mutating func number(_ value: Double) {
        if value.isNaN {
            string("NaN")
        } else if value.isInfinite {
            string(value < 0 ? "-Infinity" : "Infinity")
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
    }

    mutating func null() {
        bytes.append(contentsOf: Array("null".utf8))
    }

    /// A value as its `Codable` conformance writes it (JSONEncoder), for a part written seldom
    /// enough that one conformance is worth more than speed; null if it cannot be encoded.
    mutating func encoded(_ value: some Encodable) {
        guard let encoded = try? JSONEncoder().encode(value) else { return null() }
        bytes.append(contentsOf: encoded)
    }

    private mutating func digits(_ value: UInt64) {
        var rest = value
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[first...].reverse()
    }

    private mutating func separate() {
        if !atFirstValue { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        atFirstValue = true
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
    }
}
