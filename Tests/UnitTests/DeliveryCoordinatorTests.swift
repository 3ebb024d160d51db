import Testing
@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconTesting

/// The delivery rules on the coordinator alone, in virtual time: the tests move `now` and answer
/// requests themselves, so a 60 s outage or a 15 min max age takes milliseconds.
@Suite(.timeLimit(.minutes(2))) struct DeliveryCoordinatorTests {
    typealias Key = BeaconDelivery.Key
    static let start: Milliseconds = 1_000_000
    static let wallStart: Milliseconds = Fixture.t0

    /// A coordinator and what a runtime would have done with its effects: the journal's rows, the
    /// requests sent and their order, the log lines and the firings finished.
    struct Run {
        var coordinator: DeliveryCoordinator
        var random = SeededGenerator(seed: 42)
        var now = DeliveryCoordinatorTests.start
        /// The wall clock minus the monotonic instant: a clock step changes it.
        var wallOffset = DeliveryCoordinatorTests.wallStart - DeliveryCoordinatorTests.start
        var journal: [Key: BeaconDelivery] = [:]
        var inFlight: [BeaconDelivery] = []
        /// Every request, in the order it left.
        var sent: [BeaconDelivery] = []
        var ended: [DeliveryEffects.EndedRequest] = []
        var finished: [DeliveryEffects.FinishedFiring] = []
        /// When the last effects said to look again, as the runtime's timer would sleep.
        var nextWake: Milliseconds?

        init(maxAge: Milliseconds = 15 * 60_000, backoff: Backoff = Backoff(), perHost: Int = 6, total: Int = 32) {
            coordinator = DeliveryCoordinator(
                queue: DeliveryQueue(perHostLimit: perHost, totalLimit: total), retryPolicy: RetryPolicy(backoff: backoff, maxAge: maxAge))
        }

        var wallNow: Milliseconds { now + wallOffset }

        /// Carries out effects as the runtime does: the write, then the requests it allows.
        mutating func apply(_ effects: DeliveryEffects) {
            nextWake = effects.nextWake
            expectNothingStartsBefore(effects.nextWake)
            for delivery in effects.persist { journal[delivery.key] = delivery }
            for delivery in effects.start {
                // Write before request: what leaves is on disk in flight, with this attempt counted.
                #expect(journal[delivery.key] == delivery && delivery.state == .inFlight, "\(delivery.key.url) left before it was written")
            }
            inFlight += effects.start
            sent += effects.start
            ended += effects.ended
            finished += effects.finished
        }

        mutating func fire(_ firings: [Firing], session: String = "s1") {
            let wall = wallNow
            apply(
                coordinator.fire(
                    firings, sessionKey: session, macros: MacroSettings(deviceUserAgent: "test"), context: { _ in MacroContext(occurredAt: wall) }, now: now,
                    wallNow: wall, using: &random))
        }

        /// Answers every request in flight, in one batch.
        mutating func answer(_ outcome: (BeaconDelivery) -> RequestResult.Outcome, retryAfter: String? = nil) {
            let batch = inFlight.map { ($0.key, RequestResult(url: $0.key.url, outcome: outcome($0), latencyMilliseconds: 3, retryAfter: retryAfter)) }
            inFlight = []
            apply(coordinator.record(batch.map { (key: $0.0, result: $0.1) }, now: now, wallNow: wallNow, using: &random))
        }

        mutating func answer(_ outcome: RequestResult.Outcome, retryAfter: String? = nil) {
            answer({ _ in outcome }, retryAfter: retryAfter)
        }

        mutating func advance(to instant: Milliseconds) {
            now = instant
            apply(coordinator.timePassed(now: now))
        }

        /// Answers requests as `server` says and moves time to each wake-up until nothing is left
        /// to do or `limit` passed.
        mutating func play(until limit: Milliseconds, server: (BeaconDelivery, Milliseconds) -> RequestResult.Outcome) {
            while now <= limit {
                if !inFlight.isEmpty {
                    let at = now
                    answer { server($0, at) }
                } else if let next = nextWake {
                    advance(to: next)
                } else {
                    return
                }
            }
        }

        /// The timer sleeps until `wake`, or for good when nil: no delivery may start by time alone
        /// before then, or it would wait until some other request ends.
        func expectNothingStartsBefore(_ wake: Milliseconds?) {
            var later = coordinator
            let lastInstantAsleep = (wake ?? now + 24 * 3_600_000) - 1
            guard lastInstantAsleep > now else { return }
            let starting = later.timePassed(now: lastInstantAsleep).start
            #expect(starting.isEmpty, "\(starting.map(\.key.url)) could start at \(lastInstantAsleep) while the timer sleeps until \(wake.map(String.init) ?? "a request ends")")
        }

        func state(_ url: String) -> BeaconDelivery.State? {
            coordinator.queue.deliveries.values.first { $0.key.url == url }?.state
        }
    }

    static func firing(
        _ urls: [String], event: TrackingEventType = .impression, ad: String = "a", eventStart: Milliseconds = 0
    ) -> Firing {
        Firing(reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), adBreakID: "p", adID: ad, event: event, eventStart: eventStart, signalingURLs: urls)
    }

    static let refused = RequestResult.Outcome.failed(.connectionFailed("Connection refused"))

    // MARK: Outage

    @Test func aSixtySecondOutageLosesNothingDoublesNothingAndDeliversOldestFirst() {
        var run = Run()
        let urls = (0..<40).map { "http://ads.example/b?n=\($0)" }
        // One firing every 100 ms while the host is down.
        for (index, url) in urls.enumerated() {
            run.advance(to: Self.start + Milliseconds(index) * 100)
            run.fire([Self.firing([url], ad: "a\(index)")])
        }
        let outageEnds = Self.start + 60_000
        var delivered: [String] = []
        var requestsInTheOutage = 0
        run.play(until: Self.start + 10 * 60_000) { delivery, now in
            guard now >= outageEnds else {
                requestsInTheOutage += 1
                return Self.refused
            }
            delivered.append(delivery.key.url)
            return .answered(status: 204)
        }
        #expect(delivered == urls, "each delivered once, oldest first")
        #expect(run.finished.count == urls.count)
        #expect(run.finished.allSatisfy { $0.state == .done })
        #expect(run.journal.values.allSatisfy { $0.state == .delivered })
        #expect(requestsInTheOutage <= 20, "the host looked down: its oldest delivery alone probed it, backing off")
        #expect(run.now - Self.start < 3 * 60_000, "the backlog left soon after the outage")
    }

    // MARK: Backoff

    @Test func retriesBackOffWithFullJitterUnderTheCap() {
        var run = Run(backoff: Backoff(base: 1000, cap: 8000))
        let urls = (0..<200).map { "http://ads.example/\($0)" }
        run.fire(urls.map { Self.firing([$0], ad: $0) })
        run.answer(.answered(status: 503))
        let firstWaits = run.coordinator.queue.deliveries.values.map { $0.nextAttemptAt - run.now }
        #expect(firstWaits.allSatisfy { (0...1000).contains($0) })
        #expect(firstWaits.min()! < 200 && firstWaits.max()! > 800, "drawn over the whole range, not at its ceiling")

        // One delivery retried again and again: each wait is under its doubling ceiling, capped.
        var one = Run(backoff: Backoff(base: 1000, cap: 8000))
        one.fire([Self.firing(["http://ads.example/one"])])
        var waits: [Milliseconds] = []
        for _ in 0..<8 {
            one.answer(.answered(status: 503))
            let next = one.coordinator.queue.deliveries.values.first!.nextAttemptAt
            waits.append(next - one.now)
            one.advance(to: next)
        }
        for (index, wait) in waits.enumerated() {
            #expect(wait >= 0 && wait <= min(1000 << index, 8000), "retry \(index + 1) waited \(wait) ms")
        }
        #expect(waits.contains { $0 > 4000 }, "the ceiling grew to the cap")
        #expect(one.sent.count == 9)
    }

    /// The daemon once asked for the next wake at a later instant than it started what was due:
    /// a retry falling due in between was neither started nor waited for, and never left.
    @Test func theNextWakeIsReckonedAtTheInstantOfTheDecision() throws {
        var run = Run(backoff: Backoff(base: 50, cap: 50))
        run.fire([Self.firing(["http://ads.example/x"])])
        run.answer(.answered(status: 503))
        let retryAt = try #require(run.coordinator.queue.deliveries.values.first?.nextAttemptAt)
        try #require(retryAt > run.now + 1, "the seed draws a backoff of at least 2 ms")
        #expect(run.nextWake == retryAt)
        run.advance(to: retryAt - 1)
        #expect(run.sent.count == 1)
        #expect(run.nextWake == retryAt, "one millisecond before the retry, the timer still waits for it")
        run.advance(to: try #require(run.nextWake))
        #expect(run.sent.count == 2)
        #expect(run.nextWake == nil)
    }

    @Test func theSameSeedGivesTheSameSchedule() {
        func schedule() -> [Milliseconds] {
            var run = Run()
            run.fire([Self.firing(["http://ads.example/x", "http://ads.example/y"])])
            var times: [Milliseconds] = []
            for _ in 0..<5 {
                run.answer(.answered(status: 500))
                times += run.coordinator.queue.deliveries.values.map(\.nextAttemptAt).sorted()
                run.advance(to: run.nextWake ?? run.now)
                run.advance(to: times.max()!)
            }
            return times
        }
        #expect(schedule() == schedule())
    }

    // MARK: Retry-After

    @Test func aBeaconsRetryAfterIsHonouredAndBoundedByTheMaxAge() {
        var run = Run(backoff: Backoff(base: 10, cap: 10))
        run.fire([Self.firing(["http://ads.example/a"])])
        run.answer(.answered(status: 429), retryAfter: "120")
        #expect(run.coordinator.queue.deliveries.values.first!.nextAttemptAt == run.now + 120_000)
        #expect(run.ended.last?.line.text.contains("next_attempt_in_ms=120000") == true)

        // As an HTTP-date, read against the wall clock once: 30 s from now.
        var dated = Run(backoff: Backoff(base: 10, cap: 10))
        dated.fire([Self.firing(["http://ads.example/a"])])
        // Wed, 21 Oct 2015 07:28:00 GMT is 1 445 412 480 000 ms after the epoch: 30 s after the wall clock.
        dated.wallOffset = 1_445_412_450_000 - dated.now
        dated.answer(.answered(status: 503), retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(dated.coordinator.queue.deliveries.values.first!.nextAttemptAt == dated.now + 30_000)

        // A day asked for: the last attempt is at the max age, not a day later.
        var long = Run(maxAge: 15 * 60_000, backoff: Backoff(base: 10, cap: 10))
        long.fire([Self.firing(["http://ads.example/a"])])
        long.answer(.answered(status: 503), retryAfter: "86400")
        #expect(long.coordinator.queue.deliveries.values.first!.nextAttemptAt == Self.start + 15 * 60_000)

        // A status that is not tried again: its Retry-After means nothing.
        var notFound = Run()
        notFound.fire([Self.firing(["http://ads.example/a"])])
        notFound.answer(.answered(status: 404), retryAfter: "120")
        #expect(notFound.state("http://ads.example/a") == .failed)
    }

    // MARK: Max age

    @Test func pastTheMaxAgeTheDeliveryIsGivenUpWithTheReadmesReason() {
        var run = Run(maxAge: 60_000, backoff: Backoff(base: 20_000, cap: 20_000))
        run.fire([Self.firing(["http://ads.example/a"])])
        run.play(until: Self.start + 10 * 60_000) { _, _ in .answered(status: 503) }
        let delivery = run.coordinator.queue.deliveries.values.first!
        #expect(delivery.state == .failed)
        #expect(run.sent.last!.attempts == delivery.attempts && run.now == Self.start + 60_000, "the last attempt is at the deadline")
        #expect(delivery.lastError == "gave up after \(delivery.attempts) attempts, beacon max age passed; last: HTTP 503")
        #expect(run.finished.map(\.state) == [.failed])
        #expect(run.ended.last?.line.text.hasPrefix("BEACON failed pod=p ad=a event=impression url=http://ads.example/a status=503") == true)
    }

    @Test func aLateTimerStillMakesTheLastAttemptWithinTheAllowanceAndNotAfter() {
        // The allowance: 10 s late still makes the attempt, 10 s and a millisecond gives up.
        for (late, requested): (Milliseconds, Bool) in [(10_000, true), (10_001, false)] {
            var run = Run(maxAge: 60_000, backoff: Backoff(base: 120_000, cap: 120_000))
            run.fire([Self.firing(["http://ads.example/a"])])
            run.answer(.answered(status: 503))
            let deadline = Self.start + 60_000
            #expect(run.coordinator.queue.deliveries.values.first!.nextAttemptAt == deadline)
            // The timer fires late, on a loaded machine.
            run.advance(to: deadline + late)
            #expect(run.sent.count == (requested ? 2 : 1), "\(late) ms late")
            if !requested {
                let delivery = run.coordinator.queue.deliveries.values.first!
                #expect(delivery.state == .failed)
                #expect(delivery.lastError == "\(DeliveryCoordinator.maxAgeReason); last: HTTP 503")
                #expect(DeliveryCoordinator.maxAgeReason == "beacon max age passed before it could be sent")
                #expect(run.journal[delivery.key]?.state == .failed, "given up is written")
                #expect(run.finished.map(\.state) == [.failed])
                #expect(run.ended.last?.line.text.contains("reason=\"beacon max age passed before it could be sent; last: HTTP 503\"") == true)
            }
        }
    }

    @Test func aShorterMaxAgeFromAReloadGivesUpAtTheNextLook() {
        var run = Run(maxAge: 15 * 60_000)
        run.fire([Self.firing(["http://ads.example/a"])])
        run.answer(.answered(status: 503), retryAfter: "600")
        run.coordinator.setMaxAge(1000)
        run.advance(to: Self.start + 20_000)
        #expect(run.state("http://ads.example/a") == .failed)
        #expect(run.sent.count == 1)
    }

    // MARK: Clock steps

    @Test func aWallClockStepMovesNoSchedule() {
        func schedule(step: Milliseconds) -> [Milliseconds] {
            var run = Run()
            run.fire([Self.firing(["http://ads.example/a", "http://ads.example/b"])])
            run.answer(.failed(.timedOut))
            // NTP steps the wall clock while the retries wait; a tracking event fires after the step.
            run.wallOffset += step
            run.advance(to: run.now + 300)
            run.fire([Self.firing(["http://ads.example/c"], ad: "c")])
            var times: [Milliseconds] = []
            run.play(until: Self.start + 10 * 60_000) { delivery, now in
                times.append(now)
                return delivery.attempts < 4 ? .failed(.timedOut) : .answered(status: 200)
            }
            return times + run.coordinator.queue.deliveries.values.map(\.dueAt).sorted()
        }
        let unmoved = schedule(step: 0)
        #expect(schedule(step: 3_600_000) == unmoved)
        #expect(schedule(step: -3_600_000) == unmoved)
    }

    // MARK: Drain

    @Test func drainingStartsWhatIsDueLetsRequestsFinishAndLeavesRetriesDue() {
        var run = Run(perHost: 1)
        run.fire([Self.firing(["http://ads.example/a"]), Self.firing(["http://ads.example/waits"], ad: "b")])
        run.fire([Self.firing(["http://ads.example/next"], ad: "c")])
        #expect(run.inFlight.map(\.key.url) == ["http://ads.example/a"])
        // One fails and waits for its retry.
        run.answer(.answered(status: 503))
        #expect(run.state("http://ads.example/a") == .due)
        #expect(run.inFlight.map(\.key.url) == ["http://ads.example/waits"])

        run.apply(run.coordinator.beginDrain(now: run.now))
        #expect(!run.coordinator.isDrained)
        run.answer(.answered(status: 200))
        #expect(run.ended.last?.retrying == false)
        // Due now, behind the host's limit: it still leaves.
        #expect(run.inFlight.map(\.key.url) == ["http://ads.example/next"])
        run.answer(.answered(status: 503))
        #expect(run.ended.last?.retrying == false, "no retry announced while draining")
        #expect(run.coordinator.isDrained, "nothing in flight")
        #expect(run.state("http://ads.example/a") == .due && run.state("http://ads.example/next") == .due, "retries stay due, for the next run")
        #expect(run.journal.values.filter { $0.state == .due }.count == 2)
    }

    @Test func afterTheDrainTimeoutNothingStartsAndCancelledRequestsStayDue() {
        var run = Run()
        run.fire([Self.firing(["http://ads.example/slow"]), Self.firing(["http://ads.example/retry"], ad: "b")])
        run.answer { $0.key.url.hasSuffix("retry") ? .answered(status: 503) : .answered(status: 200) }
        run.fire([Self.firing(["http://ads.example/hangs"], ad: "c")])
        run.apply(run.coordinator.beginDrain(now: run.now))
        run.coordinator.drainTimedOut()
        // The runtime cancels what is in flight.
        run.answer(.failed(.cancelled))
        let hangs = run.coordinator.queue.deliveries.values.first { $0.key.url.hasSuffix("hangs") }!
        #expect(hangs.state == .due && hangs.resend, "cancelled: due again, as a possible re-send")
        #expect(run.journal[hangs.key] == hangs)
        let sentBefore = run.sent.count
        // The retry's backoff (at most 1 s) has passed.
        run.advance(to: run.now + 10_000)
        #expect(run.sent.count == sentBefore, "nothing starts after the drain timeout")
        #expect(run.state("http://ads.example/retry") == .due && run.state("http://ads.example/hangs") == .due)
        #expect(run.coordinator.isDrained)
    }

    // MARK: Occurrences

    @Test func twoFiringsOfARepeatableEventInOneMillisecondAreTwoDeliveries() {
        var run = Run()
        run.fire([Self.firing(["http://ads.example/pause"], event: .pause)])
        run.fire([Self.firing(["http://ads.example/pause"], event: .pause)])
        #expect(run.sent.count == 2)
        #expect(Set(run.sent.map(\.key.occurrence)).count == 2)
        #expect(run.sent.allSatisfy { $0.key.occurrence >= run.wallNow })
        // One that fires once is one delivery for good.
        run.fire([Self.firing(["http://ads.example/start"], event: .start)])
        run.fire([Self.firing(["http://ads.example/start"], event: .start)])
        #expect(run.sent.filter { $0.key.url.hasSuffix("start") }.map(\.key.occurrence) == [0])
    }

    // MARK: Siblings

    @Test func aFiringGetsOneReportingStateOnceAllItsURLsFinished() {
        var run = Run(perHost: 1, total: 1)
        let urls = ["http://one.example/a", "http://two.example/b", "http://three.example/c"]
        run.fire([Self.firing(urls)])
        run.answer(.answered(status: 200))
        run.answer(.answered(status: 204))
        #expect(run.finished.isEmpty, "one URL is still due")
        run.answer(.answered(status: 404))
        #expect(run.finished.count == 1)
        let finished = try! #require(run.finished.first)
        #expect(finished.state == .failed)
        #expect(finished.firing.signalingURLs == urls.sorted())
        #expect(finished.results.map(\.url) == urls.sorted())
        #expect(finished.sessionKey == "s1")
    }

    @Test func siblingsEndingInOneBatchGiveOneReportingState() {
        var run = Run()
        run.fire([Self.firing(["http://one.example/a", "http://two.example/b"]), Self.firing([], ad: "silent")])
        #expect(run.finished.map(\.state) == [.done], "a firing without signaling URLs is done at once")
        run.answer(.answered(status: 200))
        #expect(run.finished.map(\.state) == [.done, .done])
        #expect(run.finished.last?.results.count == 2)
        #expect(run.coordinator.isDrained == false)
    }

    // MARK: Restore

    @Test func restoredDeliveriesInFlightAreDueAgainAsResends() {
        var run = Run()
        let key = Key(sessionKey: "old", adBreakID: "p", adID: "a", event: .start, eventStart: 0, url: "http://ads.example/r", occurrence: 0)
        let inFlight = BeaconDelivery(key: key, reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), state: .inFlight, attempts: 1, dueAt: Self.start - 5000)
        run.apply(run.coordinator.restore([inFlight], now: Self.start))
        #expect(run.sent.map(\.attempts) == [2])
        #expect(run.sent.first?.resend == true)
        run.answer(.answered(status: 200))
        #expect(run.ended.last?.line.text == "BEACON sent pod=p ad=a event=start url=http://ads.example/r status=200 latency_ms=3 attempt=2 resend=true")
    }

    /// Only the re-sent request's line says `resend=true`; the retry after it is a request like any other.
    @Test func onlyTheResentRequestsLineSaysSo() throws {
        var run = Run()
        let key = Key(sessionKey: "old", adBreakID: "p", adID: "a", event: .start, eventStart: 0, url: "http://ads.example/r", occurrence: 0)
        let inFlight = BeaconDelivery(key: key, reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), state: .inFlight, attempts: 1, dueAt: Self.start)
        run.apply(run.coordinator.restore([inFlight], now: Self.start))
        run.answer(.answered(status: 503))
        #expect(run.ended.last?.line.text.hasPrefix("BEACON retrying") == true)
        #expect(run.ended.last?.line.text.contains("attempt=2 resend=true") == true, "\(run.ended.map(\.line.text))")
        run.advance(to: try #require(run.nextWake))
        run.answer(.answered(status: 204))
        #expect(run.ended.last?.line.text.hasPrefix("BEACON sent") == true)
        #expect(run.ended.last?.line.text.contains("resend") == false, "\(run.ended.map(\.line.text))")
    }

    @Test func theLatestFiringOfEachEventDecidesItsRestoredState() {
        let reference = EventReference(adBreakID: "p", adIndex: 0, eventIndex: 2)
        func delivery(_ url: String, occurrence: Milliseconds, _ state: BeaconDelivery.State) -> BeaconDelivery {
            BeaconDelivery(
                key: Key(sessionKey: "s", adBreakID: "p", adID: "a", event: .pause, eventStart: 0, url: url, occurrence: occurrence),
                reference: reference, state: state, dueAt: Self.start)
        }
        let states = ReportingState.ofLatestFirings([
            delivery("http://a/1", occurrence: 10, .failed), delivery("http://a/1", occurrence: 20, .delivered),
            delivery("http://a/2", occurrence: 20, .delivered),
        ])
        #expect(states == [reference: .done])
        // What memory holds wins over the journal's older row.
        var run = Run()
        run.apply(run.coordinator.restore([delivery("http://a/3", occurrence: 30, .due)], now: Self.start))
        let merged = run.coordinator.reportingStates(ofSession: "s", stored: [delivery("http://a/3", occurrence: 30, .failed)])
        #expect(merged == [reference: .connecting])
    }
}
