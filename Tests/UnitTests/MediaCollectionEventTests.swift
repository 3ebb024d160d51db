import Foundation
import Testing
@testable import BeaconDomain

@Suite(.timeLimit(.minutes(2))) struct MediaCollectionEventTests {
    private func json(_ event: MediaCollectionEvent) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(event.body)) as? [String: Any])
    }

    @Test func theBodyHasPlayerTimeWithANumericPlayheadAndAnIntegerTs() throws {
        let event = MediaCollectionEvent(
            type: .adStart, playhead: 12.5, ts: 1_700_000_000_123,
            params: ["media.ad.podPosition": .integer(1), "media.ad.length": .number(15), "media.ad.id": .string("a/1"),
                     "analytics.enableSSL": .boolean(true)],
            customMetadata: ["adSystem": "GDFP"])
        let text = String(decoding: event.body, as: UTF8.self)
        #expect(text.contains(#""playerTime":{"playhead":12.5,"ts":1700000000123}"#))
        #expect(text.contains(#""media.ad.id":"a/1""#))
        let body = try json(event)
        #expect(body["eventType"] as? String == "adStart")
        let params = try #require(body["params"] as? [String: Any])
        #expect(params["media.ad.podPosition"] as? Int == 1)
        #expect(params["analytics.enableSSL"] as? Bool == true)
        #expect(body["customMetadata"] as? [String: String] == ["adSystem": "GDFP"])
        #expect(body["qoeData"] == nil)
    }

    @Test func anEventWithoutParametersSendsOnlyItsTypeAndPlayerTime() throws {
        let body = try json(MediaCollectionEvent(type: .ping, playhead: .nan, ts: 5))
        #expect(Set(body.keys) == ["playerTime", "eventType"])
        #expect((body["playerTime"] as? [String: Any])?["playhead"] as? Double == 0)
    }

    @Test func theRequestGoesToSessionsOrToTheSessionsEvents() {
        let emission = MediaCollectionEmission(session: 1, event: MediaCollectionEvent(type: .play, playhead: 0, ts: 1))
        #expect(MediaCollectionRequest(emission: emission, sessionID: nil).url(endpoint: "https://c.test//") == "https://c.test/api/v1/sessions")
        let request = MediaCollectionRequest(emission: emission, sessionID: "s1").httpRequest(endpoint: "https://c.test")
        #expect(request.url == "https://c.test/api/v1/sessions/s1/events")
        #expect(request.method == .post)
        #expect(request.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
    }
}
