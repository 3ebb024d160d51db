/// `beaconctl audit --since`: an ISO-8601 time, or a duration ago (`90s`, `30m`, `2h`, `7d`).
package enum AuditSince {
    /// The wall-clock time `text` names, with `now` for a duration; nil when it names none.
    package static func parse(_ text: String, now: Milliseconds) -> Milliseconds? {
        if let time = UTCTime.parse(text) { return time }
        let digits = text.dropLast()
        guard let unit = text.last, let scale = units[unit], !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let count = Int64(digits),
            count <= Int64.max / scale
        else { return nil }
        return now - count * scale
    }

    private static let units: [Character: Int64] = ["s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
}
