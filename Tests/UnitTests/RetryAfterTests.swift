import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct RetryAfterTests {
    /// 2015-10-21T07:28:00.000Z
    static let now: Milliseconds = 1_445_412_480_000

    @Test(arguments: [
        ("120", 120_000),
        ("0", 0),
        ("  7\t", 7_000),
        ("007", 7_000),
        ("86400", 86_400_000),
        // Bounded, however many digits.
        ("86401", RetryAfter.longest),
        ("99999999999999999999999999999", RetryAfter.longest),
    ] as [(String, Milliseconds)])
    func readsDeltaSeconds(value: String, delay: Milliseconds) {
        #expect(RetryAfter.delay(value, now: Self.now) == delay)
    }

    @Test(arguments: [
        ("Wed, 21 Oct 2015 07:28:00 GMT", 0),
        ("Wed, 21 Oct 2015 07:30:30 GMT", 150_000),
        ("Thu, 22 Oct 2015 07:28:00 GMT", 86_400_000),
        // A leap second counts as the next minute's first.
        ("Wed, 21 Oct 2015 07:28:60 GMT", 60_000),
        ("Mon, 29 Feb 2016 00:00:00 GMT", RetryAfter.longest),
        // Past dates ask for no wait; dates far ahead are bounded.
        ("Sun, 06 Nov 1994 08:49:37 GMT", 0),
        ("Fri, 31 Dec 9999 23:59:59 GMT", RetryAfter.longest),
    ] as [(String, Milliseconds)])
    func readsIMFFixdates(value: String, delay: Milliseconds) {
        #expect(RetryAfter.delay(value, now: Self.now) == delay)
    }

    @Test(arguments: [
        "", "   ", "-5", "+5", "1.5", "5s", "1e3", "soon", "٣",
        // Obsolete and malformed date forms.
        "Wednesday, 21-Oct-15 07:28:00 GMT", "Wed Oct 21 07:28:00 2015", "Wed, 21 Oct 2015 07:28:00 UTC",
        "wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 oct 2015 07:28:00 GMT", "Wed, 1 Oct 2015 07:28:00 GMT",
        "Wed, 21 Oct 2015 7:28:00 GMT", "Wed,  21 Oct 2015 07:28:00 GMT",
        "Wed, 21 Oct 2015 24:00:00 GMT", "Wed, 21 Oct 2015 07:60:00 GMT", "Wed, 31 Nov 2015 07:28:00 GMT",
        "Wed, 29 Feb 2015 07:28:00 GMT", "Wed, 21 Oct 0000 07:28:00 GMT", "Wed, 21 Oct 2015 07:28:00 GMT; x",
    ])
    func refusesGarbage(value: String) {
        #expect(RetryAfter.delay(value, now: Self.now) == nil, "\(value)")
    }

    @Test func blanksAroundADateAreOptionalWhitespace() {
        #expect(RetryAfter.delay(" Wed, 21 Oct 2015 07:28:10 GMT ", now: Self.now) == 10_000)
    }
}
