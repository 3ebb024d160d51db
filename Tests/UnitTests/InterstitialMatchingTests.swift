import Testing
@testable import BeaconDomain
@testable import BeaconTesting

/// The interstitial rules on the session's one timeline, through `TrackingSession` on a clock only
/// the test moves: each asset fires its own ad's events and no other's, the main playhead fires no
/// ad in interstitial mode, and the late rule counts what each asset played.
@Suite(.timeLimit(.minutes(1))) struct InterstitialMatchingTests {
    static let t0 = Fixture.t0
    static let adLength: Milliseconds = 12_000
    /// Ad break "p" at t0 + 5 s: ads "a1" and "a2" of 12 s each, as Harmonic describes an interstitial's break.
    static let adBreak = Fixture.adBreak(
        id: "p", ads: [Fixture.ad(id: "a1", start: t0 + 5_000, duration: adLength), Fixture.ad(id: "a2", start: t0 + 5_000 + adLength, duration: adLength)])

    /// A player in interstitial mode, ticking the main stream from t0.
    static func player(document: MetadataDocument? = Fixture.document([adBreak])) -> InterstitialPlayer {
        var session = TrackingSession(retention: 600_000)
        session.enterInterstitialMode()
        if let document { _ = session.apply(document) }
        var player = InterstitialPlayer(ScriptedPlayer(session: session, at: t0))
        player.main.tick(t0)
        return player
    }

    @Test func anInterstitialOfTwoAssetsFiresEachAdOnceAndTheMainPlayheadNothing() throws {
        var player = Self.player()
        player.main.play(to: Self.t0 + 5_000)
        #expect(player.main.fired.isEmpty, "the main playhead reached the break's date: nothing of it")
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: Self.adLength)
        #expect(player.main.fired.types(ofAd: "a1") == Fixture.playbackTypes)
        #expect(player.main.fired.types(ofAd: "a2").isEmpty, "the first asset's last tick fires nothing of the second ad")
        try player.asset(1, duration: Self.adLength)
        try player.play(to: Self.adLength)
        try player.end(.completed)
        #expect(player.main.fired.types(ofAd: "a2") == Fixture.playbackTypes)
        let fired = player.main.fired.count
        // The main stream resumes at the date and plays on through the break's window.
        player.main.jump(to: Self.t0 + 5_000)
        player.main.play(to: Self.t0 + 40_000)
        #expect(player.main.fired.count == fired, "main ticks after the interstitial fire nothing")
    }

    @Test func theNextAssetOrACompletedEndPlaysTheAssetToItsEnd() throws {
        var player = Self.player()
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: 11_500)
        #expect(!player.main.fired.types(ofAd: "a1").contains(.complete))
        try player.asset(1, duration: Self.adLength)
        #expect(player.main.fired.types(ofAd: "a1").last == .complete, "followed by the next asset: played to its end")
        try player.play(to: 11_000)
        try player.end(.completed)
        #expect(player.main.fired.types(ofAd: "a2") == Fixture.playbackTypes)
    }

    @Test(arguments: [InterstitialEnd.Reason.skipped, .error])
    func aSkippedOrFailedInterstitialEndsWhereItWas(reason: InterstitialEnd.Reason) throws {
        var player = Self.player()
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: 4_000)
        try player.end(reason)
        #expect(player.main.fired.types(ofAd: "a1") == [.impression, .start, .firstQuartile])
        #expect(player.main.fired.types(ofAd: "a2").isEmpty, "the second ad, never played, fires nothing")
        player.main.jump(to: Self.t0 + 5_000)
        player.main.play(to: Self.t0 + 40_000)
        #expect(player.main.fired.types(ofAd: "a1") == [.impression, .start, .firstQuartile])
    }

    @Test func aSeekAndAPauseInsideAnAssetFollowTheStitchedRules() throws {
        var player = Self.player()
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: 2_000)
        // A seek forward within the asset: its quartiles were not played.
        try player.jump(to: 10_500)
        try player.play(to: 11_000)
        #expect(player.main.fired.types(ofAd: "a1") == [.impression, .start])
        player.main.send(.pause)
        player.clock(advance: 5_000)
        player.main.send(.play)
        try player.play(to: Self.adLength)
        // The pause and the play apply to the ad the interstitial plays.
        #expect(player.main.fired.types(ofAd: "a1") == [.impression, .start, .pause, .resume, .complete])
        #expect(player.main.fired.types(ofAd: "a2").isEmpty)
    }

    @Test func ticksOfAnInterstitialOrAssetNotToldOfAreRefused() throws {
        var player = Self.player()
        #expect(throws: TickRefusal.self) { try player.send(.tick(InterstitialTick(id: "nope", asset: 0, position: 0))) }
        try player.start("i1", at: Self.t0 + 5_000)
        #expect(throws: TickRefusal.self) { try player.send(.tick(InterstitialTick(id: "i1", asset: 0, position: 0))) }
        try player.asset(0, duration: Self.adLength)
        #expect(throws: TickRefusal.self) { try player.send(.tick(InterstitialTick(id: "i1", asset: 1, position: 0))) }
        #expect(throws: TickRefusal.self) { try player.send(.end(InterstitialEnd(id: "other", reason: .completed))) }
    }

    @Test func lateMetadataFiresWhatEachAssetPlayedOnce() throws {
        var player = Self.player(document: nil)
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: Self.adLength)
        try player.asset(1, duration: Self.adLength)
        try player.play(to: 2_500)
        #expect(player.main.fired.isEmpty)
        player.main.apply(Fixture.document([Self.adBreak]))
        #expect(player.main.fired.types(ofAd: "a1") == Fixture.playbackTypes)
        #expect(player.main.fired.types(ofAd: "a2") == [.impression, .start])
        player.main.apply(Fixture.document([Self.adBreak]))
        try player.play(to: Self.adLength)
        try player.end(.completed)
        #expect(player.main.fired.types(ofAd: "a2") == Fixture.playbackTypes, "each event once")
    }

    @Test func anAssetListsTrackingIsPlacedAtTheInterstitialsPlace() throws {
        // A TRACKING section written from 0 on media time: its ad break lands at the interstitial's place.
        let written = Fixture.adBreak(
            id: "avail-1", ads: [Fixture.ad(id: "m1", start: 0, duration: Self.adLength, userEvents: false)])
        let tracking = MetadataDocument(dataRange: DataRange(start: 0, end: Self.adLength), adBreaks: [written])
        var player = Self.player(document: nil)
        player.main.session.firesAssetListTracking = true
        try player.start("i1", at: Self.t0 + 5_000, assetList: AssetList(assets: [AssetList.Asset(uri: "http://127.0.0.1/m1.m3u8", duration: Self.adLength)], tracking: tracking))
        #expect(player.main.session.schedule.adBreak(id: "avail-1")?.startTime == Self.t0 + 5_000)
        try player.asset(0, duration: nil)
        try player.play(to: Self.adLength)
        try player.end(.completed)
        #expect(player.main.fired.types(ofAd: "m1") == Fixture.playbackTypes)
        let status = InterstitialStatus(try #require(player.main.session.interstitials["i1"]), in: player.main.session)
        #expect(status.tracking == .assetList && status.adBreakId == "avail-1" && status.ended == .completed)
    }

    /// Outside MediaTailor's client-side reporting, the service reports the ads itself: a `TRACKING` section fires nothing.
    @Test func anAssetListsTrackingFiresNothingOutsideClientSideReporting() throws {
        let written = Fixture.adBreak(id: "avail-1", ads: [Fixture.ad(id: "m1", start: 0, duration: Self.adLength, userEvents: false)])
        var player = Self.player(document: nil)
        try player.start("i1", at: Self.t0 + 5_000, assetList: AssetList(
            assets: [AssetList.Asset(duration: Self.adLength)], tracking: MetadataDocument(dataRange: DataRange(start: 0, end: Self.adLength), adBreaks: [written])))
        try player.asset(0, duration: nil)
        try player.play(to: Self.adLength)
        #expect(player.main.fired.isEmpty && player.main.session.schedule.adBreaks.isEmpty)
        let status = InterstitialStatus(try #require(player.main.session.interstitials.current), in: player.main.session)
        #expect(status.tracking == .none && status.trackingReason?.contains("client-side reporting") == true)
    }

    @Test func anInterstitialNothingDescribesFiresNothingAndSaysWhy() throws {
        var player = Self.player(document: nil)
        try player.start("i1", at: Self.t0 + 5_000, assetList: AssetList(assets: [AssetList.Asset(duration: Self.adLength)]))
        try player.asset(0, duration: nil)
        try player.play(to: Self.adLength)
        #expect(player.main.fired.isEmpty)
        let status = InterstitialStatus(try #require(player.main.session.interstitials.current), in: player.main.session)
        #expect(status.tracking == .none && status.trackingReason?.contains("no TRACKING section") == true)
    }
}

/// Drives a `ScriptedPlayer`'s session with interstitial lines on the same clock.
struct InterstitialPlayer {
    var main: ScriptedPlayer
    private var id = ""
    private var asset = 0
    private(set) var position: Milliseconds = 0

    init(_ main: ScriptedPlayer) {
        self.main = main
    }

    mutating func send(_ command: InterstitialCommand) throws(TickRefusal) {
        switch main.session.observe(command, arrivalTime: main.clock) {
        case .success(let step): main.fired += step.firings
        case .failure(let refusal): throw refusal
        }
    }

    /// `interstitial-start` at `place`: its date, or with `onMediaTime` its position.
    mutating func start(_ id: String, at place: Milliseconds, onMediaTime: Bool = false, assetList: AssetList? = nil) throws(TickRefusal) {
        self.id = id
        try send(.start(InterstitialStart(id: id, start: onMediaTime ? nil : place, position: onMediaTime ? place : nil, assetList: assetList)))
    }

    mutating func asset(_ index: Int, duration: Milliseconds?) throws(TickRefusal) {
        asset = index
        position = 0
        main.clock += 250
        try send(.asset(InterstitialAssetStart(id: id, index: index, duration: duration)))
    }

    /// Ticks the current asset every 250 ms of position and clock up to `end`.
    mutating func play(to end: Milliseconds) throws(TickRefusal) {
        while position < end {
            position = min(position + 250, end)
            main.clock += 250
            try send(.tick(InterstitialTick(id: id, asset: asset, position: position)))
        }
    }

    mutating func jump(to target: Milliseconds) throws(TickRefusal) {
        position = target
        main.clock += 250
        try send(.tick(InterstitialTick(id: id, asset: asset, position: target)))
    }

    mutating func clock(advance milliseconds: Milliseconds) { main.clock += milliseconds }

    mutating func end(_ reason: InterstitialEnd.Reason) throws(TickRefusal) {
        try send(.end(InterstitialEnd(id: id, reason: reason)))
    }
}

extension InterstitialMatchingTests {
    /// The content position waits at the interstitial's place while it plays, and counts no ad
    /// break afterwards: in interstitial mode no ad is in the stream.
    @Test func theContentPositionExcludesInterstitialTime() throws {
        var session = TrackingSession(retention: 600_000)
        session.enterInterstitialMode()
        let adBreak = Fixture.adBreak(id: "p", ads: [Fixture.ad(id: "a1", start: 30_000, duration: Self.adLength, userEvents: false)])
        _ = session.apply(MetadataDocument(dataRange: DataRange(start: 0, end: 120_000), adBreaks: [adBreak], timeline: .mediaTime))
        var player = InterstitialPlayer(ScriptedPlayer(session: session, at: 0))
        player.main.tickTimeline = .mediaTime
        player.main.tick(0)
        player.main.play(to: 30_000)
        try player.start("i1", at: 30_000, onMediaTime: true)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: 6_000)
        #expect(player.main.session.contentPosition == 30_000, "the main player waits at the interstitial's place")
        try player.play(to: Self.adLength)
        try player.end(.completed)
        player.main.jump(to: 30_000)
        player.main.play(to: 40_000)
        #expect(player.main.session.contentPosition == 40_000, "no ad break is taken out of the main stream")
        #expect(player.main.fired.types(ofAd: "a1") == Fixture.playbackTypes)
    }
}

extension InterstitialMatchingTests {
    /// Ticks carrying the player's clock (`at`): the asset's start, which carries none, stays on
    /// their basis, so the stretch from it to the first position tick is played.
    @Test func anAssetsStartJoinsTicksOnThePlayersClock() throws {
        var player = Self.player()
        let at: Milliseconds = 1_700_000_000_000
        player.main.tick(Self.t0 + 4_750, observedAt: at)
        player.main.tick(Self.t0 + 5_000, observedAt: at + 250)
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.send(.tick(InterstitialTick(id: "i1", asset: 0, position: 1_000, observedAt: at + 1_250)))
        #expect(player.main.fired.types(ofAd: "a1") == [.impression, .start], "played from the asset's start to 1 s")
    }
}

extension InterstitialMatchingTests {
    /// Told again (a restart), an interstitial keeps what it played and takes what its asset list adds.
    @Test func anInterstitialToldAgainKeepsWhatItPlayedAndTakesItsAssetList() throws {
        var player = Self.player()
        try player.start("i1", at: Self.t0 + 5_000)
        try player.asset(0, duration: Self.adLength)
        try player.play(to: Self.adLength)
        try player.start("i1", at: Self.t0 + 5_000, assetList: AssetList(assets: [AssetList.Asset(), AssetList.Asset(duration: Self.adLength)]))
        let event = try #require(player.main.session.interstitials["i1"])
        #expect(event.assets[0].played.ranges == [(Self.t0 + 5_000)...(Self.t0 + 5_000 + Self.adLength)])
        #expect(event.assets[1].listedDuration == Self.adLength && event.current == 0)
        try player.asset(1, duration: nil)
        try player.play(to: Self.adLength)
        try player.end(.completed)
        #expect(player.main.fired.types(ofAd: "a1") == Fixture.playbackTypes && player.main.fired.types(ofAd: "a2") == Fixture.playbackTypes)
    }
}
