#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Formats epoch milliseconds as ISO-8601 UTC (`2023-01-31T03:25:34.076Z`) with integer arithmetic,
/// so no digit is lost to floating point and no calendar library is needed.
package enum UTCTime {
    /// The epoch milliseconds an ISO-8601 date names, with or without fractional seconds; nil when
    /// the text is not one.
    package static func parse(_ text: String) -> Milliseconds? {
        for style in [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()] {
            if let date = try? style.parse(text) { return Milliseconds((date.timeIntervalSince1970 * 1000).rounded()) }
        }
        return nil
    }

    package static func format(_ milliseconds: Milliseconds) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The instants the four-digit ISO-8601 form can name: 0000-01-01 to 9999-12-31, UTC.
    package static let formattable: ClosedRange<Milliseconds> = -62_167_219_200_000...253_402_300_799_999

    /// Appends the ISO-8601 form of `milliseconds` as ASCII, building no intermediate string
    /// (log lines are made this way). A time outside ``formattable`` (untrusted metadata may carry
    /// any number) is written as its epoch milliseconds instead.
    package static func append(_ milliseconds: Milliseconds, to bytes: inout [UInt8]) {
        guard formattable.contains(milliseconds) else {
            bytes += Array("\(milliseconds) ms since 1970".utf8)
            return
        }
        let days = milliseconds.floorDivided(by: 86_400_000)
        let dayMilliseconds = milliseconds - days * 86_400_000
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        appendDigits(year, width: 4, then: "-", to: &bytes)
        appendDigits(month, width: 2, then: "-", to: &bytes)
        appendDigits(day, width: 2, then: "T", to: &bytes)
        appendDigits(dayMilliseconds / 3_600_000, width: 2, then: ":", to: &bytes)
        appendDigits(dayMilliseconds / 60_000 % 60, width: 2, then: ":", to: &bytes)
        appendDigits(dayMilliseconds / 1000 % 60, width: 2, then: ".", to: &bytes)
        appendDigits(dayMilliseconds % 1000, width: 3, then: "Z", to: &bytes)
    }

    /// Decimal digits of a non-negative value, zero-padded to `width`, then `separator`.
    private static func appendDigits(_ value: Int64, width: Int, then separator: Unicode.Scalar, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        var digits = 1
        while digits < width || value / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
        bytes.append(UInt8(ascii: separator))
    }

    /// A span as `1h02m03s`, `2m05s` or `4.2s`, for countdowns.
    package static func formatSpan(_ milliseconds: Milliseconds) -> String {
        let sign = milliseconds < 0 ? "-" : ""
        let total = abs(milliseconds)
        if total < 60_000 { return "\(sign)\(total / 1000).\(total % 1000 / 100)s" }
        let seconds = total / 1000
        if seconds < 3600 { return "\(sign)\(seconds / 60)m\(pad(seconds % 60, 2))s" }
        return "\(sign)\(seconds / 3600)h\(pad(seconds / 60 % 60, 2))m\(pad(seconds % 60, 2))s"
    }

    /// A non-negative value's decimal digits, zero-padded to `width`.
    static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The epoch milliseconds of a UTC calendar date and time of day (proleptic Gregorian), or nil
    /// when a field is out of its range (month 13, February 30, hour 24...). A second of 60 (a
    /// leap second) is allowed and counts as the next minute's first.
    package static func milliseconds(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Milliseconds? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Day count since 1970-01-01 of a proleptic Gregorian date: the inverse of ``civilDate(daysSinceEpoch:)``.
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear.floorDivided(by: 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Proleptic Gregorian date of a day count since 1970-01-01.
    private static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
