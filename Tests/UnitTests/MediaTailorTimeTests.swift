import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// MediaTailor's times: numbers of seconds, ISO 8601 durations, program date times.
@Suite(.timeLimit(.minutes(2))) struct MediaTailorTimeTests {
    @Test(arguments: [
        ("PT0S", 0), ("PT10.5S", 10_500), ("PT1M2.003S", 62_003), ("PT17.817798612S", 17_818), ("PT15.100000078S", 15_100),
        ("PT14.982S", 14_982), ("PT1H", 3_600_000), ("P1DT2H3M4.5S", 93_784_500), ("PT0.0005S", 1), ("PT0.0004S", 0),
        ("PT0.9995S", 1_000), ("PT2,5S", 2_500), ("17.817", 17_817), ("30", 30_000),
    ] as [(String, Milliseconds)])
    func durationsRead(_ text: String, _ expected: Milliseconds) {
        #expect(MediaTailorTime.milliseconds(fromDuration: text) == expected)
    }

    @Test(arguments: [
        "", "P", "PT", "T10S", "PT10", "PT-1S", "P1Y", "P1M", "PT1S2M", "PT1.5M", "PT1H1H", "PTS", "PT1.S", "P1DT", "PT10SX",
        "-3", "1e3", "PT9999999999999999S",
    ])
    func durationsRefused(_ text: String) {
        #expect(MediaTailorTime.milliseconds(fromDuration: text) == nil)
    }

    @Test(arguments: [(10.11, 10_110), (17.817, 17_817), (0.0, 0), (0.0005, 1), (14.982, 14_982), (30, 30_000)] as [(Double, Milliseconds)])
    func numbersOfSecondsRounded(_ seconds: Double, _ expected: Milliseconds) {
        #expect(MediaTailorTime.milliseconds(fromSeconds: seconds) == expected)
    }

    @Test func negativeOrInfiniteSecondsRefused() {
        #expect(MediaTailorTime.milliseconds(fromSeconds: -1) == nil)
        #expect(MediaTailorTime.milliseconds(fromSeconds: .infinity) == nil)
        #expect(MediaTailorTime.milliseconds(fromSeconds: .nan) == nil)
    }

    @Test(arguments: [
        ("2023-08-23T16:25:40.914Z", 1_692_807_940_914), ("2023-08-23T16:25:40Z", 1_692_807_940_000),
        ("2023-08-23T18:25:40.914+02:00", 1_692_807_940_914), ("2023-08-23T15:25:40.9145-01:00", 1_692_807_940_915),
        ("2023-08-23t16:25:40.9z", 1_692_807_940_900),
    ] as [(String, Milliseconds)])
    func programDateTimesRead(_ text: String, _ expected: Milliseconds) {
        #expect(MediaTailorTime.epochMilliseconds(fromDate: text) == expected)
    }

    @Test(arguments: ["", "2023-08-23", "2023-08-23T16:25:40", "2023-02-30T00:00:00Z", "2023-08-23T16:25:40.Z", "2023-08-23T16:25:40+0200", "2023-08-23T16:25:40Zx"])
    func programDateTimesRefused(_ text: String) {
        #expect(MediaTailorTime.epochMilliseconds(fromDate: text) == nil)
    }
}
