import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// IAB VAST macros in signaling URLs: each filled as specified, percent-encoded, `-1` for one the
/// daemon does not support, `-2` for one unknown for the beacon, anything else left as it is.
@Suite(.timeLimit(.minutes(2))) struct MacroExpansionTests {
    static let settings = MacroSettings(
        deviceUserAgent: "beaconctl/1.2.3 (linux)", ifa: "6D92078A-8246-4BA4-AE5B-76104861E7DC", ifaType: "rida")
    /// Every value known.
    static let context = MacroContext(
        occurredAt: Fixture.t0, adPlayhead: 7_500, contentPosition: 3_723_004, breakPosition: 2, adPosition: 3, errorCode: 405,
        reason: 2)
    static let base = "http://127.0.0.1:4647/beacon?ad=a1"

    func expand(
        _ query: String, _ context: MacroContext = context, _ settings: MacroSettings = settings, seed: UInt64 = 7
    ) -> String {
        var random = SeededGenerator(seed: seed)
        return MacroExpansion.expand(Self.base + query, context: context, settings: settings, using: &random)
    }

    /// The 8 digits a generator of `seed` draws first.
    func cacheBuster(seed: UInt64 = 7) -> String {
        var random = SeededGenerator(seed: seed)
        return String(UInt32.random(in: 10_000_000...99_999_999, using: &random))
    }

    @Test func eachMacroExpandsToItsValuePercentEncoded() {
        let expected: [(macro: String, value: String)] = [
            ("TIMESTAMP", "2023-01-31T03%3A25%3A34.076%2B00%3A00"),
            ("CACHEBUSTING", cacheBuster()),
            ("CONTENTPLAYHEAD", "01%3A02%3A03.004"),
            ("MEDIAPLAYHEAD", "01%3A02%3A03.004"),
            ("ADPLAYHEAD", "00%3A00%3A07.500"),
            ("BREAKPOSITION", "2"),
            ("ADCOUNT", "3"),
            ("PODSEQUENCE", "3"),
            ("ERRORCODE", "405"),
            ("REASON", "2"),
            ("DEVICEUA", "beaconctl%2F1.2.3%20%28linux%29"),
            ("LIMITADTRACKING", "0"),
            ("IFA", "6D92078A-8246-4BA4-AE5B-76104861E7DC"),
            ("IFATYPE", "rida"),
        ]
        for (macro, value) in expected {
            #expect(expand("&v=[\(macro)]&w=1") == Self.base + "&v=\(value)&w=1", "\(macro)")
        }
    }

    @Test func cacheBustingIsEightDigitsFromTheGeneratorTheSameWithinOneURL() {
        let url = expand("&a=[CACHEBUSTING]&b=%5BCACHEBUSTING%5D")
        let digits = cacheBuster()
        #expect(url == Self.base + "&a=\(digits)&b=\(digits)")
        #expect(digits.count == 8 && digits.allSatisfy(\.isNumber) && digits.first != "0")
        #expect(expand("&a=[CACHEBUSTING]") == expand("&a=[CACHEBUSTING]"), "a seeded generator gives the same URL")
        #expect(expand("&a=[CACHEBUSTING]", seed: 8) != expand("&a=[CACHEBUSTING]", seed: 7))
    }

    @Test func aMacroWhoseValueIsUnknownForTheBeaconIsMinus2() {
        let bare = MacroContext(occurredAt: Fixture.t0)
        for macro in ["CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "ADPLAYHEAD", "BREAKPOSITION", "ADCOUNT", "PODSEQUENCE", "ERRORCODE", "REASON"] {
            #expect(expand("&v=[\(macro)]", bare) == Self.base + "&v=-2", "\(macro)")
        }
        // A time no ISO 8601 form names: unknown too.
        #expect(expand("&v=[TIMESTAMP]", MacroContext(occurredAt: .max)) == Self.base + "&v=-2")
    }

    @Test func aVASTMacroTheDaemonDoesNotSupportIsMinus1() {
        for macro in ["PAGEURL", "DEVICEIP", "GDPRCONSENT", "LATLONG", "CLIENTUA", "UNIVERSALADID", "BREAKMAXADS", "ASSETURI"] {
            #expect(expand("&v=[\(macro)]") == Self.base + "&v=-1", "\(macro)")
            #expect(expand("&v=%5B\(macro)%5D") == Self.base + "&v=-1", "\(macro), percent-encoded")
        }
    }

    @Test func thePercentEncodedFormIsExpandedInEitherCase() {
        #expect(expand("&a=%5BADCOUNT%5D&b=%5bADCOUNT%5d&c=%5BADCOUNT%5d&d=[ADCOUNT]") == Self.base + "&a=3&b=3&c=3&d=3")
    }

    @Test func settingsGiveTheIdentifierEmptyByDefaultAndNoneWhenAdTrackingIsLimited() {
        let unset = MacroSettings(deviceUserAgent: "beaconctl")
        #expect(expand("&i=[IFA]&t=[IFATYPE]&l=[LIMITADTRACKING]", Self.context, unset) == Self.base + "&i=&t=&l=0")
        var limited = Self.settings
        limited.limitAdTracking = true
        #expect(expand("&i=[IFA]&t=[IFATYPE]&l=[LIMITADTRACKING]", Self.context, limited) == Self.base + "&i=&t=rida&l=1")
    }

    /// Brackets that are no VAST macro: an IPv6 host, lower case, names VAST does not define, an
    /// unclosed one, an empty one. The URL comes back byte for byte.
    @Test func whatIsNoVASTMacroStaysAsItIs() {
        let urls = [
            "http://[::1]:4647/beacon?a=1",
            Self.base + "&a=[timestamp]&b=[NOTAMACRO]&c=%5BNOTAMACRO%5D&d=[]&e=%5B%5D&f=[TIMESTAMP&g=%5BTIMESTAMP%5&h=%5",
            Self.base + "&a=%5Bx%5D&b=[CACHE BUSTING]",
        ]
        for url in urls {
            var random = SeededGenerator(seed: 1)
            #expect(MacroExpansion.expand(url, context: Self.context, settings: Self.settings, using: &random) == url)
        }
        var random = SeededGenerator(seed: 1)
        #expect(
            MacroExpansion.expand("http://[::1]:4647/b?t=[ADCOUNT]", context: Self.context, settings: Self.settings, using: &random)
                == "http://[::1]:4647/b?t=3")
    }

    /// A URL with no `[` nor `%5B` costs a scan: it comes back in the same buffer, nothing
    /// copied, and the generator is not drawn from.
    @Test func aURLWithoutMacroIsReturnedInItsOwnBufferAndDrawsNoRandomNumber() {
        let url = Self.base + "&cn=firstQuartile&x=%2F%5C%5D"
        var random = SeededGenerator(seed: 3)
        let expanded = MacroExpansion.expand(url, context: Self.context, settings: Self.settings, using: &random)
        #expect(expanded == url)
        #expect(Self.storage(of: expanded) == Self.storage(of: url), "the same buffer, no copy")
        var untouched = SeededGenerator(seed: 3)
        #expect(random.next() == untouched.next(), "no random number drawn")
    }

    static func storage(of text: String) -> UInt? {
        text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? nil
    }

    @Test func clockTimesAndTimestamps() {
        #expect(MacroExpansion.clockTime(0) == "00:00:00.000")
        #expect(MacroExpansion.clockTime(-5) == "00:00:00.000")
        #expect(MacroExpansion.clockTime(59_999) == "00:00:59.999")
        #expect(MacroExpansion.clockTime(360_000_001) == "100:00:00.001")
        #expect(MacroExpansion.timestamp(0) == "1970-01-01T00:00:00.000+00:00")
        #expect(MacroExpansion.timestamp(Fixture.t0) == "2023-01-31T03:25:34.076+00:00")
        #expect(MacroExpansion.encoded("aZ09-._~ /:+?&=%é") == "aZ09-._~%20%2F%3A%2B%3F%26%3D%25%C3%A9")
    }
}
