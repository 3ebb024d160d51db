import Testing

@testable import BeaconDomain

/// `beaconctl audit --since`: an ISO-8601 instant as it is, or a duration before now in seconds,
/// minutes, hours or days; anything else names no time (the command then refuses it).
@Suite(.timeLimit(.minutes(1))) struct AuditSinceTests {
    static let now: Milliseconds = 1_700_000_000_000
    /// 2026-11-28T10:00:00Z.
    static let instant: Milliseconds = 1_795_860_000_000

    static let instants: [(String, Milliseconds)] = [
        ("2026-11-28T10:00:00Z", instant),
        ("2026-11-28T10:00:00.250Z", instant + 250),
        ("1970-01-01T00:00:00Z", 0),
    ]

    @Test(arguments: instants) func anISOTimeIsThatInstantWhateverNowIs(text: String, expected: Milliseconds) {
        #expect(AuditSince.parse(text, now: Self.now) == expected)
        #expect(AuditSince.parse(text, now: 0) == expected)
    }

    static let durations: [(String, Milliseconds)] = [
        ("90s", 90_000), ("30m", 1_800_000), ("2h", 7_200_000), ("7d", 604_800_000), ("0s", 0), ("120m", 7_200_000),
    ]

    @Test(arguments: durations) func aDurationIsThatLongBeforeNow(text: String, ago: Milliseconds) {
        #expect(AuditSince.parse(text, now: Self.now) == Self.now - ago)
    }

    static let refused = [
        "", "s", "2", "2w", "2H", "-5m", "+5m", "٥m", "1.5h", " 2h", "2h ", "2 h", "2h ago", "h2", "yesterday", "2026-13-01T00:00:00Z",
        // More seconds than milliseconds can count.
        "9223372036854776s", "106751991168d",
    ]

    @Test(arguments: refused) func anythingElseNamesNoTime(text: String) {
        #expect(AuditSince.parse(text, now: Self.now) == nil)
    }

    @Test func theLongestDurationThatFitsIsCountedWithoutOverflow() {
        let days = Int64.max / 86_400_000
        #expect(AuditSince.parse("\(days)d", now: 0) == -days * 86_400_000)
    }
}
