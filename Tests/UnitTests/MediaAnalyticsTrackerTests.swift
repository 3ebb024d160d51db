import Testing
@testable import BeaconDomain

@Suite(.timeLimit(.minutes(2))) struct MediaAnalyticsTrackerTests {
    private func playing(_ settings: MediaAnalyticsSettings = MediaFixture.settings) -> TrackerDriver {
        var driver = TrackerDriver(settings)
        driver.send(MediaFixture.load())
        driver.send(MediaFixture.ready)
        driver.send(.playerEventObserved(.play))
        return driver
    }

    @Test func theSessionStartsOnTheFirstPlayAfterALoadWithEveryRequiredParameter() throws {
        var driver = TrackerDriver()
        driver.send(.playerEventObserved(.play))
        #expect(driver.emitted.isEmpty)
        driver.send(MediaFixture.load())
        #expect(driver.emitted.isEmpty)
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.sessionStart, .play])
        let start = try #require(driver.emitted.first?.event)
        #expect(start.params["analytics.trackingServer"] == .string("metrics.example.com"))
        #expect(start.params["analytics.reportSuite"] == .string("suite-1"))
        #expect(start.params["analytics.enableSSL"] == .boolean(true))
        #expect(start.params["visitor.marketingCloudOrgId"] == .string("ORG@AdobeOrg"))
        #expect(start.params["media.id"] == .string("episode-7"))
        #expect(start.params["media.name"] == .string("The Pilot"))
        #expect(start.params["media.length"] == .number(1800))
        #expect(start.params["media.contentType"] == .string("vod"))
        #expect(start.params["media.playerName"] == .string("beaconctl"))
        #expect(start.params["media.channel"] == .string("tv"))
        #expect(start.params["media.sdkVersion"] == .string("9.9.9"))
        #expect(start.params["appInstallationId"] == .string("install-1"))
        #expect(start.params["media.show"] == .string("Show"))
        #expect(start.params["media.season"] == .string("2"))
        #expect(start.params["media.resume"] == nil)
        #expect(start.params["analytics.visitorId"] == nil)
        #expect(start.customMetadata == ["tier": "gold"])
        #expect(driver.emitted.allSatisfy { $0.session == 1 })
    }

    @Test func withoutContentTheIdIsTheMediaURLWithoutItsQueryAndTheStreamIsLive() throws {
        var settings = MediaFixture.settings
        settings.userID = "viewer-9"
        var driver = TrackerDriver(settings)
        driver.send(MediaFixture.load(nil))
        driver.send(.playerEventObserved(.play))
        let start = try #require(driver.emitted.first?.event)
        #expect(start.params["media.id"] == .string("https://cdn.test/master.m3u8"))
        #expect(start.params["media.length"] == .number(86_400))
        #expect(start.params["media.contentType"] == .string("live"))
        #expect(start.params["analytics.visitorId"] == .string("viewer-9"))
    }

    @Test func theFirstTickAtNormalRateStartsTheSessionAndATrickPlayTickDoesNot() {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load())
        driver.send(MediaFixture.tick(position: 5, rate: 2))
        #expect(driver.emitted.isEmpty)
        driver.send(MediaFixture.tick(position: 6, rate: 1))
        #expect(driver.types == [.sessionStart, .play])
        #expect(driver.emitted.map(\.event.playhead) == [6, 6])
    }

    @Test func theVODPlayheadIsTheContentPositionAdsExcluded() {
        var driver = playing()
        driver.send(
            .playheadObserved(
                PlayheadObservation(
                    tick: PlayheadTick(playhead: 75_000, timeline: .mediaTime), contentPosition: 60_000,
                    placement: AdPlacement(adBreak: MediaFixture.adBreak, offsetInAdBreak: 15_000))))
        driver.send(.playerEventObserved(.pause))
        #expect(driver.emitted.last?.event.playhead == 60)
    }

    @Test func theLivePlayheadIsTheSecondOfTheUTCDayOfTheProgramDateTime() {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load(ContentInformation(id: "channel-1", streamType: .live)))
        // 2023-01-31T03:25:34.076Z: 3 h 25 min 34.076 s into the day.
        driver.send(.playheadObserved(PlayheadObservation(tick: PlayheadTick(playhead: 1_675_135_534_076, timeline: .programDateTime))))
        #expect(driver.emitted.first?.event.playhead == 12_334.076)
        #expect(driver.emitted.first?.event.params["media.length"] == .number(86_400))
    }

    @Test func tsIncreasesByAtLeastOneMillisecondFromEachEventToTheNext() {
        var driver = playing()
        for _ in 0..<5 {
            driver.send(.playerEventObserved(.pause))
            driver.send(.playerEventObserved(.play))
        }
        let stamps = driver.emitted.map(\.event.ts)
        #expect(stamps.first == MediaFixture.wall0)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 >= $0 + 1 })
    }

    @Test func pingsComeEveryIntervalWhilePlayingTheFirstOneIntervalAfterPlay() {
        var driver = playing()
        let started = driver.now
        driver.clear()
        driver.run(for: 9_900)
        #expect(driver.emitted.isEmpty)
        driver.run(for: 100)
        #expect(driver.types == [.ping])
        #expect(driver.tracker.nextPingAt == started + 20_000)
        driver.run(for: 20_000)
        #expect(driver.types == [.ping, .ping, .ping])
    }

    @Test func insideAnAdPingsComeEveryAdPingInterval() {
        var driver = playing()
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.clear()
        driver.run(for: 5_000)
        #expect(driver.types == Array(repeating: .ping, count: 5))
        driver.send(.adLifecycle(.adCompleted(MediaFixture.ad)))
        driver.send(.adLifecycle(.adBreakCompleted(MediaFixture.adBreak)))
        driver.clear()
        driver.run(for: 9_000)
        #expect(driver.emitted.isEmpty)
        driver.run(for: 1_000)
        #expect(driver.types == [.ping])
    }

    @Test func pauseSeekAndBufferingEachStopAndPlayResumes() {
        var driver = playing()
        driver.clear()
        driver.send(.playerEventObserved(.pause))
        driver.run(for: 30_000)
        driver.send(.playerEventObserved(.play))
        driver.send(.playerEventObserved(.seekStart))
        driver.send(.playerEventObserved(.seekEnd))
        driver.send(.playerEventObserved(.bufferStart))
        driver.send(.playerEventObserved(.bufferEnd))
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.pauseStart, .play, .pauseStart, .play, .bufferStart, .play])
    }

    @Test func aSeekOrBufferingThatBeganWhilePausedEndsInThePause() {
        var driver = playing()
        driver.clear()
        driver.send(.playerEventObserved(.pause))
        driver.send(.playerEventObserved(.seekStart))
        driver.send(.playerEventObserved(.seekEnd))
        driver.send(.playerEventObserved(.bufferStart))
        driver.send(.playerEventObserved(.bufferEnd))
        #expect(driver.types == [.pauseStart, .bufferStart, .pauseStart])
        #expect(driver.tracker.nextPingAt == nil)
        driver.send(.playerEventObserved(.play))
        driver.send(.playerEventObserved(.seekStart))
        driver.send(.playerEventObserved(.bufferStart))
        driver.send(.playerEventObserved(.bufferEnd))
        #expect(driver.types.suffix(4) == [.play, .pauseStart, .bufferStart, .play])
    }

    @Test func adsAreBookendedByTheirBreakWithTheirParameters() throws {
        var driver = playing()
        driver.clear()
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.send(.adLifecycle(.adSkipped(MediaFixture.ad)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.send(.adLifecycle(.adCompleted(MediaFixture.ad)))
        driver.send(.adLifecycle(.adBreakCompleted(MediaFixture.adBreak)))
        // The content resumes after the break: `play`, as Adobe's timelines report it.
        #expect(driver.types == [.adBreakStart, .adStart, .adSkip, .adStart, .adComplete, .adBreakComplete, .play])
        let adBreak = driver.emitted[0].event.params
        #expect(adBreak["media.ad.podIndex"] == .integer(1))
        #expect(adBreak["media.ad.podSecond"] == .number(60))
        #expect(adBreak["media.ad.podFriendlyName"] == .string("break-1"))
        let ad = driver.emitted[1].event
        #expect(ad.params["media.ad.podPosition"] == .integer(1))
        #expect(ad.params["media.ad.id"] == .string("ad-1"))
        #expect(ad.params["media.ad.name"] == .string("Soda"))
        #expect(ad.params["media.ad.length"] == .number(15))
        #expect(ad.params["media.ad.playerName"] == .string("beaconctl"))
        #expect(ad.params["media.ad.creativeId"] == .string("cr-1"))
        #expect(ad.customMetadata == ["adSystem": "GDFP"])
    }

    @Test func aSessionStartingInsideAnAdReportsItsBreakAndAdBeforePlay() {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load())
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.send(.playerInformed(.stateStart("closedCaptioning")))
        #expect(driver.emitted.isEmpty)
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.sessionStart, .adBreakStart, .adStart, .stateStart, .play])
    }

    @Test func chaptersStartCompleteAndSkipWithTheirParameters() {
        var driver = playing()
        driver.clear()
        driver.send(.playerInformed(.chapterStart(Chapter(index: 1, offset: 0, length: 600, name: "Opening"))))
        driver.send(.playerInformed(.chapterStart(Chapter(index: 2, offset: 600, length: 300))))
        driver.send(.playerInformed(.chapterSkip))
        driver.send(.playerInformed(.chapterEnd))
        driver.send(.playerInformed(.chapterStart(Chapter(index: 3, offset: 900, length: 300))))
        driver.send(.playerInformed(.chapterEnd))
        #expect(driver.types == [.chapterStart, .chapterComplete, .chapterStart, .chapterSkip, .chapterStart, .chapterComplete])
        #expect(driver.emitted[0].event.params == [
            "media.chapter.index": .integer(1), "media.chapter.offset": .number(0), "media.chapter.length": .number(600),
            "media.chapter.friendlyName": .string("Opening"),
        ])
    }

    @Test func aBitrateChangeSendsTheQualityAndTheSameBitrateDoesNot() {
        var driver = playing()
        driver.clear()
        driver.send(.playerInformed(.quality(QualityOfService(bitrate: 5_000_000, droppedFrames: 2, fps: 29.97, startupTime: 800))))
        driver.send(.playerInformed(.quality(QualityOfService(bitrate: 5_000_000))))
        driver.send(
            .playheadObserved(
                PlayheadObservation(tick: PlayheadTick(playhead: 1000, timeline: .mediaTime, quality: QualityOfService(bitrate: 2_000_000)))))
        #expect(driver.types == [.bitrateChange, .bitrateChange])
        // The frame rate truncated, as Adobe's SDKs send it.
        #expect(driver.emitted[0].event.qoeData == [
            "media.qoe.bitrate": .integer(5_000_000), "media.qoe.droppedFrames": .integer(2),
            "media.qoe.framesPerSecond": .integer(29), "media.qoe.timeToStart": .integer(800),
        ])
        #expect(driver.emitted[1].event.qoeData["media.qoe.bitrate"] == .integer(2_000_000))
    }

    @Test func aPlayerErrorIsSentThenTrackingIsRefusedUntilTheNextLoad() {
        var driver = playing()
        driver.clear()
        driver.send(.playerInformed(.error(PlaybackError(source: .player, id: "E42", message: "decoder"))))
        #expect(driver.types == [.error])
        #expect(driver.emitted[0].event.qoeData == ["media.qoe.errorID": .string("E42"), "media.qoe.errorSource": .string("player")])
        #expect(driver.tracker.isInErrorState)
        #expect(driver.tracker.nextPingAt == nil)
        driver.send(.playerEventObserved(.pause))
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.userActionObserved(.mute))
        driver.run(for: 60_000)
        #expect(driver.types == [.error])
        #expect(driver.warnings.count == 3)
        #expect(driver.warnings.allSatisfy { $0.contains("error state") })
        driver.send(MediaFixture.load())
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.error, .sessionEnd, .sessionStart, .play])
        #expect(!driver.tracker.isInErrorState)
    }

    /// Content Adobe's SDKs refuse puts the playback in the error state before anything is sent,
    /// and the player is told why; the next valid load leaves it. A load without content is valid.
    @Test(arguments: [
        (ContentInformation(name: "Pilot", length: 60, streamType: .vod), "the content has no id"),
        (ContentInformation(id: "", name: "Pilot"), "the content has no id"),
        (ContentInformation(id: "ep", streamType: .vod), "a VOD's content has no length"),
        (ContentInformation(id: "ep", length: 0, streamType: .vod), "a VOD's content has no length"),
    ] as [(ContentInformation, String)])
    func invalidContentEntersTheErrorStateAndTellsThePlayer(content: ContentInformation, reason: String) {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load(content))
        driver.send(.playerEventObserved(.play))
        #expect(driver.emitted.isEmpty && driver.tracker.isInErrorState)
        #expect(driver.notifications == [.analyticsError(reason: reason)])
        driver.send(.playerInformed(.content(MediaFixture.vod)))
        #expect(driver.tracker.isInErrorState, "a content line does not leave it: only a load does")
        driver.send(MediaFixture.load(nil))
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.sessionStart, .play] && driver.notifications.count == 1)
        // A content line that makes the playback's content invalid enters it too.
        driver.send(.playerInformed(.content(content)))
        #expect(driver.tracker.isInErrorState && driver.notifications.count == 2)
    }

    /// Adobe's SDK settings on the wire: `publisher` and `sdk` as parameters, `jobId` and `ovp`
    /// as custom metadata (the API has no parameter for them, and the operator's value wins).
    @Test func theSDKSettingsGoOnTheSessionStart() throws {
        var settings = MediaFixture.settings
        (settings.publisher, settings.jobID, settings.ovp, settings.sdk) = ("Example", "j2", "ovp-1", "sdk-3")
        var driver = TrackerDriver(settings)
        var content = MediaFixture.vod
        content.customMetadata["ovp"] = "the player's"
        driver.send(MediaFixture.load(content))
        driver.send(.playerEventObserved(.play))
        let start = try #require(driver.emitted.first?.event)
        #expect(start.params["media.publisher"] == .string("Example"))
        #expect(start.params["media.sdkVersion"] == .string("sdk-3") && start.params["media.libraryVersion"] == .string("9.9.9"))
        #expect(start.customMetadata == ["tier": "gold", "jobId": "j2", "ovp": "ovp-1"])
    }

    /// `privacy-default`: the consent until a privacy line says otherwise.
    @Test func thePrivacyDefaultIsTheConsentBeforeAnyPrivacyLine() {
        var settings = MediaFixture.settings
        settings.privacyDefault = .unknown
        var driver = TrackerDriver(settings)
        driver.send(MediaFixture.load())
        driver.send(.playerEventObserved(.play))
        #expect(driver.emitted.isEmpty && driver.tracker.heldCount == 2)
        driver.send(.playerInformed(.privacy(.optIn)))
        #expect(driver.types == [.sessionStart, .play])
    }

    /// The quality told once goes with every later call, as Adobe's SDKs send it.
    @Test func theQualityGoesWithEveryCall() {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load())
        driver.send(.playerInformed(.quality(QualityOfService(droppedFrames: 4, fps: 59.94))))
        driver.send(.playerEventObserved(.play))
        driver.send(.playerEventObserved(.pause))
        #expect(driver.types == [.sessionStart, .play, .pauseStart])
        #expect(driver.emitted.allSatisfy { $0.event.qoeData == ["media.qoe.droppedFrames": .integer(4), "media.qoe.framesPerSecond": .integer(59)] })
    }

    @Test func anApplicationErrorIsSentAndPlaybackGoesOn() {
        var driver = playing()
        driver.clear()
        driver.send(.playerInformed(.error(PlaybackError(source: .application, id: "A1"))))
        driver.send(.playerEventObserved(.pause))
        #expect(driver.types == [.error, .pauseStart])
        #expect(driver.emitted[0].event.qoeData["media.qoe.errorSource"] == .string("external"))
    }

    @Test func muteAndExpandStartAndEndPlayerStatesOnce() {
        var driver = playing()
        driver.clear()
        driver.send(.userActionObserved(.mute))
        driver.send(.userActionObserved(.mute))
        driver.send(.userActionObserved(.expand))
        driver.send(.userActionObserved(.unmute))
        driver.send(.userActionObserved(.collapse))
        driver.send(.userActionObserved(.click))
        #expect(driver.types == [.stateStart, .stateStart, .stateEnd, .stateEnd])
        #expect(driver.emitted.map { $0.event.params["media.state.name"] } == [
            .string("mute"), .string("fullscreen"), .string("mute"), .string("fullscreen"),
        ])
    }

    @Test func optOutEndsTheSessionAndSendsNothingMore() {
        var driver = playing()
        driver.clear()
        driver.send(.playerInformed(.privacy(.optOut)))
        #expect(driver.types == [.sessionEnd])
        driver.send(.playerEventObserved(.pause))
        driver.send(.playerEventObserved(.play))
        driver.run(for: 60_000)
        #expect(driver.types == [.sessionEnd])
        driver.send(.playerInformed(.privacy(.optIn)))
        driver.send(MediaFixture.tick(position: 70))
        #expect(driver.types == [.sessionEnd, .sessionStart, .play])
    }

    @Test func unknownConsentHoldsEventsUntilOptInReleasesThemInOrder() {
        var driver = TrackerDriver()
        driver.send(.playerInformed(.privacy(.unknown)))
        driver.send(MediaFixture.load())
        driver.send(.playerEventObserved(.play))
        driver.send(.playerEventObserved(.pause))
        #expect(driver.emitted.isEmpty)
        #expect(driver.tracker.heldCount == 3)
        driver.send(.playerInformed(.privacy(.optIn)))
        #expect(driver.types == [.sessionStart, .play, .pauseStart])
        #expect(driver.tracker.heldCount == 0)
    }

    @Test func unknownConsentThenOptOutDropsWhatWasHeldAndSendsNothing() {
        var driver = TrackerDriver()
        driver.send(.playerInformed(.privacy(.unknown)))
        driver.send(MediaFixture.load())
        driver.send(.playerEventObserved(.play))
        driver.send(.playerInformed(.privacy(.optOut)))
        #expect(driver.emitted.isEmpty)
        #expect(driver.tracker.droppedWhileHeld == 2)
    }

    @Test func aSessionStartedBeforeConsentBecameUnknownIsEndedOnOptOut() {
        var driver = playing()
        driver.send(.playerInformed(.privacy(.unknown)))
        driver.send(.playerEventObserved(.pause))
        driver.send(.playerInformed(.privacy(.optOut)))
        #expect(driver.types == [.sessionStart, .play, .sessionEnd])
        #expect(driver.tracker.droppedWhileHeld == 1)
    }

    @Test func theHoldIsBoundedAndGivesUpPingsFirst() {
        var driver = playing()
        driver.send(.playerInformed(.privacy(.unknown)))
        driver.run(for: 10_000 * Milliseconds(MediaAnalyticsTracker.heldCapacity + 10), step: 10_000)
        #expect(driver.tracker.heldCount == MediaAnalyticsTracker.heldCapacity)
        #expect(driver.tracker.droppedWhileHeld == 10)
    }

    @Test func unloadNewLoadAndShutdownEachEndTheSession() {
        var driver = playing()
        driver.send(.sessionEnded(sessionID: "s"))
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.sessionStart, .play, .sessionEnd])
        driver.send(MediaFixture.load())
        driver.send(MediaFixture.ready)
        driver.send(.playerEventObserved(.play))
        driver.send(MediaFixture.load())
        #expect(driver.types.suffix(3) == [.sessionStart, .play, .sessionEnd])
        // The replaced playback's daemon session ends after the load that replaced it: not the new playback's.
        driver.send(.sessionEnded(sessionID: "s"))
        driver.send(MediaFixture.ready)
        driver.send(.playerEventObserved(.play))
        #expect(driver.types.suffix(2) == [.sessionStart, .play], "the new playback opens its session: \(driver.types)")
        driver.take(driver.tracker.shutdown(now: driver.now, wallNow: driver.wallNow))
        #expect(driver.types.suffix(3) == [.sessionStart, .play, .sessionEnd])
        #expect(driver.tracker.sessionNumber == nil)
    }

    @Test func completeSendsSessionCompleteAndNoSessionFollowsUntilTheNextLoad() {
        var driver = playing()
        driver.send(.playerEventObserved(.complete))
        driver.send(.playerEventObserved(.play))
        driver.send(MediaFixture.tick(position: 1))
        driver.send(.sessionEnded(sessionID: nil))
        #expect(driver.types == [.sessionStart, .play, .sessionComplete])
    }

    @Test func aGoneSessionIsResumedWithItsCurrentState() throws {
        var driver = playing()
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.clear()
        driver.take(driver.tracker.sessionGone(2, now: driver.now, wallNow: driver.wallNow))
        #expect(driver.emitted.isEmpty)
        driver.take(driver.tracker.sessionGone(1, now: driver.now, wallNow: driver.wallNow))
        #expect(driver.types == [.sessionStart, .adBreakStart, .adStart, .play])
        #expect(driver.emitted.allSatisfy { $0.session == 2 })
        #expect(driver.emitted[0].event.params["media.resume"] == .boolean(true))
    }

    @Test func playAfterTheBackEndsIdleTimeoutStartsAResumedSession() {
        var driver = playing()
        driver.send(.playerEventObserved(.pause))
        driver.advance(MediaAnalyticsTracker.idleTimeout - 1)
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.sessionStart, .play, .pauseStart, .play])
        driver.send(.playerEventObserved(.pause))
        driver.advance(MediaAnalyticsTracker.idleTimeout)
        driver.send(.playerEventObserved(.play))
        #expect(driver.types.suffix(2) == [.sessionStart, .play])
        #expect(driver.emitted.suffix(2).allSatisfy { $0.session == 2 })
        #expect(driver.emitted.suffix(2).first?.event.params["media.resume"] == .boolean(true))
    }

    @Test func playAfterThirtyMinutesWithoutPlayheadMovementStartsAResumedSession() {
        var driver = playing()
        driver.send(MediaFixture.tick(position: 10))
        driver.send(.playerEventObserved(.pause))
        // Events keep coming (states), the playhead stays still.
        for _ in 0..<4 {
            driver.advance(MediaAnalyticsTracker.stillTimeout / 4)
            driver.send(.userActionObserved(.mute))
            driver.send(.userActionObserved(.unmute))
        }
        driver.send(.playerEventObserved(.play))
        #expect(driver.types.suffix(2) == [.sessionStart, .play])
        #expect(driver.tracker.sessionNumber == 2)
    }

    @Test func afterADayTheSessionEndsAndAResumedOneFollows() {
        var driver = playing()
        driver.run(for: MediaAnalyticsTracker.longestSession, step: 10_000)
        #expect(driver.tracker.sessionNumber == 2)
        let rollover = driver.types.firstIndex(of: .sessionEnd)
        #expect(rollover.map { Array(driver.types[$0...].prefix(3)) } == [.sessionEnd, .sessionStart, .play])
    }

    @Test func disablingEndsTheSessionAndEnablingStartsANewOneOnTheNextPlay() {
        var driver = playing()
        driver.take(driver.tracker.setEnabled(false, now: driver.now, wallNow: driver.wallNow))
        driver.send(.playerEventObserved(.pause))
        driver.send(.playerEventObserved(.play))
        #expect(driver.types == [.sessionStart, .play, .sessionEnd])
        driver.take(driver.tracker.setEnabled(true, now: driver.now, wallNow: driver.wallNow))
        driver.send(MediaFixture.tick(position: 3))
        #expect(driver.types.suffix(2) == [.sessionStart, .play])
    }
}
