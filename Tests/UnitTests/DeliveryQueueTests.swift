import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct DeliveryQueueTests {
    static let reference = EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0)

    static func key(
        _ url: String, session: String = "s", adBreak: String = "p", ad: String = "a", event: TrackingEventType = .impression,
        eventStart: Milliseconds = 0, occurrence: Milliseconds = 0
    ) -> BeaconDelivery.Key {
        BeaconDelivery.Key(sessionKey: session, adBreakID: adBreak, adID: ad, event: event, eventStart: eventStart, url: url, occurrence: occurrence)
    }

    static func delivery(
        _ url: String, dueAt: Milliseconds = 0, state: BeaconDelivery.State = .due, attempts: Int = 0, nextAttemptAt: Milliseconds? = nil,
        lastError: String? = nil, updatedAt: Milliseconds? = nil
    ) -> BeaconDelivery {
        BeaconDelivery(
            key: key(url), reference: reference, state: state, attempts: attempts, lastError: lastError, dueAt: dueAt, nextAttemptAt: nextAttemptAt,
            updatedAt: updatedAt)
    }

    static func result(_ status: Int, url: String = "") -> RequestResult {
        RequestResult(url: url, outcome: .answered(status: status), latencyMilliseconds: 1)
    }

    static func failure(_ error: HTTPClientError, url: String = "") -> RequestResult {
        RequestResult(url: url, outcome: .failed(error), latencyMilliseconds: 0)
    }

    static let ok = result(200)
    static let unavailable = result(503)
    static let refused = failure(.connectionFailed("Connection refused"))

    func queue(perHost: Int = 6, total: Int = 32, _ deliveries: [BeaconDelivery]) -> DeliveryQueue {
        var queue = DeliveryQueue(perHostLimit: perHost, totalLimit: total)
        for delivery in deliveries { queue.add(delivery) }
        return queue
    }

    // MARK: Order and limits

    @Test func startsOldestDueFirstAndTiesByArrival() {
        var queue = queue([
            Self.delivery("http://c.example/", dueAt: 30), Self.delivery("http://a.example/", dueAt: 10),
            Self.delivery("http://b.example/", dueAt: 10), Self.delivery("http://d.example/", dueAt: 20),
        ])
        #expect(queue.dueCount == 4)
        let started = queue.start(now: 100)
        #expect(started.map(\.key.url) == ["http://a.example/", "http://b.example/", "http://d.example/", "http://c.example/"])
        #expect(started.allSatisfy { $0.state == .inFlight && $0.attempts == 1 && $0.updatedAt == 100 })
        #expect(started.allSatisfy { queue.deliveries[$0.key] == $0 })
        #expect(queue.inFlightCount == 4)
        #expect(queue.dueCount == 0)
        #expect(queue.start(now: 200).isEmpty)
    }

    @Test func aRetriedDeliveryKeepsItsPlaceByDueTime() {
        var queue = queue([Self.delivery("http://a.example/1", dueAt: 10)])
        let first = queue.start(now: 10)
        queue.add(Self.delivery("http://a.example/2", dueAt: 20))
        _ = queue.finish(first[0].key, verdict: .retry(at: 30, reason: "refused"), result: Self.refused, now: 25)
        // The retry became due first: while its host cannot be reached, the newer delivery does not
        // overtake it.
        #expect(queue.start(now: 25).isEmpty)
        #expect(queue.start(now: 30).map(\.key.url) == ["http://a.example/1"])
        _ = queue.finish(first[0].key, verdict: .delivered, result: Self.ok, now: 31)
        #expect(queue.start(now: 31).map(\.key.url) == ["http://a.example/2"])
    }

    // MARK: Failures belong to what failed

    /// Seventeen deliveries to one host, one of them the first to get `outcome`: whatever the
    /// answer, the other sixteen leave at the host's full width while the bad one waits on its own.
    @Test(arguments: [500, 503, 429, 404, 400, 410])
    func anAnswerOfAnyStatusNeverHoldsBackTheHostsOtherURLs(status: Int) {
        var queue = queue(perHost: 6, (1...17).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        var running = queue.start(now: 10).map(\.key)
        #expect(running.count == 6)
        let verdict: RetryPolicy.Verdict =
            HTTPStatus.mayPassLater(status) ? .retry(at: 60_000, reason: "HTTP \(status)") : .failed(reason: "HTTP \(status), not retried")
        _ = queue.finish(running.removeFirst(), verdict: verdict, result: Self.result(status), now: 11)
        var time: Milliseconds = 12
        var widths: [Int] = []
        running += queue.start(now: time).map(\.key)
        while !running.isEmpty {
            widths.append(running.count)
            _ = queue.finish(running.removeFirst(), verdict: .delivered, result: Self.ok, now: time)
            time += 1
            running += queue.start(now: time).map(\.key)
        }
        #expect(widths.first == 6, "the host keeps its full width after the answer \(status)")
        let others = queue.deliveries.values.filter { $0.key.url != "http://a.example/1" }
        #expect(others.count == 16 && others.allSatisfy { $0.state == .delivered && $0.attempts == 1 })
        #expect(time < 60_000, "none of them waited for the bad URL's backoff")
    }

    /// Outcomes after the request reached the host: a timeout once sent (a host that accepts and
    /// never answers), a body cut off or a redirect that led nowhere, too many redirects, too large.
    @Test(arguments: [
        HTTPClientError.timedOut, .transferFailed("Couldn't connect to server"), .tooManyRedirects, .responseTooLarge(limit: 0),
    ])
    func aFailureAfterTheHostWasReachedIsTheURLsOwn(error: HTTPClientError) {
        var queue = queue(perHost: 2, (1...4).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        #expect(queue.start(now: 10).count == 2)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .retry(at: 9_000, reason: "\(error)"), result: Self.failure(error), now: 20)
        #expect(queue.start(now: 20).map(\.key.url) == ["http://a.example/3"])
        _ = queue.finish(Self.key("http://a.example/2"), verdict: .delivered, result: Self.ok, now: 21)
        #expect(queue.start(now: 21).map(\.key.url) == ["http://a.example/4"])
        #expect(queue.deliveries[Self.key("http://a.example/1")]?.nextAttemptAt == 9_000, "its own backoff stands")
    }

    @Test(arguments: [HTTPClientError.connectionFailed("Connection refused"), .connectionFailed("Could not resolve host"), .connectTimedOut])
    func aConnectionFailureMakesTheHostLookDown(error: HTTPClientError) {
        var queue = queue(perHost: 2, (1...4).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        queue.add(Self.delivery("http://b.example/1", dueAt: 5))
        #expect(queue.start(now: 10).count == 3)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .retry(at: 100, reason: "\(error)"), result: Self.failure(error), now: 20)
        _ = queue.finish(Self.key("http://b.example/1"), verdict: .delivered, result: Self.ok, now: 20)
        #expect(queue.start(now: 20).isEmpty, "the host's backlog waits")
        _ = queue.finish(Self.key("http://a.example/2"), verdict: .delivered, result: Self.ok, now: 30)
        // An answer while a probe is due says the host is up: it recovers, 2 at once.
        #expect(queue.start(now: 30).map(\.key.url) == ["http://a.example/1", "http://a.example/3"])
    }

    @Test func aFailingHostIsNotProbedByAURLSittingOutItsOwnBackoff() {
        var queue = queue(perHost: 2, (1...3).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        _ = queue.start(now: 10)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .retry(at: 50_000, reason: "HTTP 500"), result: Self.result(500), now: 11)
        _ = queue.finish(Self.key("http://a.example/2"), verdict: .retry(at: 200, reason: "refused"), result: Self.refused, now: 12)
        #expect(queue.start(now: 150).isEmpty, "the probe waits out the host's backoff")
        #expect(queue.start(now: 200).map(\.key.url) == ["http://a.example/2"], "not behind the 500's backoff")
        _ = queue.finish(Self.key("http://a.example/2"), verdict: .delivered, result: Self.ok, now: 210)
        #expect(queue.start(now: 210).map(\.key.url) == ["http://a.example/3"])
        #expect(queue.deliveries[Self.key("http://a.example/1")]?.nextAttemptAt == 50_000)
    }

    @Test func hostSignalOfEachOutcome() {
        let reached: [RequestResult.Outcome] = [
            .answered(status: 200), .answered(status: 500), .answered(status: 429), .answered(status: 404), .failed(.timedOut),
            .failed(.transferFailed("x")), .failed(.tooManyRedirects), .failed(.responseTooLarge(limit: 1)),
        ]
        let unreachable: [RequestResult.Outcome] = [.failed(.connectionFailed("x")), .failed(.connectTimedOut)]
        let none: [RequestResult.Outcome] = [
            .failed(.cancelled), .failed(.invalidURL("x")), .failed(.unsupportedScheme("ftp")), .refused("x"), .notSent(.quiet),
        ]
        #expect(reached.allSatisfy { HostSignal($0) == .reached })
        #expect(unreachable.allSatisfy { HostSignal($0) == .unreachable })
        #expect(none.allSatisfy { HostSignal($0) == HostSignal.none })
    }

    // MARK: A failing host

    /// Five deliveries to one host, all in flight, then all refused at `now`, retried at 100 + n.
    func failingHost() -> DeliveryQueue {
        var queue = queue(perHost: 6, (1...5).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        #expect(queue.start(now: 10).count == 5)
        for n in 1...5 {
            _ = queue.finish(
                Self.key("http://a.example/\(n)"), verdict: .retry(at: 100 + Milliseconds(n), reason: "refused"), result: Self.refused, now: 20)
        }
        return queue
    }

    @Test func aFailingHostIsProbedByItsOldestDeliveryAlone() {
        var queue = failingHost()
        #expect(queue.start(now: 99).isEmpty)
        // All five are due by 105, yet only the oldest goes, one request at a time.
        #expect(queue.start(now: 105).map(\.key.url) == ["http://a.example/1"])
        #expect(queue.start(now: 105).isEmpty)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .retry(at: 200, reason: "refused"), result: Self.refused, now: 110)
        #expect(queue.start(now: 150).isEmpty, "the probe waits out its own backoff")
        #expect(queue.start(now: 200).map(\.key.url) == ["http://a.example/1"])
        // It goes through: the others follow at once, oldest first, two at a time to begin with.
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .delivered, result: Self.ok, now: 210)
        #expect(queue.start(now: 210).map(\.key.url) == ["http://a.example/2", "http://a.example/3"])
    }

    @Test func aRecoveringHostGetsTwiceAsManyRequestsWithEachAnswerUpToItsLimit() {
        var queue = queue(perHost: 6, (1...20).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        var running = queue.start(now: 30).map(\.key)
        for key in running { _ = queue.finish(key, verdict: .retry(at: 40, reason: "refused"), result: Self.refused, now: 31) }
        running = queue.start(now: 40).map(\.key)
        #expect(running.map(\.url) == ["http://a.example/1"])
        var widths: [Int] = []
        var time: Milliseconds = 41
        while !running.isEmpty {
            let answered = running.removeFirst()
            _ = queue.finish(answered, verdict: .delivered, result: Self.ok, now: time)
            let started = queue.start(now: time)
            running += started.map(\.key)
            widths.append(running.count)
            time += 1
        }
        // In flight after each answer: the limit doubles, 2, 4, then the host's 6.
        #expect(widths.prefix(3) == [2, 4, 6])
        #expect(widths.max() == 6)
        #expect(queue.deliveries.values.allSatisfy { $0.state == .delivered })
    }

    @Test func aFailingHostIsNotProbedWhileRequestsToItAreInFlight() {
        var queue = queue(perHost: 6, (1...3).map { Self.delivery("http://a.example/\($0)", dueAt: Milliseconds($0)) })
        _ = queue.start(now: 10)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .retry(at: 50, reason: "refused"), result: Self.refused, now: 20)
        #expect(queue.start(now: 60).isEmpty)
        _ = queue.finish(Self.key("http://a.example/2"), verdict: .retry(at: 50, reason: "refused"), result: Self.refused, now: 61)
        _ = queue.finish(Self.key("http://a.example/3"), verdict: .retry(at: 50, reason: "refused"), result: Self.refused, now: 62)
        #expect(queue.start(now: 62).map(\.key.url) == ["http://a.example/1"])
    }

    /// Any answer, a refusal or a 5xx as much as a success, and a request sent that timed out, say
    /// the host is reachable again: the others follow, two at first, whatever became of the probe.
    @Test(arguments: [
        RequestResult.Outcome.answered(status: 404), .answered(status: 503), .answered(status: 429), .failed(.timedOut),
        .failed(.tooManyRedirects),
    ])
    func aProbeThatReachesTheHostEndsItsFailure(outcome: RequestResult.Outcome) {
        var queue = failingHost()
        #expect(queue.start(now: 105).map(\.key.url) == ["http://a.example/1"])
        let result = RequestResult(url: "http://a.example/1", outcome: outcome, latencyMilliseconds: 1)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .failed(reason: "given up"), result: result, now: 106)
        #expect(queue.start(now: 106).map(\.key.url) == ["http://a.example/2", "http://a.example/3"], "after \(outcome)")
    }

    @Test(arguments: [HTTPClientError.connectionFailed("Connection refused"), .connectTimedOut])
    func aGiveUpAfterAConnectionFailureKeepsTheHostFailing(error: HTTPClientError) {
        var queue = failingHost()
        #expect(queue.start(now: 105).map(\.key.url) == ["http://a.example/1"])
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .failed(reason: "gave up: max age"), result: Self.failure(error), now: 106)
        #expect(queue.start(now: 106).map(\.key.url) == ["http://a.example/2"], "after \(error)")
    }

    @Test func aFailingHostLeavesTheOthersAlone() {
        var queue = failingHost()
        queue.add(Self.delivery("http://b.example/1", dueAt: 30))
        queue.add(Self.delivery("http://b.example/2", dueAt: 31))
        #expect(queue.start(now: 105).map(\.key.url) == ["http://a.example/1", "http://b.example/1", "http://b.example/2"])
    }

    @Test func thePerHostLimitCountsSchemeHostAndPort() {
        let urls = [
            "http://ads.example/1", "http://ADS.example/2?x=1", "http://user:pw@ads.example/3", "http://ads.example#4",
            "http://ads.example:8080/5", "https://ads.example/6", "http://other.example/7",
        ]
        var queue = queue(perHost: 2, urls.map { Self.delivery($0) })
        let started = queue.start(now: 0).map(\.key.url)
        #expect(started == ["http://ads.example/1", "http://ADS.example/2?x=1", "http://ads.example:8080/5", "https://ads.example/6", "http://other.example/7"])
        #expect(queue.dueCount == 2)
        // A freed slot on the host goes to its oldest waiting delivery.
        _ = queue.finish(Self.key("http://ads.example/1"), verdict: .delivered, result: Self.ok, now: 1)
        #expect(queue.start(now: 1).map(\.key.url) == ["http://user:pw@ads.example/3"])
        #expect(queue.start(now: 1).isEmpty)
    }

    @Test func theTotalLimitHoldsAcrossHosts() {
        var queue = queue(perHost: 6, total: 3, (1...5).map { Self.delivery("http://h\($0).example/", dueAt: Milliseconds($0)) })
        #expect(queue.start(now: 10).map(\.key.url) == ["http://h1.example/", "http://h2.example/", "http://h3.example/"])
        #expect(queue.start(now: 10).isEmpty)
        _ = queue.finish(Self.key("http://h2.example/"), verdict: .failed(reason: "HTTP 404"), result: Self.result(404), now: 11)
        #expect(queue.start(now: 11).map(\.key.url) == ["http://h4.example/"])
        #expect(queue.inFlightCount == 3)
    }

    @Test func aFailingHostDoesNotStarveTheOthers() {
        let failing = (1...10).map { Self.delivery("http://slow.example/\($0)", dueAt: Milliseconds($0)) }
        let healthy = (1...3).map { Self.delivery("http://fast.example/\($0)", dueAt: 100 + Milliseconds($0)) }
        var queue = queue(perHost: 2, total: 4, failing + healthy)
        var started = queue.start(now: 200).map(\.key.url)
        #expect(started == ["http://slow.example/1", "http://slow.example/2", "http://fast.example/1", "http://fast.example/2"])
        // The slow host keeps failing: its retries back off and the healthy host keeps going.
        for round in 0..<5 {
            let time = 201 + Milliseconds(round)
            for url in started {
                let verdict: RetryPolicy.Verdict = url.contains("slow") ? .retry(at: 10_000, reason: "refused") : .delivered
                #expect(queue.finish(Self.key(url), verdict: verdict, result: url.contains("slow") ? Self.refused : Self.ok, now: time) != nil)
            }
            started = queue.start(now: time).map(\.key.url)
            #expect(started.filter { $0.contains("slow") }.count <= 2)
        }
        #expect(queue.deliveries.values.filter { $0.key.url.contains("fast") }.allSatisfy { $0.state == .delivered })
    }

    @Test func nextAttemptAtIsRespected() {
        var queue = queue([Self.delivery("http://a.example/", dueAt: 0, nextAttemptAt: 500)])
        #expect(queue.start(now: 499).isEmpty)
        #expect(queue.start(now: 500).map(\.key.url) == ["http://a.example/"])
    }

    @Test func theNextAttemptIsTheEarliestBackoffEndNotALimit() {
        var queue = queue(perHost: 1, [
            Self.delivery("http://a.example/1", dueAt: 0), Self.delivery("http://a.example/2", dueAt: 1),
            Self.delivery("http://b.example/1", dueAt: 2, nextAttemptAt: 900), Self.delivery("http://c.example/1", dueAt: 3, nextAttemptAt: 700),
        ])
        #expect(queue.start(now: 100).map(\.key.url) == ["http://a.example/1"])
        // a/2 waits for the host's slot only: a finished request starts it, not a timer.
        #expect(queue.nextAttempt(after: 100) == 700)
        #expect(queue.nextAttempt(after: 700) == 900)
        #expect(queue.nextAttempt(after: 900) == nil)
        var onlyLimited = self.queue(perHost: 1, [Self.delivery("http://a.example/1"), Self.delivery("http://a.example/2")])
        _ = onlyLimited.start(now: 0)
        #expect(onlyLimited.nextAttempt(after: 0) == nil)
        #expect(DeliveryQueue().nextAttempt(after: 0) == nil)
    }

    // MARK: Verdicts

    @Test func aDeliveredVerdictFinishesTheDelivery() throws {
        var queue = queue([Self.delivery("http://a.example/", dueAt: 10, lastError: "HTTP 503")])
        let key = Self.key("http://a.example/")
        _ = queue.start(now: 10)
        let finished = queue.finish(key, verdict: .delivered, result: Self.result(204), now: 15)
        let done = try #require(finished)
        #expect(done.state == .delivered)
        #expect(done.lastStatus == 204)
        #expect(done.lastError == nil)
        #expect(done.updatedAt == 15)
        #expect(done.attempts == 1)
        #expect(queue.deliveries[key] == done)
        #expect(queue.inFlightCount == 0 && queue.dueCount == 0)
        #expect(queue.finish(key, verdict: .delivered, result: Self.ok, now: 16) == nil, "not in flight any more")
        #expect(queue.start(now: 100).isEmpty)
    }

    @Test func aRetryVerdictMakesItDueAgainAtItsTime() throws {
        var queue = queue([Self.delivery("http://a.example/", dueAt: 10)])
        let key = Self.key("http://a.example/")
        _ = queue.start(now: 10)
        let retried = queue.finish(key, verdict: .retry(at: 1010, reason: "HTTP 503"), result: Self.unavailable, now: 20)
        let waiting = try #require(retried)
        #expect(waiting.state == .due)
        #expect(waiting.nextAttemptAt == 1010)
        #expect(waiting.lastError == "HTTP 503")
        #expect(waiting.lastStatus == 503)
        #expect(waiting.dueAt == 10)
        #expect(queue.dueCount == 1 && queue.inFlightCount == 0)
        #expect(queue.nextAttempt(after: 20) == 1010)
        #expect(queue.start(now: 1009).isEmpty)
        let again = queue.start(now: 1010)
        #expect(again.map(\.attempts) == [2])
    }

    @Test func aNoAnswerRetryKeepsTheLastStatus() throws {
        var queue = queue([Self.delivery("http://a.example/")])
        let key = Self.key("http://a.example/")
        _ = queue.start(now: 0)
        _ = queue.finish(key, verdict: .retry(at: 5, reason: "HTTP 503"), result: Self.unavailable, now: 1)
        _ = queue.start(now: 5)
        let timedOut = RequestResult(url: key.url, outcome: .failed(.timedOut), latencyMilliseconds: 0)
        let retried = queue.finish(key, verdict: .retry(at: 9, reason: "timed out"), result: timedOut, now: 6)
        let waiting = try #require(retried)
        #expect(waiting.lastStatus == 503)
        #expect(waiting.lastError == "timed out")
    }

    @Test func aFailedVerdictGivesItUp() throws {
        var queue = queue([Self.delivery("http://a.example/")])
        let key = Self.key("http://a.example/")
        _ = queue.start(now: 0)
        let givenUp = queue.finish(key, verdict: .failed(reason: "HTTP 404, not retried"), result: Self.result(404), now: 3)
        let failed = try #require(givenUp)
        #expect(failed.state == .failed)
        #expect(failed.lastError == "HTTP 404, not retried")
        #expect(failed.lastStatus == 404)
        #expect(queue.dueCount == 0 && queue.inFlightCount == 0)
        #expect(queue.start(now: 1_000_000).isEmpty)
    }

    @Test func finishingAnUnknownOrWaitingKeyChangesNothing() {
        var queue = queue([Self.delivery("http://a.example/", nextAttemptAt: 50)])
        let before = queue.deliveries
        #expect(queue.finish(Self.key("http://a.example/"), verdict: .delivered, result: Self.ok, now: 1) == nil)
        #expect(queue.finish(Self.key("http://nowhere.example/"), verdict: .delivered, result: Self.ok, now: 1) == nil)
        #expect(queue.interrupt(Self.key("http://a.example/"), now: 1) == nil)
        #expect(queue.deliveries == before)
        #expect(queue.dueCount == 1 && queue.inFlightCount == 0)
    }

    /// A request that reaches the host ends the backoffs its unreachability set, on that host only;
    /// a backoff after a URL's own failure stands.
    @Test func reachingTheHostBringsForwardWhatWaitedForItAndNothingElse() {
        let urls = ["http://a.example/1", "http://a.example/2", "http://a.example/3", "https://a.example/4", "http://b.example/5"]
        var queue = queue(perHost: 6, urls.enumerated().map { Self.delivery($1, dueAt: Milliseconds($0)) })
        #expect(queue.start(now: 10).count == 5)
        _ = queue.finish(Self.key("http://a.example/3"), verdict: .retry(at: 10_000, reason: "HTTP 500"), result: Self.result(500), now: 11)
        _ = queue.finish(Self.key("http://a.example/2"), verdict: .retry(at: 20_000, reason: "refused"), result: Self.refused, now: 12)
        _ = queue.finish(Self.key("https://a.example/4"), verdict: .retry(at: 10_000, reason: "refused"), result: Self.refused, now: 13)
        _ = queue.finish(Self.key("http://b.example/5"), verdict: .retry(at: 10_000, reason: "refused"), result: Self.refused, now: 14)
        _ = queue.finish(Self.key("http://a.example/1"), verdict: .delivered, result: Self.ok, now: 1000)
        let next = { (url: String) in queue.deliveries[Self.key(url)]?.nextAttemptAt }
        #expect(next("http://a.example/2") == 1000)
        #expect(next("http://a.example/3") == 10_000, "its URL's own backoff")
        #expect(next("https://a.example/4") == 10_000, "another scheme is another host")
        #expect(next("http://b.example/5") == 10_000)
        #expect(queue.start(now: 1000).map(\.key.url) == ["http://a.example/2"])
    }

    @Test func aFailureOrRetryBringsNothingForward() {
        for verdict in [RetryPolicy.Verdict.failed(reason: "HTTP 404"), .retry(at: 50_000, reason: "HTTP 503")] {
            var queue = queue(perHost: 1, [Self.delivery("http://a.example/1", dueAt: 1), Self.delivery("http://a.example/2", dueAt: 2, nextAttemptAt: 20_000)])
            _ = queue.start(now: 1000)
            _ = queue.finish(Self.key("http://a.example/1"), verdict: verdict, result: Self.unavailable, now: 1000)
            #expect(queue.deliveries[Self.key("http://a.example/2")]?.nextAttemptAt == 20_000)
        }
    }

    @Test func anInterruptedRequestIsDueAgainAsAPossibleResend() throws {
        var queue = queue(perHost: 1, [Self.delivery("http://a.example/1", dueAt: 1), Self.delivery("http://a.example/2", dueAt: 2)])
        let key = Self.key("http://a.example/1")
        _ = queue.start(now: 10)
        let wasInFlight = queue.interrupt(key, now: 20)
        let interrupted = try #require(wasInFlight)
        #expect(interrupted.state == .due)
        #expect(interrupted.resend)
        #expect(interrupted.lastError == "interrupted")
        #expect(interrupted.updatedAt == 20)
        #expect(queue.inFlightCount == 0 && queue.dueCount == 2)
        // The host's slot is free again, and the interrupted one is still the oldest.
        let again = try #require(queue.start(now: 20).first)
        #expect(again.key == key && again.attempts == 2 && again.resend)
        let finished = queue.finish(key, verdict: .delivered, result: Self.ok, now: 30)
        let done = try #require(finished)
        #expect(!done.resend, "the request after the re-send is a plain one")
    }

    // MARK: Adding, expiring, pruning

    @Test func anInFlightDeliveryRestoredAfterARestartIsDueAsAPossibleResend() throws {
        var queue = DeliveryQueue()
        let restoredAdded = queue.add(Self.delivery("http://a.example/", dueAt: 5, state: .inFlight, attempts: 2))
        #expect(restoredAdded)
        let restored = try #require(queue.deliveries[Self.key("http://a.example/")])
        #expect(restored.state == .due && restored.resend && restored.attempts == 2)
        #expect(queue.inFlightCount == 0 && queue.dueCount == 1)
        let started = queue.start(now: 5)
        #expect(started.map(\.attempts) == [3])
        #expect(started.first?.resend == true)
    }

    @Test func aDuplicateKeyIsIgnored() {
        var queue = DeliveryQueue()
        let firstAdded = queue.add(Self.delivery("http://a.example/", dueAt: 5))
        #expect(firstAdded)
        _ = queue.start(now: 5)
        let laterAdded = queue.add(Self.delivery("http://a.example/", dueAt: 9))
        #expect(!laterAdded)
        let restoredAgainAdded = queue.add(Self.delivery("http://a.example/", dueAt: 9, state: .inFlight))
        #expect(!restoredAgainAdded)
        #expect(queue.deliveries[Self.key("http://a.example/")]?.state == .inFlight)
        #expect(queue.deliveries[Self.key("http://a.example/")]?.dueAt == 5)
        #expect(queue.dueCount == 0 && queue.inFlightCount == 1)
        var waiting = DeliveryQueue()
        waiting.add(Self.delivery("http://a.example/", dueAt: 5))
        let twiceAdded = waiting.add(Self.delivery("http://a.example/", dueAt: 5))
        #expect(!twiceAdded)
        #expect(waiting.dueCount == 1)
        #expect(waiting.start(now: 5).count == 1)
    }

    @Test func finishedDeliveriesAreKeptButNeverStarted() {
        var queue = queue([
            Self.delivery("http://a.example/1", state: .delivered, attempts: 1), Self.delivery("http://a.example/2", state: .failed, attempts: 3),
        ])
        #expect(queue.deliveries.count == 2)
        #expect(queue.dueCount == 0)
        #expect(queue.start(now: 1_000_000).isEmpty)
    }

    @Test func expiringGivesUpDueDeliveriesOlderThanTheCutoff() {
        var queue = queue(perHost: 1, [
            Self.delivery("http://a.example/1", dueAt: 10), Self.delivery("http://a.example/2", dueAt: 20, lastError: "HTTP 503"),
            Self.delivery("http://b.example/3", dueAt: 24), Self.delivery("http://b.example/4", dueAt: 30),
        ])
        #expect(queue.start(now: 30).map(\.key.url) == ["http://a.example/1", "http://b.example/3"])
        #expect(queue.expire(dueBefore: 10, now: 40, reason: "too old").isEmpty)
        let expired = queue.expire(dueBefore: 25, now: 40, reason: "too old")
        #expect(expired.map(\.key.url) == ["http://a.example/2"])
        #expect(expired.first?.state == .failed)
        #expect(expired.first?.lastError == "too old; last: HTTP 503")
        #expect(expired.first?.updatedAt == 40)
        #expect(queue.deliveries[Self.key("http://a.example/1")]?.state == .inFlight, "in flight: its answer decides")
        #expect(queue.dueCount == 1)
        _ = queue.finish(Self.key("http://b.example/3"), verdict: .retry(at: 50, reason: "timed out"), result: Self.unavailable, now: 45)
        let later = queue.expire(dueBefore: 1000, now: 60, reason: "too old")
        #expect(later.map(\.key.url) == ["http://b.example/3", "http://b.example/4"])
        #expect(later.map(\.lastError) == ["too old; last: timed out", "too old"])
        #expect(queue.dueCount == 0)
        #expect(queue.start(now: 100).isEmpty)
    }

    @Test func pruningForgetsOnlyFinishedDeliveriesOlderThanTheCutoff() {
        var queue = queue([
            Self.delivery("http://a.example/old-delivered", state: .delivered, updatedAt: 10),
            Self.delivery("http://a.example/old-failed", state: .failed, updatedAt: 19),
            Self.delivery("http://a.example/recent", state: .delivered, updatedAt: 20),
            Self.delivery("http://a.example/due", dueAt: 1, nextAttemptAt: 1000), Self.delivery("http://a.example/in-flight", dueAt: 2),
        ])
        _ = queue.start(now: 2)
        queue.prune(finishedBefore: 20)
        #expect(Set(queue.deliveries.keys.map(\.url)) == ["http://a.example/recent", "http://a.example/due", "http://a.example/in-flight"])
    }

    @Test func theDeliveriesOfOneFiringShareEverythingButTheURL() {
        let firing = Self.key("http://a.example/1", occurrence: 7)
        let same = [firing, Self.key("http://b.example/2", occurrence: 7)]
        let others = [
            Self.key("http://c.example/", session: "other", occurrence: 7), Self.key("http://c.example/", adBreak: "q", occurrence: 7),
            Self.key("http://c.example/", ad: "b", occurrence: 7), Self.key("http://c.example/", event: .start, occurrence: 7),
            Self.key("http://c.example/", eventStart: 1, occurrence: 7), Self.key("http://c.example/", occurrence: 8),
        ]
        var queue = DeliveryQueue()
        for key in same + others { queue.add(BeaconDelivery(key: key, reference: Self.reference, dueAt: 0)) }
        #expect(Set(queue.deliveries(sharingFiringWith: firing).map(\.key)) == Set(same))
    }

    // MARK: Bookkeeping

    private static func checkInvariants(of queue: DeliveryQueue, step: Int) {
        let all = Array(queue.deliveries.values)
        let inFlight = all.filter { $0.state == .inFlight }
        let due = all.filter { $0.state == .due }
        #expect(queue.inFlightCount == inFlight.count, "step \(step)")
        #expect(queue.inFlightCount <= queue.totalLimit, "step \(step)")
        let perHost = Dictionary(grouping: inFlight, by: { URLPolicy.hostKey(of: $0.key.url) }).mapValues(\.count)
        #expect(perHost.values.allSatisfy { $0 <= queue.perHostLimit }, "step \(step): \(perHost)")
        #expect(queue.dueCount == due.count, "step \(step)")
        // Drain a copy: every due delivery starts exactly once, and nothing else does.
        var copy = queue
        var started: [BeaconDelivery.Key] = []
        for key in inFlight.map(\.key) { _ = copy.finish(key, verdict: .failed(reason: "drained"), result: Self.unavailable, now: .max) }
        var batch = copy.start(now: .max)
        while !batch.isEmpty {
            started += batch.map(\.key)
            for delivery in batch { _ = copy.finish(delivery.key, verdict: .delivered, result: Self.ok, now: .max) }
            batch = copy.start(now: .max)
        }
        #expect(started.count == due.count, "step \(step)")
        #expect(Set(started) == Set(due.map(\.key)), "step \(step)")
        #expect(copy.dueCount == 0 && copy.inFlightCount == 0, "step \(step)")
    }
}

