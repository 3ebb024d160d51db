/// Times as MediaTailor's tracking documents write them, read with integer arithmetic only (no
/// Foundation formatter: the binary ships without ICU).
enum MediaTailorTime {
    /// A time or duration in milliseconds from `PT10.5S`, `PT1M2.003S`, `P1DT2H` (ISO 8601 durations
    /// of days, hours, minutes and seconds; a fraction of a second rounded to the millisecond,
    /// halves up) or from a decimal number of seconds written as text (`17.817`). Nil for anything
    /// else: years and months have no fixed length, and a negative duration is no time.
    static func milliseconds(fromDuration text: String) -> Milliseconds? {
        var bytes = Substring(text).utf8[...]
        guard bytes.popFirst() == UInt8(ascii: "P") else { return seconds(text) }
        var total: Milliseconds = 0
        var inTime = false
        var sawComponent = false
        var lastUnit = 0
        var timeComponents = 0
        while !bytes.isEmpty {
            if bytes.first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                bytes.removeFirst()
                continue
            }
            guard let (value, rest) = number(bytes), let unit = rest.first else { return nil }
            bytes = rest.dropFirst()
            let order: Int
            let scale: Milliseconds
            switch (unit, inTime) {
            case (UInt8(ascii: "D"), false): (order, scale) = (1, 86_400_000)
            case (UInt8(ascii: "H"), true): (order, scale) = (2, 3_600_000)
            case (UInt8(ascii: "M"), true): (order, scale) = (3, 60_000)
            case (UInt8(ascii: "S"), true): (order, scale) = (4, 1000)
            default: return nil
            }
            // Units in their order, each once; only seconds may carry a fraction.
            guard order > lastUnit, value.thousandths == 0 || order == 4 else { return nil }
            lastUnit = order
            if inTime { timeComponents += 1 }
            guard let part = value.milliseconds(scale: scale) else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(part)
            guard !overflow else { return nil }
            total = sum
            sawComponent = true
        }
        // A `T` names a time of day to come: `P1DT` is unfinished.
        return sawComponent && (inTime == (timeComponents > 0)) ? total : nil
    }

    /// Milliseconds from a decimal number of seconds written as text (`17.817`, `30`).
    static func seconds(_ text: String) -> Milliseconds? {
        guard let (value, rest) = number(Substring(text).utf8[...]), rest.isEmpty else { return nil }
        return value.milliseconds(scale: 1000)
    }

    /// Milliseconds from a JSON number of seconds, rounded to the nearest, halves away from zero.
    static func milliseconds(fromSeconds seconds: Double) -> Milliseconds? {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite, seconds >= 0 else { return nil }
        return Milliseconds(exactly: milliseconds)
    }

    /// The epoch milliseconds of an ISO 8601 date and time (`2023-08-23T16:25:40.914Z`,
    /// `2023-08-23T18:25:40+02:00`): what `*ProgramDateTime` fields hold.
    static func epochMilliseconds(fromDate text: String) -> Milliseconds? {
        let bytes = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int64? {
            guard start + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[start..<(start + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func separator(_ index: Int, _ expected: Character) -> Bool {
            index < bytes.count && (bytes[index] == expected.asciiValue || (expected == "T" && bytes[index] == UInt8(ascii: "t")))
        }
        guard let year = digits(0, 4), separator(4, "-"), let month = digits(5, 2), separator(7, "-"), let day = digits(8, 2),
            separator(10, "T"), let hour = digits(11, 2), separator(13, ":"), let minute = digits(14, 2), separator(16, ":"),
            let second = digits(17, 2),
            let base = UTCTime.milliseconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        var index = 19
        var fraction: Milliseconds = 0
        if separator(index, ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            fraction = Fraction(digits: bytes[start..<index]).milliseconds
        }
        guard index < bytes.count else { return nil }
        let zone: Milliseconds
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            guard index + 1 == bytes.count else { return nil }
            zone = 0
        } else {
            let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : bytes[index] == UInt8(ascii: "-") ? -1 : 0
            guard sign != 0, index + 6 == bytes.count, let hours = digits(index + 1, 2), separator(index + 3, ":"),
                let minutes = digits(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            zone = sign * (hours * 60 + minutes) * 60_000
        }
        return base + fraction - zone
    }

    /// A decimal number: its whole part and its fraction in thousandths, rounded halves up.
    private struct Decimal {
        var whole: Int64
        var thousandths: Int64

        /// The value times `scale` milliseconds per unit, nil on overflow.
        func milliseconds(scale: Milliseconds) -> Milliseconds? {
            let (product, overflow) = whole.multipliedReportingOverflow(by: scale)
            guard !overflow else { return nil }
            // Only seconds carry fractions, so `scale` is 1000 here: thousandths are milliseconds.
            let (sum, overflowSum) = product.addingReportingOverflow(thousandths * scale / 1000)
            return overflowSum ? nil : sum
        }
    }

    /// The fraction digits after a decimal point, in milliseconds: the fourth digit rounds.
    private struct Fraction {
        var milliseconds: Milliseconds

        init(digits: some Collection<UInt8>) {
            var value: Int64 = 0
            var count = 0
            var roundUp = false
            for byte in digits {
                let digit = Int64(byte - UInt8(ascii: "0"))
                if count < 3 {
                    value = value * 10 + digit
                } else if count == 3 {
                    roundUp = digit >= 5
                }
                count += 1
            }
            if count < 3 { for _ in count..<3 { value *= 10 } }
            milliseconds = value + (roundUp ? 1 : 0)
        }
    }

    /// The decimal number at the front of `bytes` (`12`, `2.003`), and what follows it.
    private static func number(_ bytes: Substring.UTF8View.SubSequence) -> (Decimal, Substring.UTF8View.SubSequence)? {
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let wholeDigits = bytes.prefix(while: isDigit)
        guard !wholeDigits.isEmpty, wholeDigits.count <= 15 else { return nil }
        var whole: Int64 = 0
        for byte in wholeDigits { whole = whole * 10 + Int64(byte - UInt8(ascii: "0")) }
        var rest = bytes[wholeDigits.endIndex...]
        var thousandths: Int64 = 0
        if rest.first == UInt8(ascii: ".") || rest.first == UInt8(ascii: ",") {
            let fractionDigits = rest.dropFirst().prefix(while: isDigit)
            guard !fractionDigits.isEmpty else { return nil }
            thousandths = Fraction(digits: fractionDigits).milliseconds
            rest = rest[fractionDigits.endIndex...]
        }
        return (Decimal(whole: whole, thousandths: thousandths), rest)
    }
}
