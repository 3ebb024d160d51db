import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// How each notification becomes a history entry.
@Suite(.timeLimit(.minutes(2))) struct HistoryEventTests {
    static let endpoints = SessionEndpoints(
        mediaURL: "http://127.0.0.1:1/live/master.m3u8", manifestURL: "http://127.0.0.1:1/live/v.m3u8?sessid=s1",
        trackingURL: "http://127.0.0.1:1/live/metadata?sessid=s1", sessionID: "s1")
    static let firing = Firing(
        reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 1), adBreakID: "p1", adID: "p1-a1", event: .start, eventStart: 0,
        signalingURLs: ["http://127.0.0.1:1/b?1", "http://127.0.0.1:1/b?2"])

    static let retrying = BeaconDelivery(
        key: BeaconDelivery.Key(
            sessionKey: "s1", adBreakID: "p1", adID: "p1-a1", event: .start, eventStart: 0, url: "http://127.0.0.1:1/b?1", occurrence: 0),
        reference: firing.reference, attempts: 1, lastStatus: 503, dueAt: 0, nextAttemptAt: 800)

    static func result(_ url: String, _ outcome: RequestResult.Outcome) -> RequestResult {
        RequestResult(url: url, outcome: outcome, latencyMilliseconds: 3)
    }

    /// One notification of every case, each with the entry it must give (nil: not recorded).
    /// The switch makes a new notification case fail to compile here until it is mapped.
    static let cases: [(DaemonNotification, HistoryEvent?)] = [
        (.sessionStarting(mediaURL: "http://m"), HistoryEvent(.sessionStarting, ["mediaUrl": "http://m"])),
        (.sessionReady(endpoints), HistoryEvent(.sessionReady, [
            "sessionId": "s1", "manifestUrl": endpoints.manifestURL, "trackingUrl": endpoints.trackingURL,
        ])),
        (.sessionFailed(mediaURL: "http://m", reason: "HTTP 404"), HistoryEvent(.sessionFailed, ["mediaUrl": "http://m", "reason": "HTTP 404"])),
        (.sessionEnded(sessionID: nil), HistoryEvent(.sessionEnded, ["sessionId": "-"])),
        (.metadataApplied(adBreaks: 2, dataRange: DataRange(start: Fixture.t0, end: Fixture.t0 + 1_000), bytes: 512), HistoryEvent(.metadataApplied, [
            "adBreaks": "2", "dataRangeStart": "2023-01-31T03:25:34.076Z", "dataRangeEnd": "2023-01-31T03:25:35.076Z", "bytes": "512",
        ])),
        // A range on media time is shown as positions.
        (.metadataApplied(adBreaks: 2, dataRange: DataRange(start: 0, end: 61_000), bytes: 512), HistoryEvent(.metadataApplied, [
            "adBreaks": "2", "dataRangeStart": "00:00:00.000", "dataRangeEnd": "00:01:01.000", "bytes": "512",
        ])),
        (.adBreaksDiscovered(adBreakIDs: ["p1", "p2"]), HistoryEvent(.adBreaksDiscovered, ["adBreaks": "p1,p2"])),
        (.metadataUnchanged(bytes: 512), nil),
        (.metadataFailed(reason: "HTTP 500"), HistoryEvent(.metadataFailed, ["reason": "HTTP 500"])),
        (.lineRejected(reason: "empty line"), HistoryEvent(.lineRejected, ["reason": "empty line"])),
        (.beaconsDue(firing), nil),
        // A quartile that falls due is the ad's progress.
        (.beaconsDue(quartile), HistoryEvent(.adProgress, ["adBreak": "p1", "ad": "p1-a1", "event": "midpoint"])),
        (.beaconsDelivered(firing, results: [result("http://127.0.0.1:1/b?1", .answered(status: 204)), result("http://127.0.0.1:1/b?2", .notSent(.quiet))], state: .done),
         HistoryEvent(.beaconsDelivered, ["adBreak": "p1", "ad": "p1-a1", "event": "start", "results": "204,quiet"])),
        (.beaconsDelivered(firing, results: [result("http://127.0.0.1:1/b?1", .answered(status: 200)), result("http://127.0.0.1:1/b?2", .answered(status: 503))], state: .failed),
         HistoryEvent(.beaconsFailed, [
            "adBreak": "p1", "ad": "p1-a1", "event": "start", "results": "200,503", "failed": "1/2",
            "url": "http://127.0.0.1:1/b?2", "reason": "HTTP 503",
         ])),
        (.beaconRetrying(retrying), nil),
        (.drainStarted(inFlight: 3), HistoryEvent(.drainStarted, ["inFlight": "3"])),
        (.drainTimedOut(inFlight: 1), HistoryEvent(.drainTimedOut, ["cancelled": "1"])),
        (.playbackLoaded(mediaURL: "http://m", options: LoadOptions()), nil),
        (.playheadObserved(PlayheadObservation(tick: PlayheadTick(playhead: Fixture.t0))), nil),
        (.playerEventObserved(.play), HistoryEvent(.played)),
        (.playerEventObserved(.pause), HistoryEvent(.paused)),
        (.playerEventObserved(.seekStart), HistoryEvent(.seekStarted)),
        (.playerEventObserved(.seekEnd), HistoryEvent(.seekEnded)),
        (.playerEventObserved(.bufferStart), HistoryEvent(.bufferStarted)),
        (.playerEventObserved(.bufferEnd), HistoryEvent(.bufferEnded)),
        (.playerEventObserved(.rate(2)), HistoryEvent(.rateChanged, ["rate": "2.0"])),
        (.playerEventObserved(.complete), HistoryEvent(.playbackCompleted)),
        (.userActionObserved(.mute), nil),
        (.adLifecycle(.adBreakStarted(adBreak)), HistoryEvent(.adBreakStarted, ["adBreak": "p1", "index": "2", "contentOffset": "600.5", "duration": "30000"])),
        (.adLifecycle(.adStarted(ad)), HistoryEvent(.adStarted, [
            "adBreak": "p1", "ad": "p1-a2", "position": "2", "duration": "15000", "title": "Polar bear", "creativeId": "00006", "adSystem": "2.0",
        ])),
        // What the metadata does not say of an ad is left out.
        (.adLifecycle(.adStarted(AdSummary(id: "p1-a1", adBreakID: "p1", position: 1, startTime: 0, duration: 15_000))),
         HistoryEvent(.adStarted, ["adBreak": "p1", "ad": "p1-a1", "position": "1", "duration": "15000"])),
        (.adLifecycle(.adCompleted(ad)), HistoryEvent(.adCompleted, ["adBreak": "p1", "ad": "p1-a2", "position": "2"])),
        (.adLifecycle(.adSkipped(ad)), HistoryEvent(.adSkipped, ["adBreak": "p1", "ad": "p1-a2", "position": "2"])),
        (.interstitialStarted(interstitial), HistoryEvent(.interstitialStarted, ["id": "i1", "place": "2023-01-31T03:25:34.076Z"])),
        (.interstitialEnded(interstitial, reason: .skipped), HistoryEvent(.interstitialEnded, ["id": "i1", "reason": "skipped", "assetsPlayed": "1"])),
        (.interstitialEnded(interstitial, reason: .error), HistoryEvent(.interstitialFailed, ["id": "i1", "reason": "error", "assetsPlayed": "1"])),
        (.adLifecycle(.adBreakCompleted(adBreak)), HistoryEvent(.adBreakCompleted, ["adBreak": "p1", "index": "2", "contentOffset": "600.5"])),
        (.playerNotified(.stopPlayback(.heartbeatFailures)), HistoryEvent(.stopPlayback, ["reason": "heartbeatFailures", "action": "stop"])),
        (.playerNotified(.blackout(.deny, blackoutURL: "https://s.example/b")), HistoryEvent(.blackout, [
            "action": "DENY", "blackoutUrl": "https://s.example/b", "suggestedAction": "playSlate",
        ])),
        (.playerNotified(.liveProgramStart), HistoryEvent(.liveProgramStart, ["suggestedAction": "switchToMain"])),
        (.playerNotified(.liveEventEnd), HistoryEvent(.liveEventEnd, ["suggestedAction": "playPostSlate"])),
        (.playerNotified(.overflowEventEnd), HistoryEvent(.overflowEventEnd, ["suggestedAction": "exit"])),
        (.playerNotified(.analyticsError(reason: "the content has no id")), HistoryEvent(.analyticsError, [
            "reporter": "media-analytics", "reason": "the content has no id", "suggestedAction": "fixAndReload",
        ])),
        (.heartbeatFailing(failuresInARow: 2, reason: "HTTP 503"), HistoryEvent(.heartbeatFailing, ["failuresInARow": "2", "reason": "HTTP 503"])),
        (.playerInformed(.error(PlaybackError(source: .player, id: "3016", message: "decoder failed"))),
         HistoryEvent(.playerError, ["source": "player", "id": "3016", "message": "decoder failed"])),
        (.playerInformed(.error(PlaybackError(source: .application, id: "DRM"))), HistoryEvent(.applicationError, ["source": "application", "id": "DRM"])),
        (.playerInformed(.chapterStart(Chapter(index: 2, offset: 600, length: 12.5, name: "Act 2"))),
         HistoryEvent(.chapterStarted, ["index": "2", "offset": "600", "length": "12.5", "name": "Act 2"])),
        (.playerInformed(.chapterEnd), HistoryEvent(.chapterEnded)),
        (.playerInformed(.chapterSkip), HistoryEvent(.chapterSkipped)),
        (.playerInformed(.stateStart("fullScreen")), HistoryEvent(.playerStateStarted, ["state": "fullScreen"])),
        (.playerInformed(.stateEnd("mute")), HistoryEvent(.playerStateEnded, ["state": "mute"])),
        (.playerInformed(.privacy(.optOut)), HistoryEvent(.privacySet, ["status": "optout"])),
        (.playerInformed(.notice(notice)), .application(notice)),
        // Told at every load, or as often as every tick: not recorded.
        (.playerInformed(.content(ContentInformation(id: "ep-1"))), nil),
        (.playerInformed(.quality(QualityOfService(bitrate: 1))), nil),
    ]

    // A valid code and text: `make` cannot refuse them.
    static let notice = try! ApplicationNotice.make(code: 299042, text: "low memory").get()
    static let quartile = Firing(
        reference: EventReference(adBreakID: "p1", adIndex: 0, eventIndex: 3), adBreakID: "p1", adID: "p1-a1", event: .midpoint, eventStart: 0,
        signalingURLs: ["http://127.0.0.1:1/b?3"])

    static let interstitial = {
        var event = InterstitialState(id: "i1", place: Fixture.t0, resumeOffset: nil)
        event.grow(to: 1)
        event.assets[0].started = true
        return event
    }()
    static let adBreak = AdBreakSummary(id: "p1", index: 2, startTime: 600_500, duration: 30_000, contentOffset: 600.5)
    static let ad = AdSummary(
        id: "p1-a2", adBreakID: "p1", position: 2, startTime: 615_500, duration: 15_000, title: "Polar bear", creativeID: "00006", adSystem: "2.0")

    /// The case a notification is, by name, so that every case is known to be covered.
    static func caseName(_ notification: DaemonNotification) -> String {
        switch notification {
        case .sessionStarting: "sessionStarting"
        case .sessionReady: "sessionReady"
        case .sessionFailed: "sessionFailed"
        case .sessionEnded: "sessionEnded"
        case .metadataApplied: "metadataApplied"
        case .adBreaksDiscovered: "adBreaksDiscovered"
        case .metadataUnchanged: "metadataUnchanged"
        case .metadataFailed: "metadataFailed"
        case .lineRejected: "lineRejected"
        case .beaconsDue: "beaconsDue"
        case .beaconsDelivered: "beaconsDelivered"
        case .beaconRetrying: "beaconRetrying"
        case .drainStarted: "drainStarted"
        case .drainTimedOut: "drainTimedOut"
        case .playbackLoaded: "playbackLoaded"
        case .playheadObserved: "playheadObserved"
        case .playerEventObserved: "playerEventObserved"
        case .userActionObserved: "userActionObserved"
        case .playerInformed: "playerInformed"
        case .adLifecycle: "adLifecycle"
        case .playerNotified: "playerNotified"
        case .heartbeatFailing: "heartbeatFailing"
        case .interstitialStarted: "interstitialStarted"
        case .interstitialEnded: "interstitialEnded"
        }
    }

    @Test func everyNotificationCaseIsMappedAsExpected() {
        for (notification, expected) in Self.cases {
            #expect(notification.historyEvent == expected, "\(Self.caseName(notification))")
        }
        #expect(Set(Self.cases.map { Self.caseName($0.0) }).count == 24)
    }

    @Test func everyKindComesFromSomeNotification() {
        let produced = Set(Self.cases.compactMap { $0.1?.kind })
        #expect(Self.cases.contains { $0.1?.kind == nil && $0.1 != nil }, "an application's entry has no kind of the daemon's")
        #expect(produced == Set(EventKind.allCases))
    }

    @Test func aRefusedOrUnansweredURLGivesItsReason() {
        let refused = DaemonNotification.beaconsDelivered(
            Self.firing, results: [Self.result("ftp://x", .refused("only http and https")), Self.result("http://y", .failed(.timedOut))],
            state: .failed)
        #expect(refused.historyEvent?.details["reason"] == "only http and https")
        #expect(refused.historyEvent?.details["url"] == "ftp://x")
        #expect(refused.historyEvent?.details["results"] == "refused,failed")
        #expect(refused.historyEvent?.details["failed"] == "2/2")
    }

    @Test func longValuesAreCut() {
        let event = HistoryEvent(.metadataFailed, ["reason": String(repeating: "x", count: 5_000)])
        #expect(event.details["reason"] == String(repeating: "x", count: HistoryEvent.maxDetailLength) + "…")
        #expect(HistoryEvent(.metadataFailed, ["reason": "short"]).details["reason"] == "short")
    }
}
