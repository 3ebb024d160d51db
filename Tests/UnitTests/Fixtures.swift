import BeaconSimulator
import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Small builders shared by the test files: ads with the standard events, documents, a scripted player.
enum Fixture {
    /// 2023-01-31T03:25:34.076Z, the start of the captured sample's ad break.
    static let t0: Milliseconds = 1_675_135_534_076
    /// A 30 s ad, like the captured sample's.
    static let adDuration: Milliseconds = 30_000

    /// The playback-triggered events every test ad carries, in the order they fire.
    static let playbackTypes = StandardAd.playbackTypes
    /// Every user-action type.
    static let userTypes = StandardAd.userTypes

    static func url(ad: String, _ type: TrackingEventType) -> String {
        "http://127.0.0.1:4647/beacon?ad=\(ad)&cn=\(type.rawValue)"
    }

    /// A standard ad (every user event at its start, unless `userEvents` is false) with `extra` events appended.
    static func ad(
        id: String, start: Milliseconds, duration: Milliseconds = adDuration,
        userEvents: Bool = true, extra: [TrackingEvent] = []
    ) -> Ad {
        var ad = StandardAd.make(id: id, start: start, duration: duration, userTypes: userEvents ? userTypes : []) { [url(ad: id, $0)] }
        ad.trackingEvents += extra
        return ad
    }

    /// An ad break holding `ads`, lasting as long as they do.
    static func adBreak(id: String, ads: [Ad]) -> AdBreak {
        let start = ads.map(\.startTime).min() ?? 0
        let end = ads.map { $0.startTime + $0.duration }.max() ?? start
        return AdBreak(id: id, startTime: start, duration: end - start, ads: ads)
    }

    /// An ad break with one standard ad of the same id.
    static func adBreak(id: String, start: Milliseconds, duration: Milliseconds = adDuration, userEvents: Bool = true) -> AdBreak {
        adBreak(id: id, ads: [ad(id: id, start: start, duration: duration, userEvents: userEvents)])
    }

    static func document(_ adBreaks: [AdBreak], rangeEnd: Milliseconds? = nil) -> MetadataDocument {
        let start = adBreaks.map(\.startTime).min() ?? t0
        let end = rangeEnd ?? (adBreaks.map { $0.startTime + $0.duration }.max() ?? t0)
        return MetadataDocument(dataRange: DataRange(start: start - 600_000, end: end), adBreaks: adBreaks)
    }

    /// The package's root directory, found from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/fixtures` beside the package, nil when it is absent: CI has it, a plain clone
    /// may not, and a test that needs it is then skipped, saying why.
    static let sharedFixtures = sharedFixtures(besidePackageAt: packageRoot)

    /// `shared/fixtures` in the directory holding the package at `root`, if it is there.
    static func sharedFixtures(besidePackageAt root: URL) -> URL? {
        let directory = root.appendingPathComponent("../shared/fixtures").standardized
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue ? directory : nil
    }

    /// Why a test that needs ``sharedFixtures`` was skipped.
    static let sharedFixturesMissing: Comment = "skipped: ../shared/fixtures is absent (a clone without the shared fixtures)"

    /// The captured sample metadata response in ``sharedFixtures``.
    static func sampleMetadata() throws -> [UInt8] {
        try sharedFile("harmonic-sample-metadata.json")
    }

    /// Every published Harmonic document of ``sharedFixtures`` (`realworld/harmonic/*.json`), by file name.
    static func harmonicDocuments() throws -> [(name: String, body: [UInt8])] {
        try realWorldDocuments(in: "realworld/harmonic")
    }

    /// Every MediaTailor tracking document of ``sharedFixtures`` (`realworld/mediatailor/*.json`), by file name.
    static func mediaTailorDocuments() throws -> [(name: String, body: [UInt8])] {
        try realWorldDocuments(in: "realworld/mediatailor")
    }

    private static func realWorldDocuments(in directory: String) throws -> [(name: String, body: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: try sharedURL(directory).path)
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { ($0, try sharedFile("\(directory)/\($0)")) }
    }

    private static func sharedFile(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: try sharedURL(path)))
    }

    private static func sharedURL(_ path: String) throws -> URL {
        guard let sharedFixtures else { throw CocoaError(.fileNoSuchFile) }
        return sharedFixtures.appendingPathComponent(path)
    }

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }
}

/// A player driving a `TrackingSession` on a synthetic clock: each tick arrives `step` after the last.
struct ScriptedPlayer {
    var session: TrackingSession
    /// The arrival time of the last tick.
    var clock: Milliseconds = 1_700_000_000_000
    var playhead: Milliseconds
    /// Everything fired so far, in order.
    var fired: [Firing] = []
    /// The form the player ticks in: `playhead` (program date time) or `position` (media time).
    var tickTimeline = Timeline.programDateTime

    init(session: TrackingSession, at playhead: Milliseconds) {
        self.session = session
        self.playhead = playhead
    }

    init(_ document: MetadataDocument, at playhead: Milliseconds, retention: Milliseconds = 600_000) {
        var session = TrackingSession(retention: retention)
        _ = session.apply(document)
        self.init(session: session, at: playhead)
    }

    /// One tick at `playhead`, arriving `after` ms after the previous one.
    @discardableResult
    mutating func tick(_ playhead: Milliseconds, after: Milliseconds = 250, observedAt: Milliseconds? = nil, rate: Double? = nil) -> [Firing] {
        clock += after
        self.playhead = playhead
        let firings = session.observe(
            PlayheadTick(playhead: playhead, observedAt: observedAt, rate: rate, timeline: tickTimeline), arrivalTime: clock)
        fired += firings
        return firings
    }

    /// Ticks every `step` ms of both program and arrival time from the current playhead up to `end` (inclusive).
    @discardableResult
    mutating func play(to end: Milliseconds, step: Milliseconds = 250, rate: Double? = nil) -> [Firing] {
        var firings: [Firing] = []
        while playhead < end {
            firings += tick(min(playhead + step, end), after: step, rate: rate)
        }
        return firings
    }

    /// A seek: the playhead lands at `target` on the next tick.
    @discardableResult
    mutating func jump(to target: Milliseconds) -> [Firing] {
        tick(target)
    }

    @discardableResult
    mutating func send(_ event: PlayerEvent) -> [Firing] {
        let firings = session.observe(event)
        fired += firings
        return firings
    }

    @discardableResult
    mutating func send(_ action: UserAction) -> [Firing] {
        let firings = session.observe(action)
        fired += firings
        return firings
    }

    @discardableResult
    mutating func apply(_ document: MetadataDocument) -> [Firing] {
        let firings = session.apply(document)
        fired += firings
        return firings
    }
}

extension Array where Element == Firing {
    var types: [TrackingEventType] { map(\.event) }

    func types(ofAd adID: String) -> [TrackingEventType] { filter { $0.adID == adID }.map(\.event) }
}

extension TrackingSession {
    /// The reporting state of the first event of `type` in ad `adID` of ad break `adBreakID`.
    func state(of type: TrackingEventType, adBreak adBreakID: String, ad adID: String? = nil) -> ReportingState? {
        schedule.adBreak(id: adBreakID)?.ads.first { $0.id == (adID ?? adBreakID) }?.trackingEvents.first { $0.event == type }?.reportingState
    }
}
