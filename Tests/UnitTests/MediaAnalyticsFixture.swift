import Testing
@testable import BeaconDomain

/// Builders shared by the media-analytics suites: settings, a VOD playback, notifications.
enum MediaFixture {
    static let wall0: Milliseconds = 1_700_000_000_000

    static var settings: MediaAnalyticsSettings {
        var settings = MediaAnalyticsSettings()
        settings.endpoint = "http://collector.test/"
        settings.trackingServer = "metrics.example.com"
        settings.reportSuite = "suite-1"
        settings.orgID = "ORG@AdobeOrg"
        settings.channel = "tv"
        return settings
    }

    static func reporting(_ settings: MediaAnalyticsSettings = settings) -> MediaCollectionParameters.Reporting {
        MediaCollectionParameters.Reporting(settings: settings, version: "9.9.9", installationID: "install-1")
    }

    static let vod = ContentInformation(
        id: "episode-7", name: "The Pilot", length: 1800, streamType: .vod,
        standardMetadata: ["show": "Show", "season": "2"], customMetadata: ["tier": "gold"])

    static func load(_ content: ContentInformation? = vod, url: String = "https://cdn.test/master.m3u8?token=secret") -> DaemonNotification {
        .playbackLoaded(mediaURL: url, options: LoadOptions(content: content))
    }

    /// The daemon's session of the playback, ready: session `s`.
    static let ready = DaemonNotification.sessionReady(
        SessionEndpoints(mediaURL: "https://cdn.test/master.m3u8", manifestURL: "https://cdn.test/s.m3u8", trackingURL: "https://cdn.test/t", sessionID: "s"))

    static func tick(position seconds: Double, rate: Double? = nil, placement: AdPlacement? = nil) -> DaemonNotification {
        let milliseconds = Milliseconds(seconds * 1000)
        return .playheadObserved(
            PlayheadObservation(
                tick: PlayheadTick(playhead: milliseconds, rate: rate, timeline: .mediaTime), contentPosition: milliseconds,
                placement: placement))
    }

    static let adBreak = AdBreakSummary(id: "break-1", index: 1, startTime: 60_000, duration: 30_000, contentOffset: 60)
    static let ad = AdSummary(
        id: "ad-1", adBreakID: "break-1", position: 1, startTime: 60_000, duration: 15_000, title: "Soda", creativeID: "cr-1",
        adSystem: "GDFP")
}

/// A tracker driven in virtual time: each input is stamped with `now` and `wallNow`, which advance together.
struct TrackerDriver {
    var tracker: MediaAnalyticsTracker
    var now: Milliseconds = 1_000_000
    var wallNow: Milliseconds = MediaFixture.wall0
    var emitted: [MediaCollectionEmission] = []
    var warnings: [String] = []
    var notifications: [PlayerNotification] = []

    init(_ settings: MediaAnalyticsSettings = MediaFixture.settings) {
        tracker = MediaAnalyticsTracker(reporting: MediaFixture.reporting(settings))
    }

    var types: [MediaCollectionEventType] { emitted.map(\.event.type) }

    mutating func advance(_ milliseconds: Milliseconds) {
        now += milliseconds
        wallNow += milliseconds
    }

    mutating func send(_ notification: DaemonNotification) {
        take(tracker.receive(notification, now: now, wallNow: wallNow))
    }

    /// Advances in steps of `step`, making the pings due on the way.
    mutating func run(for duration: Milliseconds, step: Milliseconds = 100) {
        var left = duration
        while left > 0 {
            advance(min(step, left))
            left -= step
            take(tracker.pingDue(now: now, wallNow: wallNow))
        }
    }

    mutating func take(_ output: MediaAnalyticsTracker.Output) {
        emitted += output.emissions
        warnings += output.warnings
        notifications += output.notifications
    }

    mutating func clear() {
        emitted = []
        warnings = []
    }
}
