import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// MediaTailor's tracking document read into the model: avails as ad breaks, ads, tracking events.
@Suite(.timeLimit(.minutes(2))) struct MediaTailorDocumentTests {
    /// Each published document, with every avail, ad and tracking event as the model holds it.
    @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
    func everyPublishedDocumentIsRead() throws {
        let documents = Dictionary(uniqueKeysWithValues: try Fixture.mediaTailorDocuments().map { ($0.name, $0.body) })
        #expect(documents.count == 4)
        func read(_ name: String) throws -> MediaTailorDocument { try MediaTailorDocument.decode(try #require(documents[name], "\(name)")) }

        let live = try read("aws-doc-adverifications-live.json")
        #expect(live.metadata.timeline == .mediaTime)
        let liveOffset: Milliseconds = 1_692_807_940_914 - 10_110
        #expect(live.metadata.programDateTimeOffset == liveOffset)
        #expect(live.nextToken == "UFQxMC4xMVNfMjAyMy0wOC0yM1QxNjoyNjoyNC4yNDYxMDIxOTBaXzE%3D")
        #expect(live.metadata.adBreaks.map(\.id) == ["3062770"])
        let verified = live.metadata.adBreaks[0].ads[0]
        #expect((verified.id, verified.startTime, verified.duration) == ("3062770", 10_110, 14_982))
        #expect(verified.trackingEvents.map(\.event) == [.impression, .verificationNotExecuted])
        #expect(verified.trackingEvents.map(\.signalingURLs) == [["http://127.0.0.1:4647/v1/impression"], ["http://127.0.0.1:4647/trackingurl"]])
        #expect(verified.trackingEvents[0].duration == 14_982)

        let beaconing = try read("aws-doc-client-side-beaconing.json")
        #expect(beaconing.nextToken == nil)
        #expect(beaconing.metadata.programDateTimeOffset == nil)
        let adBreak = try #require(beaconing.metadata.adBreaks.first)
        #expect((adBreak.id, adBreak.startTime, adBreak.duration, adBreak.ads.count) == ("8104385", 17_817, 15_100, 1))
        #expect(adBreak.ads[0].trackingEvents.map(\.event) == [.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete])
        #expect(adBreak.ads[0].trackingEvents.map(\.startTime) == [17_817, 17_817, 21_592, 25_367, 29_142, 32_917])
        #expect(adBreak.ads[0].trackingEvents.map(\.signalingURLs.first) == [
            "impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
        ].map { "http://127.0.0.1:4647/tracking?event=\($0)" })
        #expect(beaconing.metadata.dataRange == DataRange(start: 17_817, end: 32_917 + TrackingEvent.minimumWindow))

        let api = try read("aws-doc-client-side-tracking-api.json")
        #expect(api.metadata.adBreaks.map(\.id) == ["5"])
        #expect(api.metadata.adBreaks[0].ads.map(\.id) == ["5"])
        #expect(api.metadata.adBreaks[0].ads[0].trackingEvents == [
            TrackingEvent(event: .impression, startTime: 30_000, duration: 15_000, signalingURLs: ["http://127.0.0.1:4647/impression"])
        ])
        #expect(api.nextToken == "UFQ1TTM0Ljk2N1NfMjAyMi0xMS0xOFQwNDozMzo1Mi4yNDUxOTdaXzE%3D")

        let breakTracking = try read("bitmovin-android-break-tracking-events.json")
        #expect(breakTracking.nextToken == nil)
        let avail = try #require(breakTracking.metadata.adBreaks.first)
        #expect(avail.ads.map(\.id) == [MediaTailorDocument.adBreakTrackingAdID])
        #expect(avail.ads[0].trackingEvents.map(\.event) == [.breakEnd, .breakStart])
        #expect(avail.ads[0].trackingEvents.allSatisfy { $0.signalingURLs.first?.hasPrefix("http://127.0.0.1:4647/pagead/interaction/") == true })

        for (name, body) in documents { #expect(Dialect.of(trackingDocument: body) == .mediatailor, "\(name)") }
    }

    /// An avail's breakStart fires at its start, breakEnd at its end, on an ad of their own placed first.
    @Test func adBreakTrackingEventsAtTheAvailsStartAndEnd() throws {
        let document = try MediaTailorDocument.decode(Fixture.json(#"""
            {"avails": [{"availId": "b1", "startTimeInSeconds": 60, "durationInSeconds": 30,
              "adBreakTrackingEvents": [{"eventType": "breakStart", "beaconUrls": ["http://x/bs"]}, {"eventType": "breakEnd", "beaconUrls": ["http://x/be"]}],
              "ads": [{"adId": "a1", "startTimeInSeconds": 60, "durationInSeconds": 30, "trackingEvents": [{"eventType": "impression", "startTimeInSeconds": 60, "beaconUrls": ["http://x/i"]}]}]}]}
            """#))
        let adBreak = try #require(document.metadata.adBreaks.first)
        #expect(adBreak.ads.map(\.id) == [MediaTailorDocument.adBreakTrackingAdID, "a1"])
        #expect(adBreak.ads[0].trackingEvents.map(\.startTime) == [60_000, 90_000])
        #expect(adBreak.ads[0].trackingEvents.allSatisfy(adBreak.ads[0].confirms))
        #expect((adBreak.ads[0].startTime, adBreak.ads[0].duration) == (60_000, 30_000))
    }

    /// Times as ISO 8601 text where numbers are absent, and numbers where ISO 8601 is expected.
    @Test func bothTimeFormsRead() throws {
        let document = try MediaTailorDocument.decode(Fixture.json(#"""
            {"avails": [{"availId": 7, "startTime": "PT1M2.003S", "duration": 15,
              "ads": [{"adId": "a", "startTime": "PT1M2.003S", "durationInSeconds": "PT15S", "trackingEvents": [{"eventType": "Start", "startTime": 62.003, "beaconUrls": []}]}]}]}
            """#))
        let adBreak = try #require(document.metadata.adBreaks.first)
        #expect((adBreak.id, adBreak.startTime, adBreak.duration) == ("7", 62_003, 15_000))
        #expect(adBreak.ads[0].trackingEvents.map(\.event) == [.start])
        #expect(adBreak.ads[0].trackingEvents.map(\.startTime) == [62_003])
    }

    @Test(arguments: [
        (#"[1]"#, "not a JSON object"),
        (#"{"avails": [{"availId": "p", "startTimeInSeconds": "soon"}]}"#, "avails[0].startTimeInSeconds: 'soon' is no number of seconds or ISO 8601 duration"),
        (#"{"avails": [{"availId": "p", "durationInSeconds": 90000}]}"#, "ad break p: duration 90000000 ms is over a day"),
        (#"{"avails": [{"availId": "p", "startTimeInSeconds": 1692807940.914}]}"#, "ad break p: start 1692807940914 ms is a date, not a time from the start of the session"),
        (#"{"avails": [{"availId": "p", "ads": [{"adId": "a", "trackingEvents": [{"beaconUrls": []}]}]}]}"#, "missing 'eventType' in avails[0].ads[0].trackingEvents[0]"),
        (#"{"avails": [{"availId": "p", "startTimeInSeconds": -2}]}"#, "avails[0].startTimeInSeconds: -2.0 s is out of range"),
    ])
    func unusableDocumentsRejectedNamingWhere(_ body: String, _ reason: String) {
        #expect(throws: MetadataError(reason: reason)) { try MediaTailorDocument.decode(Fixture.json(body)) }
    }

    /// Pages merge: a later page's avail replaces an earlier one of the same id, the last token stays.
    @Test func pagesMerged() throws {
        let first = try MediaTailorDocument.decode(Fixture.json(
            #"{"avails": [{"availId": "1", "startTimeInSeconds": 10, "durationInSeconds": 5}, {"availId": "2", "startTimeInSeconds": 30, "durationInSeconds": 5}], "nextToken": "t1"}"#))
        let second = try MediaTailorDocument.decode(Fixture.json(
            #"{"avails": [{"availId": "2", "startTimeInSeconds": 30, "durationInSeconds": 8, "availProgramDateTime": "2023-08-23T16:25:40.914Z"}, {"availId": "3", "startTimeInSeconds": 50, "durationInSeconds": 5}], "nextToken": "t2"}"#))
        let merged = MediaTailorDocument.merged([first, second])
        #expect(merged.metadata.adBreaks.map(\.id) == ["1", "2", "3"])
        #expect(merged.metadata.adBreaks[1].duration == 8_000)
        #expect(merged.nextToken == "t2")
        let offset: Milliseconds = 1_692_807_940_914 - 30_000
        #expect(merged.metadata.programDateTimeOffset == offset)
        #expect(merged.metadata.dataRange == DataRange(start: 10_000, end: 55_000))
    }

    @Test func dialectFromTheDocumentsShape() {
        #expect(Dialect.of(trackingDocument: Fixture.json(#"{"avails": [], "nextToken": null}"#)) == .mediatailor)
        #expect(Dialect.of(trackingDocument: Fixture.json(#"{"dataRange": {"start": 1, "end": 2}, "adBreaks": [], "avails": 1}"#)) == .harmonic)
        #expect(Dialect.of(trackingDocument: Fixture.json(#"{}"#)) == .harmonic)
    }

    @Test func nextTokenAddedAsWritten() {
        #expect(SessionEndpoints.page("http://h/v1/tracking/a/b/s1", nextToken: "UFQ%3D") == "http://h/v1/tracking/a/b/s1?nextToken=UFQ%3D")
        #expect(SessionEndpoints.page("http://h/t?x=1", nextToken: "a b+c") == "http://h/t?x=1&nextToken=a%20b%2Bc")
    }
}

extension MediaTailorDocumentTests {
    /// CPU-bound for seconds: `make test` runs it in its sweeps step, apart from the tests that
    /// need the cooperative pool on time (loopback servers, timers, waits).
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        /// A body cut anywhere, or with any byte changed to a digit, a quote or a brace, is read or
        /// rejected with a reason: never a crash.
        @Test(.enabled(if: Fixture.sharedFixtures != nil, Fixture.sharedFixturesMissing))
        func damagedDocumentsAreReadOrRejected() throws {
            for (_, body) in try Fixture.mediaTailorDocuments() {
                for cut in stride(from: 0, to: body.count, by: 7) {
                    _ = try? MediaTailorDocument.decode(body.prefix(cut))
                    for replacement in Array("9\"{".utf8) {
                        var damaged = body
                        damaged[cut] = replacement
                        do {
                            _ = try MediaTailorDocument.decode(damaged)
                        } catch {
                            #expect(!error.reason.isEmpty)
                        }
                    }
                }
            }
        }
    }
}
