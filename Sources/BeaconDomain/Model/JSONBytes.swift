/// JSON written straight into bytes, for a document written often enough that JSONEncoder's
/// generic, boxed encoding shows in a profile (the session snapshot, on every metadata change).
///
/// It writes what it is told: objects, arrays, strings, integers and null. Strings are escaped
/// as JSON requires (quote, backslash, control characters); other text stays as UTF-8.
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
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }

    mutating func null() {
        bytes.append(contentsOf: Array("null".utf8))
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
