@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The snapshot's own JSON writer against what `Codable` reads back and what JSONEncoder writes.
@Suite("Session snapshot JSON", .timeLimit(.minutes(2)))
struct SessionSnapshotJSONTests {
    static let awkwardTexts = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "tab\tnewline\ncr\r", "nul \u{0} bell \u{7} unit \u{1F} del \u{7F}",
        "é ü ß", "日本語", "emoji 🎬👍🏽", "\u{2028}\u{2029}", "https://127.0.0.1:8080/beacon?e=start&x=%20\"1\"",
    ]

    static func decoded(_ bytes: [UInt8]) throws -> SessionSnapshot {
        try JSONDecoder().decode(SessionSnapshot.self, from: Data(bytes))
    }

    @Test func everyAwkwardStringAndIntegerReadsBackAsWritten() throws {
        let integers: [Int64] = [0, 1, -1, 9, 10, -10, 1_675_135_534_076, .max, .min, .max - 1, .min + 1]
        for (index, text) in Self.awkwardTexts.enumerated() {
            let event = TrackingEvent(
                event: TrackingEventType(rawValue: text), startTime: integers[index % integers.count],
                duration: integers[(index + 3) % integers.count], signalingURLs: [text, text + "2"], reportingState: .failed)
            let snapshot = SessionSnapshot(
                endpoints: SessionEndpoints(mediaURL: text, manifestURL: text + "m", trackingURL: text + "t", sessionID: text),
                adBreaks: [AdBreak(id: text, startTime: integers[index % integers.count], duration: 0, ads: [
                    Ad(id: text, startTime: .min, duration: .max, trackingEvents: [event]),
                ])],
                dataRange: DataRange(start: .min, end: .max), played: [[.min, .max], []], playhead: integers[(index + 5) % integers.count],
                savedAt: -1)
            #expect(try Self.decoded(snapshot.jsonBytes()) == snapshot, "text \(index)")
        }
    }

    @Test func optionalsLeftOutReadBackAsNil() throws {
        let snapshot = SessionSnapshot(
            endpoints: SessionEndpoints(mediaURL: "http://127.0.0.1/live.m3u8", manifestURL: "m", trackingURL: "t", sessionID: nil),
            adBreaks: [], dataRange: nil, played: [], playhead: nil, savedAt: 5)
        let text = String(decoding: snapshot.jsonBytes(), as: UTF8.self)
        #expect(
            text == #"{"endpoints":{"mediaUrl":"http://127.0.0.1/live.m3u8","manifestUrl":"m","trackingUrl":"t","sessionId":null},"#
                + #""adBreaks":[],"played":[],"savedAt":5}"#)
        #expect(try Self.decoded(snapshot.jsonBytes()) == snapshot)
    }

    /// A session's interstitials, with what each asset played, read back as written.
    @Test func theInterstitialsReadBackAsWritten() throws {
        var event = InterstitialState(id: "i \"1\"", place: Fixture.t0, resumeOffset: 0)
        event.grow(to: 1)
        event.assets[0] = InterstitialState.Asset(uri: "http://127.0.0.1/a.m3u8", listedDuration: 12_000)
        event.assets[0].started = true
        event.assets[0].playedToEnd = true
        event.assets[0].played.insert(Fixture.t0...(Fixture.t0 + 12_000))
        event.current = 1
        event.position = 250
        event.trackingProblem = "none"
        var log = InterstitialLog()
        log.begin(event)
        log.finish(event.id, reason: .skipped)
        var snapshot = SessionSnapshot(
            endpoints: SessionEndpoints(mediaURL: "http://127.0.0.1/m", manifestURL: "m", trackingURL: "t", sessionID: "s"),
            adBreaks: [], dataRange: nil, played: [], playhead: nil, savedAt: 5)
        snapshot.interstitials = log
        #expect(try Self.decoded(snapshot.jsonBytes()) == snapshot)
    }

    @Test func commasSeparateMembersAndElementsAtEveryDepth() {
        var json = JSONBytes()
        json.object { json in
            json.member("a") { $0.array([[], [1], [1, 2]] as [[Int64]]) { $0.array($1) { $0.integer($1) } } }
            json.member("b") { $0.object { _ in } }
            json.member("c") { $0.array([Int64]()) { $0.integer($1) } }
            json.member("d") { $0.null() }
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"a":[[],[1],[1,2]],"b":{},"c":[],"d":null}"#)
    }

    static func randomSnapshot(using random: inout SeededGenerator) -> SessionSnapshot {
        func text() -> String {
            Bool.random(using: &random) ? awkwardTexts.randomElement(using: &random)! : "id-\(Int.random(in: 0...999, using: &random))"
        }
        func time() -> Milliseconds { Milliseconds.random(in: -5_000...1_700_000_000_000, using: &random) }
        let states = ReportingState.allCases
        let adBreaks = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            AdBreak(id: text(), startTime: time(), duration: time(), ads: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Ad(id: text(), startTime: time(), duration: time(), trackingEvents: (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    TrackingEvent(
                        event: TrackingEventType(rawValue: text()), startTime: time(), duration: time(),
                        signalingURLs: (0..<Int.random(in: 0...3, using: &random)).map { _ in text() },
                        reportingState: states.randomElement(using: &random)!,
                        heldBack: ([nil] + HoldReason.allCases).randomElement(using: &random)!,
                        currentSignalingURLs: Bool.random(using: &random) ? nil : (0..<Int.random(in: 0...2, using: &random)).map { _ in text() })
                }, title: Bool.random(using: &random) ? text() : nil, creativeID: Bool.random(using: &random) ? text() : nil,
                adSystem: Bool.random(using: &random) ? text() : nil)
            })
        }
        return SessionSnapshot(
            endpoints: SessionEndpoints(
                mediaURL: text(), manifestURL: text(), trackingURL: text(), sessionID: Bool.random(using: &random) ? text() : nil),
            adBreaks: adBreaks, dataRange: Bool.random(using: &random) ? DataRange(start: time(), end: time()) : nil,
            played: (0..<Int.random(in: 0...3, using: &random)).map { _ in [time(), time()] },
            playhead: Bool.random(using: &random) ? time() : nil, savedAt: time())
    }
}

extension SessionSnapshotJSONTests {
    /// CPU-bound for seconds: `make test` runs it in its sweeps step, apart from the tests that
    /// need the cooperative pool on time (loopback servers, timers, waits).
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        @Test func randomSnapshotsReadBackAsWrittenAndAsJSONEncoderWrote() throws {
            var random = SeededGenerator(seed: 0x5eed_5a9e)
            for round in 0..<300 {
                let snapshot = SessionSnapshotJSONTests.randomSnapshot(using: &random)
                let written = snapshot.jsonBytes()
                #expect(try SessionSnapshotJSONTests.decoded(written) == snapshot, "round \(round)")
                #expect(try SessionSnapshotJSONTests.decoded(written) == SessionSnapshotJSONTests.decoded(Array(try JSONEncoder().encode(snapshot))), "round \(round)")
            }
        }
    }
}
