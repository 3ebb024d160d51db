import Testing
@testable import BeaconCore

@Suite struct UTCTimeTests {
    @Test(arguments: [
        (1_675_135_534_076, "2023-01-31T03:25:34.076Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (1, "1970-01-01T00:00:00.001Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (1_709_210_096_789, "2024-02-29T12:34:56.789Z"),
        (951_782_400_001, "2000-02-29T00:00:00.001Z"),
        (951_868_799_999, "2000-02-29T23:59:59.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
        (1_675_135_564_574, "2023-01-31T03:26:04.574Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ] as [(Milliseconds, String)])
    func formatsInstants(milliseconds: Milliseconds, text: String) {
        #expect(UTCTime.format(milliseconds) == text)
    }

    @Test(arguments: [
        (0, "0.0s"),
        (4200, "4.2s"),
        (4299, "4.2s"),
        (59_999, "59.9s"),
        (60_000, "1m00s"),
        (125_000, "2m05s"),
        (3_599_999, "59m59s"),
        (3_600_000, "1h00m00s"),
        (3_723_000, "1h02m03s"),
        (90_000_000, "25h00m00s"),
        (-4200, "-4.2s"),
        (-125_000, "-2m05s"),
    ] as [(Milliseconds, String)])
    func formatsSpans(milliseconds: Milliseconds, text: String) {
        #expect(UTCTime.formatSpan(milliseconds) == text)
    }
}
