/// A reader of exactly the metadata's shape, from its UTF-8 bytes straight to a ``MetadataDocument``.
///
/// JSONDecoder reads about 25 MB/s here, most of it spent on what this shape never needs (a key
/// map per object, a dynamic cast per value): a live window of a megabyte would take 40 ms to
/// decode. This reader accepts a strict subset of what JSONDecoder accepts and gives the same
/// document for it. Whatever it is not sure of it answers nil for: malformed JSON, a number where
/// milliseconds belong that is neither a plain integer within `Int64` nor one with at most three
/// decimals below 2^43 (JSONDecoder reads `1e3` or `0.49999999999` its own way), an id that is
/// neither a string nor such an integer, a field given twice, a field of the wrong type or
/// missing, an escaped key (it may spell a known one), a lone surrogate, invalid UTF-8, anything
/// attached to an ad (companion ads, icons, verifications) and what describes an ad (title,
/// creative id, ad system). ``MetadataDocument/decode(_:)`` then asks JSONDecoder, which stays the
/// authority on what is accepted and on every reason a body is rejected.
package struct MetadataParser {
    /// The document `body` holds, or nil when JSONDecoder must decide.
    package static func parse(_ body: some Collection<UInt8>) -> MetadataDocument? {
        if let parsed = body.withContiguousStorageIfAvailable({ parse(bytes: $0) }) { return parsed }
        return Array(body).withUnsafeBufferPointer { parse(bytes: $0) }
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> MetadataDocument? {
        var parser = MetadataParser(bytes: bytes)
        return try? parser.document()
    }

    /// Where the parser stops being sure. It says no more: JSONDecoder will say what is wrong.
    private struct Unsure: Error {}

    /// Nesting allowed inside a skipped value, far below JSONDecoder's own limit.
    private static let deepestSkipped = 64

    /// The body, valid only during `parse(bytes:)`, which owns the one instance.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: The metadata's shape

    /// The keys the metadata names; any other is skipped with its value.
    private enum Field {
        case dataRange, adBreaks, start, end, id, startTime, duration, ads, trackingEvents, event, signalingURLs, other
        /// `companionAds`, `icons`, `adVerifications`, and what describes an ad (`title`,
        /// `creativeId`, `adSystem`): rare, and left to JSONDecoder.
        case attached
    }

    private mutating func document() throws(Unsure) -> MetadataDocument {
        skipWhitespace()
        var dataRange: DataRange?
        var adBreaks: [AdBreak]?
        try readObject { (parser, field) throws(Unsure) in
            switch field {
            case .dataRange: try parser.read(into: &dataRange) { (parser) throws(Unsure) in try parser.dataRange() }
            case .adBreaks: try parser.read(into: &adBreaks) { (parser) throws(Unsure) in try parser.readList { (parser) throws(Unsure) in try parser.adBreak() } }
            default: try parser.skipValue(depth: 0)
            }
        }
        skipWhitespace()
        guard position == bytes.count, let dataRange else { throw Unsure() }
        return MetadataDocument(dataRange: dataRange, adBreaks: adBreaks ?? [])
    }

    private mutating func dataRange() throws(Unsure) -> DataRange {
        var start: Milliseconds?
        var end: Milliseconds?
        try readObject { (parser, field) throws(Unsure) in
            switch field {
            case .start: try parser.read(into: &start) { (parser) throws(Unsure) in try parser.readMilliseconds() }
            case .end: try parser.read(into: &end) { (parser) throws(Unsure) in try parser.readMilliseconds() }
            default: try parser.skipValue(depth: 0)
            }
        }
        guard let start, let end else { throw Unsure() }
        return DataRange(start: start, end: end)
    }

    private mutating func adBreak() throws(Unsure) -> AdBreak {
        let adBreak = try entry(named: .id, holding: .ads) { (parser) throws(Unsure) in try parser.ad() }
        guard let duration = adBreak.duration else { throw Unsure() }
        return AdBreak(id: adBreak.name, startTime: adBreak.startTime, duration: duration, ads: adBreak.held)
    }

    private mutating func ad() throws(Unsure) -> Ad {
        let ad = try entry(named: .id, holding: .trackingEvents) { (parser) throws(Unsure) in try parser.trackingEvent() }
        guard let duration = ad.duration else { throw Unsure() }
        return Ad(id: ad.name, startTime: ad.startTime, duration: duration, trackingEvents: ad.held)
    }

    private mutating func trackingEvent() throws(Unsure) -> TrackingEvent {
        let event = try entry(named: .event, holding: .signalingURLs) { (parser) throws(Unsure) in try parser.readString() }
        // An event without a duration lasts 0: Harmonic's iOS client has it optional.
        return TrackingEvent(
            event: TrackingEventType(named: event.name), startTime: event.startTime, duration: event.duration ?? 0,
            signalingURLs: event.held)
    }

    /// An ad break, an ad or a tracking event: a name under `nameField`, a start time, a duration if
    /// given, and an optional list of what it holds under `heldField`.
    private mutating func entry<Held>(
        named nameField: Field, holding heldField: Field, _ element: (inout Self) throws(Unsure) -> Held
    ) throws(Unsure) -> (name: String, startTime: Milliseconds, duration: Milliseconds?, held: [Held]) {
        var name: String?
        var startTime: Milliseconds?
        var duration: Milliseconds?
        var held: [Held]?
        try readObject { (parser, field) throws(Unsure) in
            switch field {
            case nameField: try parser.read(into: &name) { (parser) throws(Unsure) in try parser.readName(nameField) }
            case .startTime: try parser.read(into: &startTime) { (parser) throws(Unsure) in try parser.readMilliseconds() }
            case .duration: try parser.read(into: &duration) { (parser) throws(Unsure) in try parser.readMilliseconds() }
            case heldField: try parser.read(into: &held) { (parser) throws(Unsure) in try parser.readList(element) }
            case .attached where heldField == .trackingEvents: throw Unsure()
            default: try parser.skipValue(depth: 0)
            }
        }
        guard let name, let startTime else { throw Unsure() }
        return (name, startTime, duration, held ?? [])
    }

    /// An event's type, a string; an id, a string or a plain integer, read as its decimal text.
    private mutating func readName(_ field: Field) throws(Unsure) -> String {
        guard field == .id, position < bytes.count, bytes[position] != UInt8(ascii: "\"") else { return try readString() }
        let first = position
        _ = try readInteger()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<position]), as: UTF8.self)
    }

    /// Reads a known field's value into `slot`. A field given twice is JSONDecoder's to resolve.
    private mutating func read<Value>(
        into slot: inout Value?, _ value: (inout Self) throws(Unsure) -> Value
    ) throws(Unsure) {
        guard slot == nil else { throw Unsure() }
        slot = try value(&self)
    }

    /// The field a key names. An escaped key may spell a known field: that is JSONDecoder's to read.
    private mutating func readField() throws(Unsure) -> Field {
        try expect(UInt8(ascii: "\""))
        let (key, escaped) = try scanString()
        guard !escaped else { throw Unsure() }
        let name = UnsafeBufferPointer(rebasing: bytes[key])
        func matches(_ known: StaticString) -> Bool {
            known.withUTF8Buffer { name.elementsEqual($0) }
        }
        switch name.count {
        case 2: return matches("id") ? .id : .other
        case 3: return matches("end") ? .end : matches("ads") ? .ads : .other
        case 5: return matches("start") ? .start : matches("event") ? .event : matches("icons") || matches("title") ? .attached : .other
        case 8: return matches("duration") ? .duration : matches("adBreaks") ? .adBreaks : matches("adSystem") ? .attached : .other
        case 9: return matches("startTime") ? .startTime : matches("dataRange") ? .dataRange : .other
        case 10: return matches("creativeId") ? .attached : .other
        case 12: return matches("companionAds") ? .attached : .other
        case 13: return matches("signalingUrls") ? .signalingURLs : .other
        case 14: return matches("trackingEvents") ? .trackingEvents : .other
        case 15: return matches("adVerifications") ? .attached : .other
        default: return .other
        }
    }

    // MARK: JSON values

    /// Reads an object, handing each member's field to `member`, which reads the value.
    private mutating func readObject(_ member: (inout Self, Field) throws(Unsure) -> Void) throws(Unsure) {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return }
        repeat {
            skipWhitespace()
            let field = try readField()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(&self, field)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// Reads an array, handing each element to `element` to read.
    private mutating func readArray(_ element: (inout Self) throws(Unsure) -> Void) throws(Unsure) {
        try expect(UInt8(ascii: "["))
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return }
        repeat {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
    }

    /// Reads an optional list: an array of `element`s, or null as none.
    private mutating func readList<Element>(_ element: (inout Self) throws(Unsure) -> Element) throws(Unsure) -> [Element] {
        if consume("null") { return [] }
        var elements: [Element] = []
        try readArray { (parser) throws(Unsure) in elements.append(try element(&parser)) }
        return elements
    }

    /// Reads integer milliseconds written plainly. Anything JSONDecoder might read otherwise is
    /// left to it: a fraction, an exponent, `-0`, a leading zero, a number past `Int64`.
    private mutating func readInteger() throws(Unsure) -> Milliseconds {
        let negative = consume(UInt8(ascii: "-"))
        let first = position
        // Accumulated below zero, where `Int64.min` fits.
        var value: Int64 = 0
        while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, underflowed) = shifted.subtractingReportingOverflow(Int64(digit))
            guard !overflowed, !underflowed else { throw Unsure() }
            value = next
            position += 1
        }
        let digits = position - first
        guard digits > 0, bytes[first] != UInt8(ascii: "0") || (digits == 1 && !negative) else { throw Unsure() }
        if position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw Unsure()
            default: break
            }
        }
        if negative { return value }
        guard value != .min else { throw Unsure() }
        return -value
    }

    /// Reads milliseconds: a plain integer, or one with one to three decimals, rounded to the
    /// nearest, halves away from zero. Below 2^43 (the year 2248) a `Double` tells three decimals
    /// apart from the next half, so JSONDecoder's reading through `Double` rounds the same way;
    /// anything else is left to it.
    private mutating func readMilliseconds() throws(Unsure) -> Milliseconds {
        let start = position
        let negative = consume(UInt8(ascii: "-"))
        let first = position
        var whole: Int64 = 0
        while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10, position - first < 14 {
            whole = whole * 10 + Int64(digit)
            position += 1
        }
        guard consume(UInt8(ascii: ".")) else {
            position = start
            return try readInteger()
        }
        let digits = position - 1 - first
        guard digits > 0, bytes[first] != UInt8(ascii: "0") || digits == 1, whole < 1 << 43 else { throw Unsure() }
        let decimals = position
        var thousandths: Int64 = 0
        while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
            guard position - decimals < 3 else { throw Unsure() }
            thousandths = thousandths * 10 + Int64(digit)
            position += 1
        }
        let count = position - decimals
        guard count > 0 else { throw Unsure() }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") { throw Unsure() }
        for _ in count..<3 { thousandths *= 10 }
        let magnitude = whole + (thousandths >= 500 ? 1 : 0)
        return negative ? -magnitude : magnitude
    }

    /// Reads a string as JSONDecoder decodes it.
    private mutating func readString() throws(Unsure) -> String {
        try expect(UInt8(ascii: "\""))
        let (contents, escaped) = try scanString()
        guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[contents]), as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(contents.count)
        var index = contents.lowerBound
        while index < contents.upperBound {
            if bytes[index] == UInt8(ascii: "\\") {
                let (scalar, next) = try escape(at: index)
                UTF8.encode(scalar) { utf8.append($0) }
                index = next
            } else {
                utf8.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Checks a string from after its opening quote to its closing one, which it consumes: valid
    /// UTF-8, no control character, only escapes JSON defines and surrogates in pairs.
    private mutating func scanString() throws(Unsure) -> (contents: Range<Int>, escaped: Bool) {
        let start = position
        var escaped = false
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return (start..<position - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                position = try escape(at: position).end
            case 0..<0x20:
                throw Unsure()
            case 0x80...:
                try skipMultiByteScalar()
            default:
                position += 1
            }
        }
        throw Unsure()
    }

    /// The scalar an escape at `index` stands for, and where it ends.
    private func escape(at index: Int) throws(Unsure) -> (scalar: Unicode.Scalar, end: Int) {
        guard index + 1 < bytes.count else { throw Unsure() }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): return ("\"", index + 2)
        case UInt8(ascii: "\\"): return ("\\", index + 2)
        case UInt8(ascii: "/"): return ("/", index + 2)
        case UInt8(ascii: "b"): return ("\u{08}", index + 2)
        case UInt8(ascii: "f"): return ("\u{0C}", index + 2)
        case UInt8(ascii: "n"): return ("\n", index + 2)
        case UInt8(ascii: "r"): return ("\r", index + 2)
        case UInt8(ascii: "t"): return ("\t", index + 2)
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: index + 2)
            guard (0xD800...0xDBFF).contains(unit) else {
                // A lone low surrogate is no scalar.
                guard let scalar = Unicode.Scalar(unit) else { throw Unsure() }
                return (scalar, index + 6)
            }
            guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u")
            else { throw Unsure() }
            let low = try hexUnit(at: index + 8)
            guard (0xDC00...0xDFFF).contains(low), let scalar = Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00))
            else { throw Unsure() }
            return (scalar, index + 12)
        default:
            throw Unsure()
        }
    }

    /// The UTF-16 code unit written as four hex digits at `index`.
    private func hexUnit(at index: Int) throws(Unsure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Unsure() }
        var unit: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unsure()
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// Steps over one scalar of two to four bytes, checked as well-formed UTF-8 (no overlong
    /// form, no surrogate, nothing past U+10FFFF: the Unicode standard's table 3-7).
    private mutating func skipMultiByteScalar() throws(Unsure) {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[position] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: throw Unsure()
        }
        guard position + length <= bytes.count, second.contains(bytes[position + 1]) else { throw Unsure() }
        for continuation in bytes[position + 2..<position + length] where !(0x80...0xBF).contains(continuation) {
            throw Unsure()
        }
        position += length
    }

    /// Steps over a value of a key the metadata does not name, checking it is well-formed JSON.
    private mutating func skipValue(depth: Int) throws(Unsure) {
        guard depth < Self.deepestSkipped, position < bytes.count else { throw Unsure() }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try readObject { (parser, _) throws(Unsure) in try parser.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try readArray { (parser) throws(Unsure) in try parser.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            position += 1
            _ = try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            guard consume("true") || consume("false") || consume("null") else { throw Unsure() }
        }
    }

    /// Steps over a number of any form JSON allows: `-`? (`0` | [1-9] digits) (`.` digits)? ([eE] [+-]? digits)?
    private mutating func skipNumber() throws(Unsure) {
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard skipDigits() > 0 else { throw Unsure() }
        }
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() > 0 else { throw Unsure() }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() > 0 else { throw Unsure() }
        }
    }

    /// Steps over decimal digits; how many.
    private mutating func skipDigits() -> Int {
        let first = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - first
    }

    // MARK: Bytes

    /// Steps over JSON's whitespace: space, tab, line feed, carriage return.
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// Steps over `byte` if it comes next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Steps over `literal` if it comes next.
    private mutating func consume(_ literal: StaticString) -> Bool {
        let matched = literal.withUTF8Buffer { literal in
            position + literal.count <= bytes.count && bytes[position..<position + literal.count].elementsEqual(literal)
        }
        if matched { position += literal.utf8CodeUnitCount }
        return matched
    }

    private mutating func expect(_ byte: UInt8) throws(Unsure) {
        guard consume(byte) else { throw Unsure() }
    }
}
