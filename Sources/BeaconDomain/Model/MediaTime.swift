/// Formats a media time, milliseconds from the start of the stream, as `HH:MM:SS.mmm`
/// (`01:02:03.456`; hours past 99 take more digits), as players and VAST write positions.
package enum MediaTime {
    package static func format(_ milliseconds: Milliseconds) -> String {
        let sign = milliseconds < 0 ? "-" : ""
        let total = milliseconds.magnitude
        return sign + UTCTime.pad(total / 3_600_000, 2) + ":" + UTCTime.pad(total / 60_000 % 60, 2) + ":"
            + UTCTime.pad(total / 1000 % 60, 2) + "." + UTCTime.pad(total % 1000, 3)
    }
}

extension Timeline {
    /// A time of this timeline as people read it: ISO-8601 UTC on program date time, `HH:MM:SS.mmm` on media time.
    package func format(_ milliseconds: Milliseconds) -> String {
        switch self {
        case .programDateTime: UTCTime.format(milliseconds)
        case .mediaTime: MediaTime.format(milliseconds)
        }
    }
}