extension DeliveryQueueTests {
    /// CPU-bound for seconds: `make test` runs it in its sweeps step, apart from the tests that
    /// need the cooperative pool on time (loopback servers, timers, waits).
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        /// Random operations on a small set of hosts; after each, the counts match the deliveries,
        /// the limits hold, and every due delivery waits exactly once.
        @Test(arguments: UInt64(1)...12)
        func bookkeepingHoldsThroughLongRandomSequences(seed: UInt64) {
            var random = SeededGenerator(seed: seed)
            let hosts = ["http://a.example", "http://b.example", "https://a.example", "http://c.example:8080"]
            var queue = DeliveryQueue(perHostLimit: 2, totalLimit: 5)
            var now: Milliseconds = 1000
            var created = 0
            for step in 0..<1500 {
                now += Milliseconds.random(in: 0...50, using: &random)
                let inFlight = queue.deliveries.values.filter { $0.state == .inFlight }.map(\.key)
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<25:
                    created += 1
                    let host = hosts.randomElement(using: &random)!
                    let restored = Int.random(in: 0..<10, using: &random) == 0
                    queue.add(
                        DeliveryQueueTests.delivery(
                            "\(host)/\(created)", dueAt: now - Milliseconds.random(in: 0...500, using: &random), state: restored ? .inFlight : .due,
                            nextAttemptAt: now + Milliseconds.random(in: -100...200, using: &random)))
                case 25..<30:
                    if let known = queue.deliveries.values.randomElement(using: &random) {
                        let addedAgain = queue.add(known)
                        #expect(!addedAgain)
                    }
                case 30..<55:
                    let started = queue.start(now: now)
                    #expect(started.allSatisfy { $0.nextAttemptAt <= now && $0.state == .inFlight })
                case 55..<85:
                    guard let key = inFlight.randomElement(using: &random) else { break }
                    let verdict: RetryPolicy.Verdict =
                        switch Int.random(in: 0..<3, using: &random) {
                        case 0: .delivered
                        case 1: .retry(at: now + Milliseconds.random(in: 0...300, using: &random), reason: "HTTP 503")
                        default: .failed(reason: "HTTP 404")
                        }
                    let result = [DeliveryQueueTests.unavailable, DeliveryQueueTests.refused, DeliveryQueueTests.failure(.timedOut), DeliveryQueueTests.ok].randomElement(using: &random)!
                    #expect(queue.finish(key, verdict: verdict, result: result, now: now) != nil)
                case 85..<92:
                    guard let key = inFlight.randomElement(using: &random) else { break }
                    #expect(queue.interrupt(key, now: now)?.resend == true)
                case 92..<96:
                    let expired = queue.expire(dueBefore: now - 400, now: now, reason: "too old")
                    #expect(expired.allSatisfy { $0.state == .failed && $0.dueAt < now - 400 })
                default:
                    queue.prune(finishedBefore: now - 200)
                }
                DeliveryQueueTests.checkInvariants(of: queue, step: step)
            }
        }
    }
}
