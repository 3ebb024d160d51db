import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct StatusReportTests {
    static let session = SessionEndpoints(
        mediaURL: "https://origin.example/live/master.m3u8",
        manifestURL: "https://ssai.example/variant/index.m3u8?sessid=abc",
        trackingURL: "https://ssai.example/variant/metadata?sessid=abc",
        sessionID: "abc")

    func fullReport() -> StatusReport {
        var adBreak = Fixture.adBreak(id: "p", start: Fixture.t0)
        adBreak.ads[0].trackingEvents[0].reportingState = .done
        adBreak.ads[0].trackingEvents[1].reportingState = .failed
        var counters = StatusReport.Counters()
        counters.ticks = 120
        counters.badLines = 1
        counters.beaconsSent = 5
        counters.beaconsFailed = 2
        counters.metadataFetches = 9
        counters.metadataErrors = 3
        return StatusReport(
            version: "1.2.3", state: "playing", session: Self.session, playhead: Fixture.t0 + 1000,
            dataRange: DataRange(start: Fixture.t0 - 60_000, end: Fixture.t0 + 30_000), adBreaks: [adBreak], counters: counters,
            lastError: "metadata: not valid JSON", metadataFailures: 2, nextMetadataAt: Fixture.t0 + 4_000,
            deliveries: [StatusReport.Delivery(Self.retrying, wallOffset: 0)], journal: StatusReport.Journal(state: .unavailable, error: "disk full"))
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func roundTripsThroughItsJSONLine() throws {
        let report = fullReport()
        let line = report.jsonLine()
        #expect(!line.contains("\n"))
        #expect(try StatusReport.decode(jsonLine: line) == report)
    }

    @Test func writesEveryContractFieldUnderItsName() throws {
        let json = try object(fullReport().jsonLine())
        #expect(
            Set(json.keys) == [
                "apiLevel", "version", "state", "session", "playhead", "lastTickAt", "lastMetadataAt", "dataRange", "adBreaks", "counters",
                "lastError", "metadataFailures", "nextMetadataAt", "initFailures", "nextInitAt", "deliveries", "journal",
                "timeline", "contentPosition", "adPlacement", "reporters", "adInsertion", "interstitial",
            ])
        #expect(json["apiLevel"] as? Int == StatusReport.currentAPILevel)
        #expect(json["version"] as? String == "1.2.3")
        #expect(json["state"] as? String == "playing")
        #expect(json["metadataFailures"] as? Int == 2)
        #expect((json["nextMetadataAt"] as? NSNumber)?.int64Value == Fixture.t0 + 4_000)
        #expect(json["initFailures"] as? Int == 0)
        #expect((json["playhead"] as? NSNumber)?.int64Value == Fixture.t0 + 1000)
        let session = try #require(json["session"] as? [String: Any])
        #expect(Set(session.keys) == ["mediaUrl", "manifestUrl", "trackingUrl", "sessionId", "dialect"])
        #expect(session["sessionId"] as? String == "abc")
        let range = try #require(json["dataRange"] as? [String: Any])
        #expect((range["start"] as? NSNumber)?.int64Value == Fixture.t0 - 60_000)
        let counters = try #require(json["counters"] as? [String: Any])
        #expect(
            Set(counters.keys) == [
                "ticks", "badLines", "beaconsSent", "beaconsFailed", "beaconsRetried", "beaconsResent", "metadataFetches", "metadataErrors",
                "journalErrors", "logLinesDropped",
            ])
        #expect(counters["beaconsFailed"] as? Int == 2)
        let adBreaks = try #require(json["adBreaks"] as? [[String: Any]])
        let ads = try #require(adBreaks.first?["ads"] as? [[String: Any]])
        #expect(Set(adBreaks[0].keys) == ["id", "startTime", "duration", "ads"])
        let events = try #require(ads.first?["trackingEvents"] as? [[String: Any]])
        #expect(Set(events[0].keys) == ["event", "startTime", "duration", "signalingUrls", "reportingState"])
        #expect(events[0]["event"] as? String == "impression")
        #expect(events.map { $0["reportingState"] as? String }.prefix(3) == ["done", "failed", "idle"])
        #expect((events[0]["startTime"] as? NSNumber)?.int64Value == Fixture.t0)
        let deliveries = try #require(json["deliveries"] as? [[String: Any]])
        #expect(
            Set(deliveries[0].keys) == ["podId", "adId", "event", "url", "sentUrl", "state", "attempts", "lastStatus", "lastError", "dueAt", "nextAttemptAt"])
        #expect(deliveries[0]["state"] as? String == "due")
        #expect(deliveries[0]["attempts"] as? Int == 2)
        #expect(deliveries[0]["lastStatus"] as? Int == 503)
        #expect((deliveries[0]["nextAttemptAt"] as? NSNumber)?.int64Value == Fixture.t0 + 4000)
        let journal = try #require(json["journal"] as? [String: Any])
        #expect(journal["state"] as? String == "unavailable")
        #expect(journal["error"] as? String == "disk full")
    }

    /// A delivery waiting for its third attempt after two 503s.
    static let retrying = BeaconDelivery(
        key: BeaconDelivery.Key(
            sessionKey: "abc", adBreakID: "p1", adID: "p1-a1", event: .impression, eventStart: Fixture.t0, url: "http://127.0.0.1:9/i",
            occurrence: 0),
        reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 0), attempts: 2, lastStatus: 503, lastError: "HTTP 503",
        dueAt: Fixture.t0, nextAttemptAt: Fixture.t0 + 4000)

    @Test func writesTheAdPlacementInTheDocumentsSpellingWithEveryFieldAlways() throws {
        var report = fullReport()
        let adBreak = AdBreakSummary(id: "p", index: 2, startTime: Fixture.t0, duration: 30_000, contentOffset: 600.5)
        report.adPlacement = AdPlacement(
            adBreak: adBreak, ad: AdSummary(id: "a", adBreakID: "p", position: 1, startTime: Fixture.t0, duration: 15_000, creativeID: "c-1"),
            offsetInAdBreak: 1_000, offsetInAd: 1_000)
        let placement = try #require(try object(report.jsonLine())["adPlacement"] as? [String: Any])
        #expect(Set(placement.keys) == ["adBreak", "ad", "offsetInAdBreak", "offsetInAd"])
        let placedBreak = try #require(placement["adBreak"] as? [String: Any])
        #expect(Set(placedBreak.keys) == ["id", "index", "startTime", "duration", "contentOffset"])
        #expect(placedBreak["contentOffset"] as? Double == 600.5)
        let ad = try #require(placement["ad"] as? [String: Any])
        #expect(Set(ad.keys) == ["id", "adBreakId", "position", "startTime", "duration", "title", "creativeId", "adSystem"])
        #expect(ad["creativeId"] as? String == "c-1")
        #expect(ad["title"] is NSNull)
        #expect(try StatusReport.decode(jsonLine: report.jsonLine()) == report)

        report.adPlacement = AdPlacement(adBreak: adBreak, offsetInAdBreak: 20_000)
        let between = try #require(try object(report.jsonLine())["adPlacement"] as? [String: Any])
        #expect(between["ad"] is NSNull && between["offsetInAd"] is NSNull)
        #expect(try StatusReport.decode(jsonLine: report.jsonLine()) == report)
        report.adPlacement = nil
        #expect(try object(report.jsonLine())["adPlacement"] is NSNull)
    }

    @Test func writesAbsentValuesAsNull() throws {
        let report = StatusReport(
            version: "1.2.3", state: "idle", session: nil, playhead: nil, dataRange: nil, adBreaks: [], counters: StatusReport.Counters())
        let line = report.jsonLine()
        let json = try object(line)
        for key in ["session", "playhead", "dataRange", "lastError", "nextMetadataAt", "nextInitAt"] {
            #expect(json[key] is NSNull, "\(key) should be null")
        }
        #expect((json["adBreaks"] as? [Any])?.isEmpty == true)
        #expect(try StatusReport.decode(jsonLine: line) == report)
    }

    @Test func writesAMissingSessionIDAsNull() throws {
        var report = fullReport()
        report.session?.sessionID = nil
        let session = try #require(try object(report.jsonLine())["session"] as? [String: Any])
        #expect(session["sessionId"] is NSNull)
    }

    /// A daemon of an earlier release, at the same API level, sends no retry fields: they read as none.
    @Test func readsAReportWithoutTheRetryFields() throws {
        let report = try StatusReport.decode(
            jsonLine: #"{"apiLevel":1,"version":"0.1","state":"idle","session":null,"playhead":null,"dataRange":null,"adBreaks":[],"#
                + #""counters":{"ticks":0,"badLines":0,"beaconsSent":0,"beaconsFailed":0,"metadataFetches":0,"metadataErrors":0},"lastError":null}"#)
        #expect(report.state == "idle")
        #expect(report.metadataFailures == 0 && report.nextMetadataAt == nil)
        #expect(report.initFailures == 0 && report.nextInitAt == nil)
    }

    @Test func rejectsALineThatIsNotAReport() {
        #expect(throws: (any Error).self) { try StatusReport.decode(jsonLine: "{}") }
        #expect(throws: (any Error).self) { try StatusReport.decode(jsonLine: "status") }
    }

    /// Each delivery shows its signaling URL as in the metadata and the URL its requests go to.
    @Test func aDeliveryShowsTheURLAsInTheMetadataAndAsSent() throws {
        let delivery = BeaconDelivery(
            key: .init(sessionKey: "abc", adBreakID: "p", adID: "a", event: .start, eventStart: 5, url: "http://127.0.0.1:4647/b?cb=[CACHEBUSTING]", occurrence: 0),
            sentURL: "http://127.0.0.1:4647/b?cb=12345678", reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 1), state: .due,
            attempts: 1, lastStatus: 503, dueAt: 1000)
        let shown = StatusReport.Delivery(delivery, wallOffset: 0)
        #expect(shown.url == "http://127.0.0.1:4647/b?cb=[CACHEBUSTING]")
        #expect(shown.sentURL == "http://127.0.0.1:4647/b?cb=12345678")
        let line = try #require(StatusView.detail(shown))
        #expect(line.hasSuffix("http://127.0.0.1:4647/b?cb=[CACHEBUSTING]   sent as http://127.0.0.1:4647/b?cb=12345678"))
        let json = try #require(String(data: JSONEncoder().encode(shown), encoding: .utf8))
        #expect(json.contains("\"sentUrl\""))
        // A daemon of an earlier release sends no sentUrl: it sent the URL as in the metadata.
        let older = try JSONDecoder().decode(
            StatusReport.Delivery.self,
            from: Data(#"{"podId":"p","adId":"a","event":"start","url":"http://h/b","state":"due","attempts":0,"dueAt":1}"#.utf8))
        #expect(older.sentURL == "http://h/b")
        #expect(StatusView.detail(older)?.contains("sent as") == false)
    }
}
