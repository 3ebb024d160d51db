import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct UTCTimeTests {
    /// Found by fuzzing the metadata: a rejected time was formatted for its reason and trapped.
    @Test(arguments: [Milliseconds.min, .max, UTCTime.formattable.lowerBound - 1, UTCTime.formattable.upperBound + 1])
    func aTimeNoFourDigitYearCanNameIsWrittenAsItsMilliseconds(time: Milliseconds) {
        #expect(UTCTime.format(time) == "\(time) ms since 1970")
    }

    @Test func theEdgesOfTheFormattableRangeAreFormatted() {
        #expect(UTCTime.format(UTCTime.formattable.lowerBound) == "0000-01-01T00:00:00.000Z")
        #expect(UTCTime.format(UTCTime.formattable.upperBound) == "9999-12-31T23:59:59.999Z")
    }

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

    @Test(arguments: [
        1_675_135_534_000, 0, 951_782_400_000, 951_868_799_000, 4_107_542_400_000, 253_402_300_799_000, -86_400_000,
    ] as [Milliseconds])
    func calendarFieldsRoundTrip(milliseconds: Milliseconds) throws {
        let text = UTCTime.format(milliseconds)
        let fields = text.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int64($0)! }
        #expect(UTCTime.milliseconds(year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4], second: fields[5]) == milliseconds)
    }

    @Test func calendarFieldsOutOfRangeGiveNothing() {
        #expect(UTCTime.milliseconds(year: 2023, month: 2, day: 29, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime.milliseconds(year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0) == 1_709_164_800_000)
        #expect(UTCTime.milliseconds(year: 1900, month: 2, day: 29, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime.milliseconds(year: 2000, month: 2, day: 29, hour: 0, minute: 0, second: 0) == 951_782_400_000)
        #expect(UTCTime.milliseconds(year: 2023, month: 13, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime.milliseconds(year: 2023, month: 4, day: 31, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime.milliseconds(year: 2023, month: 1, day: 1, hour: 24, minute: 0, second: 0) == nil)
        #expect(UTCTime.milliseconds(year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTime.milliseconds(year: 2023, month: 1, day: 1, hour: 23, minute: 59, second: 60) == 1_672_617_600_000)
    }
}
