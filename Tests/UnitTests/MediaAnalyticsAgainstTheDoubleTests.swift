import BeaconSimulator
import Testing
@testable import BeaconDomain

/// What the media-analytics tracker emits over whole playbacks, held to the rules of the Media
/// Collection double: each body against its event type's schema, each session's events against
/// their order. The tracker and the double are written apart, so a rule misread on one side shows.
@Suite(.timeLimit(.minutes(2))) struct MediaAnalyticsAgainstTheDoubleTests {
    /// The reason each emitted event is refused, by session and event type; empty when all are taken.
    static func violations(_ emitted: [MediaCollectionEmission]) -> [String] {
        var ledgers: [Int: MediaCollectionSessionLedger] = [:]
        var found: [String] = []
        for emission in emitted {
            let event = emission.event
            let endpoint: MediaCollectionSchema.Endpoint = event.type == .sessionStart ? .sessions : .events
            let checked = MediaCollectionSchema.check(endpoint, contentType: "application/json", body: event.body)
            guard case .success(let read) = checked else {
                if case .failure(let refusal) = checked { found.append("session \(emission.session) \(event.type.rawValue): \(refusal)") }
                continue
            }
            // The body says what the event is: nothing is lost or changed on the way (a whole
            // number is one on the wire, whether sent as an integer or not).
            if Self.normalized(read) != Self.normalized(event) { found.append("session \(emission.session) \(event.type.rawValue): read back as \(read)") }
            do {
                if event.type == .sessionStart {
                    ledgers[emission.session] = try MediaCollectionSessionLedger.opening(read).get()
                } else if var ledger = ledgers[emission.session] {
                    try ledger.take(read)
                    ledgers[emission.session] = ledger
                } else {
                    found.append("session \(emission.session) \(event.type.rawValue): before its sessionStart")
                }
            } catch {
                found.append("session \(emission.session) \(event.type.rawValue): \(error)")
            }
        }
        return found
    }

    static func normalized(_ event: MediaCollectionEvent) -> MediaCollectionEvent {
        func whole(_ value: MediaCollectionValue) -> MediaCollectionValue {
            if case .number(let number) = value, number == number.rounded(), let integer = Int64(exactly: number) { .integer(integer) } else { value }
        }
        var event = event
        event.params = event.params.mapValues(whole)
        event.qoeData = event.qoeData.mapValues(whole)
        return event
    }

    @Test func aVODPlaybackWithAMidRollAChapterQualityStatesAndCompletion() {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load())
        driver.send(MediaFixture.ready)
        driver.send(.playerEventObserved(.play))
        driver.send(.playerInformed(.chapterStart(Chapter(index: 1, offset: 0, length: 600, name: "Opening"))))
        driver.run(for: 25_000)
        driver.send(.playerInformed(.quality(QualityOfService(bitrate: 5_000_000, droppedFrames: 2, fps: 30, startupTime: 800))))
        driver.send(.userActionObserved(.mute))
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.run(for: 3_000)
        driver.send(.playerEventObserved(.pause))
        driver.run(for: 2_000)
        driver.send(.playerEventObserved(.play))
        driver.send(.adLifecycle(.adCompleted(MediaFixture.ad)))
        driver.send(.adLifecycle(.adBreakCompleted(MediaFixture.adBreak)))
        driver.send(.userActionObserved(.unmute))
        driver.send(.playerEventObserved(.bufferStart))
        driver.send(.playerEventObserved(.bufferEnd))
        driver.send(.playerInformed(.error(PlaybackError(source: .application, id: "A1", message: "overlay"))))
        driver.run(for: 12_000)
        driver.send(.playerInformed(.chapterEnd))
        driver.send(.playerEventObserved(.complete))
        let types = Set(driver.types)
        for type in [MediaCollectionEventType.sessionStart, .play, .ping, .chapterStart, .bitrateChange, .stateStart, .adBreakStart, .adStart,
            .pauseStart, .adComplete, .adBreakComplete, .stateEnd, .bufferStart, .error, .chapterComplete, .sessionComplete]
        {
            #expect(types.contains(type), "\(type) in \(driver.types)")
        }
        #expect(Self.violations(driver.emitted) == [])
    }

    @Test func aLivePlaybackWithASkippedAdAndAnotherBreakThenUnload() {
        var driver = TrackerDriver()
        driver.send(MediaFixture.load(ContentInformation(id: "channel-1", name: "News", streamType: .live)))
        driver.send(MediaFixture.ready)
        driver.send(.playheadObserved(PlayheadObservation(tick: PlayheadTick(playhead: 1_675_135_534_076, timeline: .programDateTime))))
        driver.run(for: 11_000)
        driver.send(.adLifecycle(.adBreakStarted(MediaFixture.adBreak)))
        driver.send(.adLifecycle(.adStarted(MediaFixture.ad)))
        driver.run(for: 2_000)
        driver.send(.playerEventObserved(.seekStart))
        driver.send(.adLifecycle(.adSkipped(MediaFixture.ad)))
        driver.send(.adLifecycle(.adBreakCompleted(MediaFixture.adBreak)))
        driver.send(.playerEventObserved(.seekEnd))
        let second = AdBreakSummary(id: "break-2", index: 2, startTime: 120_000, duration: 15_000, contentOffset: 120)
        let secondAd = AdSummary(id: "ad-2", adBreakID: "break-2", position: 1, startTime: 120_000, duration: 15_000)
        driver.send(.adLifecycle(.adBreakStarted(second)))
        driver.send(.adLifecycle(.adStarted(secondAd)))
        driver.run(for: 15_000)
        driver.send(.adLifecycle(.adCompleted(secondAd)))
        driver.send(.adLifecycle(.adBreakCompleted(second)))
        driver.send(.sessionEnded(sessionID: "s"))
        #expect(driver.types.contains(.adSkip), "\(driver.types)")
        #expect(driver.types.last == .sessionEnd, "\(driver.types)")
        #expect(Self.violations(driver.emitted) == [])
    }

    /// A fractional frame rate and start-up time go as the integers the published schema types them
    /// as, and a custom key the API does not take is sent under a name it does.
    @Test func aFractionalFrameRateAndAnUnusualCustomKeyPassTheSchema() {
        var driver = TrackerDriver()
        var load = MediaFixture.load()
        if case .playbackLoaded(let url, var options) = load {
            options.content?.customMetadata["my-key"] = "v"
            load = .playbackLoaded(mediaURL: url, options: options)
        }
        driver.send(load)
        driver.send(.playerEventObserved(.play))
        driver.send(.playerInformed(.quality(QualityOfService(bitrate: 5_000_000, fps: 29.97, startupTime: 812.6))))
        #expect(Self.violations(driver.emitted) == [])
        let change = driver.emitted.first { $0.event.type == .bitrateChange }
        #expect(change?.event.qoeData["media.qoe.framesPerSecond"] == .integer(29))
        #expect(change?.event.qoeData["media.qoe.timeToStart"] == .integer(813))
        #expect(driver.emitted.first?.event.customMetadata["my_key"] == "v")
    }
}
