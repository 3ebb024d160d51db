/// The `Retry-After` response header (RFC 9110, section 10.2.3): how long a server asks its
/// clients to wait, as delta-seconds (`120`) or as an HTTP-date in the IMF-fixdate form
/// (`Wed, 21 Oct 2015 07:28:00 GMT`). Parsed by hand: no date formatter, no locale.
package enum RetryAfter {
    /// The longest wait a header can ask for: larger values are bounded to it, so a caller adding
    /// it to a time never overflows. Callers bound it further to what they are willing to honour.
    package static let longest: Milliseconds = 86_400_000

    /// The wait `value` asks for: for a date, counted from `now` (epoch milliseconds) and 0 when
    /// the date is past; at most ``longest``. Nil when `value` is neither form.
    package static func delay(_ value: String, now: Milliseconds) -> Milliseconds? {
        let bytes = trimmed(Array(value.utf8))
        if let seconds = deltaSeconds(bytes) { return seconds * 1000 }
        if let date = imfFixdate(bytes) { return min(max(date - now, 0), longest) }
        return nil
    }

    /// `1*DIGIT`, bounded to ``longest`` however many digits come.
    private static func deltaSeconds(_ bytes: ArraySlice<UInt8>) -> Milliseconds? {
        guard !bytes.isEmpty, bytes.allSatisfy(isDigit) else { return nil }
        let bound = longest / 1000
        var seconds: Milliseconds = 0
        for byte in bytes {
            seconds = min(seconds * 10 + Milliseconds(byte - UInt8(ascii: "0")), bound)
        }
        return seconds
    }

    private static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    /// `day-name "," SP day SP month SP year SP hour ":" minute ":" second SP "GMT"`, as epoch
    /// milliseconds; names are case-sensitive, as the grammar says.
    private static func imfFixdate(_ bytes: ArraySlice<UInt8>) -> Milliseconds? {
        let text = Array(bytes)
        guard text.count == 29, dayNames.contains(Array(text[0..<3])), literal(", ", in: text, at: 3),
            let day = number(text, 5..<7), text[7] == UInt8(ascii: " "),
            let monthIndex = monthNames.firstIndex(of: Array(text[8..<11])), text[11] == UInt8(ascii: " "),
            let year = number(text, 12..<16), text[16] == UInt8(ascii: " "),
            let hour = number(text, 17..<19), text[19] == UInt8(ascii: ":"),
            let minute = number(text, 20..<22), text[22] == UInt8(ascii: ":"),
            let second = number(text, 23..<25), literal(" GMT", in: text, at: 25)
        else { return nil }
        return UTCTime.milliseconds(
            year: year, month: Milliseconds(monthIndex) + 1, day: day, hour: hour, minute: minute, second: second)
    }

    private static func number(_ text: [UInt8], _ range: Range<Int>) -> Milliseconds? {
        let digits = text[range]
        guard digits.allSatisfy(isDigit) else { return nil }
        return digits.reduce(0) { $0 * 10 + Milliseconds($1 - UInt8(ascii: "0")) }
    }

    private static func literal(_ expected: String, in text: [UInt8], at offset: Int) -> Bool {
        text[offset...].starts(with: expected.utf8)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Without the optional whitespace around a field value.
    private static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else {
            return []
        }
        return bytes[first...last]
    }
}
