import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct PlaybackJudgeTests {
    let t0 = Fixture.t0
    let arrival: Milliseconds = 1_700_000_000_000

    /// A judge that has seen one tick at `t0` arriving at `arrival`, so the next tick may count.
    func baselined(rate: Double? = nil) -> PlaybackJudge {
        var judge = PlaybackJudge()
        let outcome1 = judge.observe(PlayheadTick(playhead: t0, rate: rate), arrivalTime: arrival)
        #expect(outcome1 == nil)
        return judge
    }

    @Test func theFirstTickOnlySetsABaseline() {
        var judge = PlaybackJudge()
        #expect(judge.state == .ready)
        let outcome2 = judge.observe(PlayheadTick(playhead: t0), arrivalTime: arrival)
        #expect(outcome2 == nil)
        #expect(judge.lastPlayhead == t0)
        #expect(judge.state == .playing)
        let outcome3 = judge.observe(PlayheadTick(playhead: t0 + 250), arrivalTime: arrival + 250)
        #expect(outcome3 == t0...(t0 + 250))
    }

    /// (ms elapsed between ticks, ms the playhead moved, whether the stretch counts as played)
    @Test(arguments: [
        (250, 250, true),
        (5000, 5000, true),
        (1000, 2100, true),  // 1000 × 1.1 + 1000: the allowance exactly
        (1000, 2101, false),  // a hair more is a seek
        (5000, 6500, true),
        (5000, 6501, false),
        (0, 1000, true),  // bunched delivery: jitter alone
        (0, 1001, false),
        (1000, 500, true),  // slower than real time still counts
        (10_000, 1, true),
        (250, 0, false),  // standing still plays nothing
        (250, -250, false),  // a rewind
        (250, 60_000, false),  // a seek ahead
    ] as [(Milliseconds, Milliseconds, Bool)])
    func judgesTheSpeedOfAStretch(elapsed: Milliseconds, advance: Milliseconds, counts: Bool) {
        var judge = baselined()
        let stretch = judge.observe(PlayheadTick(playhead: t0 + advance), arrivalTime: arrival + elapsed)
        #expect(stretch == (counts ? t0...(t0 + advance) : nil))
    }

    @Test func allowanceScalesWithANormalRate() {
        // 1000 × 0.9 × 1.1 + 1000 = 1990
        var slow = baselined(rate: 0.9)
        let outcome4 = slow.observe(PlayheadTick(playhead: t0 + 1990, rate: 0.9), arrivalTime: arrival + 1000)
        #expect(outcome4 != nil)
        var slower = baselined(rate: 0.9)
        let outcome5 = slower.observe(PlayheadTick(playhead: t0 + 1991, rate: 0.9), arrivalTime: arrival + 1000)
        #expect(outcome5 == nil)
    }

    @Test(arguments: [0.0, 0.5, 0.89, 1.11, 1.5, 2.0])
    func abnormalRatesDoNotCount(rate: Double) {
        var judge = baselined()
        let outcome6 = judge.observe(PlayheadTick(playhead: t0 + 250, rate: rate), arrivalTime: arrival + 250)
        #expect(outcome6 == nil)
        let outcome7 = judge.observe(PlayheadTick(playhead: t0 + 500, rate: rate), arrivalTime: arrival + 500)
        #expect(outcome7 == nil)
        #expect(judge.rate == rate)
        var byEvent = baselined()
        byEvent.observe(.rate(rate))
        let outcome8 = byEvent.observe(PlayheadTick(playhead: t0 + 250), arrivalTime: arrival + 250)
        #expect(outcome8 == nil)
    }

    @Test(arguments: [0.9, 1.0, 1.05, 1.1])
    func normalRatesCount(rate: Double) {
        var judge = baselined(rate: rate)
        let outcome9 = judge.observe(PlayheadTick(playhead: t0 + 250, rate: rate), arrivalTime: arrival + 250)
        #expect(outcome9 == t0...(t0 + 250))
    }

    @Test func afterAnAbnormalRateTheFirstNormalTickIsABaseline() {
        var judge = baselined()
        let outcome10 = judge.observe(PlayheadTick(playhead: t0 + 500, rate: 2), arrivalTime: arrival + 250)
        #expect(outcome10 == nil)
        let outcome11 = judge.observe(PlayheadTick(playhead: t0 + 750, rate: 1), arrivalTime: arrival + 500)
        #expect(outcome11 == nil)
        let outcome12 = judge.observe(PlayheadTick(playhead: t0 + 1000, rate: 1), arrivalTime: arrival + 750)
        #expect(outcome12 == (t0 + 750)...(t0 + 1000))
    }

    /// Each interruption: the event that starts it, the event that ends it (if any), the state meanwhile.
    @Test(arguments: [
        (.pause, .play, .paused),
        (.seekStart, .seekEnd, .seeking),
        (.bufferStart, .bufferEnd, .buffering),
        (.complete, .play, .completed),
    ] as [(PlayerEvent, PlayerEvent?, PlaybackJudge.State)])
    func interruptionsStopCountingUntilANewBaseline(start: PlayerEvent, end: PlayerEvent?, state: PlaybackJudge.State) {
        var judge = baselined()
        let outcome13 = judge.observe(start)
        #expect(outcome13)
        #expect(judge.state == state)
        let outcome14 = judge.observe(PlayheadTick(playhead: t0 + 250), arrivalTime: arrival + 250)
        #expect(outcome14 == nil)
        let outcome15 = judge.observe(PlayheadTick(playhead: t0 + 500), arrivalTime: arrival + 500)
        #expect(outcome15 == nil)
        if let end {
            let changed = judge.observe(end)
            #expect(changed)
        }
        #expect(judge.state == .playing)
        // The first tick after the interruption only sets a new baseline...
        let outcome16 = judge.observe(PlayheadTick(playhead: t0 + 750), arrivalTime: arrival + 750)
        #expect(outcome16 == nil)
        // ...and the next one counts from it.
        let outcome17 = judge.observe(PlayheadTick(playhead: t0 + 1000), arrivalTime: arrival + 1000)
        #expect(outcome17 == (t0 + 750)...(t0 + 1000))
    }

    /// Seek and buffer starts may repeat before their end: one end closes them all.
    @Test(arguments: [(PlayerEvent.seekStart, PlayerEvent.seekEnd), (.bufferStart, .bufferEnd)])
    func repeatedStartsNeedOneEnd(start: PlayerEvent, end: PlayerEvent) {
        var judge = baselined()
        judge.observe(start)
        let repeated = judge.observe(start)
        #expect(repeated == false)
        judge.observe(start)
        #expect(judge.state != .playing)
        judge.observe(end)
        #expect(judge.state == .playing)
        let baseline = judge.observe(PlayheadTick(playhead: t0 + 250), arrivalTime: arrival + 250)
        #expect(baseline == nil)
        let counted = judge.observe(PlayheadTick(playhead: t0 + 500), arrivalTime: arrival + 500)
        #expect(counted == (t0 + 250)...(t0 + 500))
    }

    /// A pause or buffering holds the playhead: resumed at a known time, playback counts on from it,
    /// so a player ticking every 5 s loses nothing after a resume.
    @Test(arguments: [(PlayerEvent.pause, PlayerEvent.play), (.bufferStart, .bufferEnd)])
    func afterAStallPlaybackCountsOnFromTheHeldPlayhead(stop: PlayerEvent, resume: PlayerEvent) {
        var judge = baselined()
        judge.observe(stop, arrivalTime: arrival + 100)
        let held = judge.observe(PlayheadTick(playhead: t0), arrivalTime: arrival + 5_000)
        #expect(held == nil)
        judge.observe(resume, arrivalTime: arrival + 10_000)
        let resumed = judge.observe(PlayheadTick(playhead: t0 + 5_000), arrivalTime: arrival + 15_000)
        #expect(resumed == t0...(t0 + 5_000))
    }

    @Test func aResumeTooFastForTheTimeSinceItIsNotPlayback() {
        var judge = baselined()
        judge.observe(.pause, arrivalTime: arrival + 100)
        judge.observe(.play, arrivalTime: arrival + 10_000)
        // 20 s of program time in 1 s since the resume: a jump, not playback.
        let jumped = judge.observe(PlayheadTick(playhead: t0 + 20_000), arrivalTime: arrival + 11_000)
        #expect(jumped == nil)
    }

    @Test func aSeekDuringAPauseNeedsANewBaseline() {
        var judge = baselined()
        judge.observe(.pause, arrivalTime: arrival + 100)
        judge.observe(.seekStart, arrivalTime: arrival + 200)
        judge.observe(.seekEnd, arrivalTime: arrival + 300)
        judge.observe(.play, arrivalTime: arrival + 400)
        let first = judge.observe(PlayheadTick(playhead: t0 + 500), arrivalTime: arrival + 900)
        #expect(first == nil)
    }

    @Test func ticksOnThePlayersClockResumeOnlyFromANewBaseline() {
        // The resume's arrival time and the ticks' `at` come from different clocks: they are not compared.
        var judge = PlaybackJudge()
        _ = judge.observe(PlayheadTick(playhead: t0, observedAt: 1_000), arrivalTime: arrival)
        judge.observe(.pause, arrivalTime: arrival + 100)
        judge.observe(.play, arrivalTime: arrival + 5_000)
        let first = judge.observe(PlayheadTick(playhead: t0 + 250, observedAt: 6_000), arrivalTime: arrival + 5_250)
        #expect(first == nil)
        let second = judge.observe(PlayheadTick(playhead: t0 + 500, observedAt: 6_250), arrivalTime: arrival + 5_500)
        #expect(second == (t0 + 250)...(t0 + 500))
    }

    @Test func anInterruptionBetweenTwoTicksVoidsTheStretch() {
        var judge = baselined()
        judge.observe(.pause)
        judge.observe(.play)
        let outcome18 = judge.observe(PlayheadTick(playhead: t0 + 250), arrivalTime: arrival + 250)
        #expect(outcome18 == nil)
    }

    @Test func reportsRealChangesOfStateOnly() {
        var judge = baselined()
        let outcome19 = judge.observe(.play)
        #expect(outcome19 == false)
        let outcome20 = judge.observe(.pause)
        #expect(outcome20)
        let outcome21 = judge.observe(.pause)
        #expect(outcome21 == false)
        #expect(judge.isPaused)
        let outcome22 = judge.observe(.play)
        #expect(outcome22)
        let outcome23 = judge.observe(.seekEnd)
        #expect(outcome23 == false)
        let outcome24 = judge.observe(.bufferEnd)
        #expect(outcome24 == false)
        let outcome25 = judge.observe(.rate(1.0))
        #expect(outcome25 == false)
        let outcome26 = judge.observe(.rate(.nan))
        #expect(outcome26 == false)
        let outcome27 = judge.observe(.rate(1.05))
        #expect(outcome27)
    }

    @Test func observedAtReplacesArrivalTime() {
        // Observed 2 s apart, delivered 200 ms apart: 2 s of playback is plausible.
        var judge = PlaybackJudge()
        _ = judge.observe(PlayheadTick(playhead: t0, observedAt: arrival), arrivalTime: 5)
        let outcome28 = judge.observe(PlayheadTick(playhead: t0 + 2000, observedAt: arrival + 2000), arrivalTime: 205)
        #expect(outcome28 == t0...(t0 + 2000))

        // Observed 200 ms apart, delivered 2 s apart: a 2 s move is a seek.
        var other = PlaybackJudge()
        _ = other.observe(PlayheadTick(playhead: t0, observedAt: arrival), arrivalTime: 5)
        let outcome29 = other.observe(PlayheadTick(playhead: t0 + 2000, observedAt: arrival + 200), arrivalTime: 2005)
        #expect(outcome29 == nil)
    }

    @Test func aSeekMovesTheBaselineToTheLanding() {
        var judge = baselined()
        let outcome30 = judge.observe(PlayheadTick(playhead: t0 + 60_000), arrivalTime: arrival + 250)
        #expect(outcome30 == nil)
        #expect(judge.lastPlayhead == t0 + 60_000)
        let outcome31 = judge.observe(PlayheadTick(playhead: t0 + 60_250), arrivalTime: arrival + 500)
        #expect(outcome31 == (t0 + 60_000)...(t0 + 60_250))
    }

    @Test func aRewindMovesTheBaselineBack() {
        var judge = baselined()
        let outcome32 = judge.observe(PlayheadTick(playhead: t0 - 30_000), arrivalTime: arrival + 250)
        #expect(outcome32 == nil)
        let outcome33 = judge.observe(PlayheadTick(playhead: t0 - 29_750), arrivalTime: arrival + 500)
        #expect(outcome33 == (t0 - 30_000)...(t0 - 29_750))
    }

    /// (whether the earlier ticks carry `at`, whether the later ones do): a switch of clock is a
    /// new baseline, whichever way and however plausible the move looks across the two clocks.
    @Test(arguments: [(true, false), (false, true)])
    func aTickOnTheOtherClockIsANewBaseline(earlierOnPlayerClock: Bool, laterOnPlayerClock: Bool) {
        func tick(_ playhead: Milliseconds, _ time: Milliseconds, playerClock: Bool) -> PlayheadTick {
            PlayheadTick(playhead: playhead, observedAt: playerClock ? time : nil)
        }
        // The player's clock runs 2 h behind the arrival clock: 45 min of playhead looks like less than 2 h of time.
        let playerTime = arrival - 7_200_000
        func time(_ offset: Milliseconds, playerClock: Bool) -> Milliseconds { (playerClock ? playerTime : arrival) + offset }
        var judge = PlaybackJudge()
        _ = judge.observe(tick(t0, time(0, playerClock: earlierOnPlayerClock), playerClock: earlierOnPlayerClock), arrivalTime: arrival)
        let same = judge.observe(
            tick(t0 + 250, time(250, playerClock: earlierOnPlayerClock), playerClock: earlierOnPlayerClock), arrivalTime: arrival + 250)
        #expect(same == t0...(t0 + 250))
        // Both a jump and a move in step with the other clock start a new stretch.
        for move: Milliseconds in [2_700_000, 250] {
            var switching = judge
            let start = t0 + 250 + move
            let switched = switching.observe(
                tick(start, time(250 + move, playerClock: laterOnPlayerClock), playerClock: laterOnPlayerClock), arrivalTime: arrival + 250 + move)
            #expect(switched == nil)
            let next = switching.observe(
                tick(start + 250, time(500 + move, playerClock: laterOnPlayerClock), playerClock: laterOnPlayerClock),
                arrivalTime: arrival + 500 + move)
            #expect(next == start...(start + 250))
        }
    }
}
