import BeaconDomain
import BeaconRuntime
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AWS Elemental MediaTailor's client-side tracking on loopback, for the demo and the tests:
/// session initialization (a JSON POST under `/v1/session/`), a tracking document served in pages
/// chained by `nextToken`, and the beacon sink. Times are seconds from the session's start; each
/// avail and ad also gives its program date time, `programDateTimeStart` plus its media time.
///
/// In SGAI mode (``Behavior/sgai``) session init answers only `manifestUrl` (with `aws.sessionId`),
/// and each avail has an asset list (``assetListURL(availID:sessionID:)``): `ASSETS`, one per ad,
/// and, for a session that asked for client-side reporting, a `TRACKING` section holding the
/// avail as the tracking document lists it.
package final class SimulatedMediaTailorService: Sendable {
    /// One avail as the service lists it: when it starts (media time) and its ads.
    package struct Avail: Sendable, Equatable {
        package var id: String
        package var start: Milliseconds
        package var adCount: Int
        package var adDuration: Milliseconds

        package init(id: String, start: Milliseconds, adCount: Int = 1, adDuration: Milliseconds = 8000) {
            self.id = id
            self.start = start
            self.adCount = adCount
            self.adDuration = adDuration
        }

        package var duration: Milliseconds { Milliseconds(adCount) * adDuration }

        /// The id of the avail's ad at `index`.
        package func adID(_ index: Int) -> String { "\(id)-ad\(index + 1)" }
    }

    /// How the service behaves; tests change it while it runs.
    package struct Behavior: Sendable {
        /// Session-init POSTs answered 500 before one succeeds.
        package var initFailures = 0
        /// Avails per tracking page.
        package var availsPerPage = 1
        /// Tracking and beacon requests answered 503 while set: an outage.
        package var outage = false
        /// Whether avails and ads give `*ProgramDateTime`.
        package var programDateTimes = true
        /// Server-guided ad insertion: init answers no `trackingUrl`, the avails come as asset lists.
        package var sgai = false
        /// Whether the asset lists of a session in client-side reporting carry `TRACKING`; off, they
        /// are as in server-side reporting, without it.
        package var assetListTracking = true

        package init() {}
    }

    package let server: HTTPServer
    /// The program date time of media time 0.
    package let programDateTimeStart: Milliseconds
    private let state: Mutex<State>

    /// A session-init request as received: what it asked for.
    package struct InitRequest: Sendable, Equatable {
        /// The query (`""` without one).
        package var query: String
        package var body: String

        /// Client-side reporting, as the SGAI page writes it: `aws.reportingMode=CLIENT` in the query.
        package var queryAsksClientReporting: Bool {
            query.split(separator: "&").contains { $0.lowercased() == "aws.reportingmode=client" }
        }

        /// Client-side reporting, as the explicit init's body writes it: `"reportingMode": "client"`.
        package var bodyAsksClientReporting: Bool { fields?.reportingMode?.lowercased() == "client" }

        /// The body's `insertionMode` (`GUIDED`, `STITCHED`), if any.
        package var insertionMode: String? { fields?.insertionMode }

        private struct Fields: Decodable {
            var reportingMode: String?
            var insertionMode: String?
        }

        private var fields: Fields? { try? JSONDecoder().decode(Fields.self, from: Data(body.utf8)) }
    }

    private struct State {
        var avails: [Avail]
        var behavior: Behavior
        var initBodies: [String] = []
        var initRequests: [InitRequest] = []
        /// SGAI sessions by id: whether each is in client-side reporting.
        var sgaiSessions: [String: Bool] = [:]
        var assetListRequests: [String] = []
        var trackingQueries: [String] = []
        var beacons: [SimulatedAdService.ReceivedBeacon] = []
    }

    /// The session-initialization URL: POST it with `{"reportingMode": "client"}`.
    package var sessionInitURL: String { server.baseURL + "/v1/session/sim-account/sim-config/index.m3u8" }

    /// Starts the service with `avails`; media time 0 is `programDateTimeStart` on program date time.
    package static func start(
        avails: [Avail], programDateTimeStart: Milliseconds = WallClock.now(), behavior: Behavior = Behavior()
    ) async throws -> SimulatedMediaTailorService {
        let box = ServiceBox<SimulatedMediaTailorService>()
        let server = try await HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            box.service?.respond(to: request) ?? .status(503)
        }
        let service = SimulatedMediaTailorService(
            server: server, programDateTimeStart: programDateTimeStart, state: State(avails: avails, behavior: behavior))
        box.service = service
        return service
    }

    private init(server: HTTPServer, programDateTimeStart: Milliseconds, state: State) {
        self.server = server
        self.programDateTimeStart = programDateTimeStart
        self.state = Mutex(state)
    }

    package func stop() async {
        await server.stop()
    }

    /// Changes how the service behaves from the next request on.
    package func change(_ update: @Sendable (inout Behavior) -> Void) { state.withLock { update(&$0.behavior) } }

    /// Adds an avail, listed on the pages after those served.
    package func add(_ avail: Avail) { state.withLock { $0.avails.append(avail) } }

    /// The bodies of the session-init POSTs, in arrival order.
    package func initBodies() -> [String] { state.withLock { $0.initBodies } }

    /// The session-init POSTs (query and body), in arrival order.
    package func initRequests() -> [InitRequest] { state.withLock { $0.initRequests } }

    /// The asset-list GETs (path and query), in arrival order.
    package func assetListRequests() -> [String] { state.withLock { $0.assetListRequests } }

    /// The asset-list URL of the avail `availID` for the SGAI session `sessionID`: what the
    /// interstitial's `X-ASSET-LIST` names.
    package func assetListURL(availID: String, sessionID: String) -> String {
        server.baseURL + Self.assetListPath + availID + "?aws.sessionId=" + sessionID
    }

    /// The queries of the tracking GETs (`""` without one), in arrival order.
    package func trackingQueries() -> [String] { state.withLock { $0.trackingQueries } }

    /// The beacons received so far, in arrival order.
    package func receivedBeacons() -> [SimulatedAdService.ReceivedBeacon] { state.withLock { $0.beacons } }

    /// How many beacons reached the sink for `event` of the ad (or avail, for break events) `owner`.
    package func count(_ owner: String, _ event: TrackingEventType) -> Int {
        receivedBeacons().filter { $0.path == "/beacon/\(owner)/\(event.rawValue)" }.count
    }

    static let trackingPath = "/v1/tracking/sim-account/sim-config/"
    static let assetListPath = "/v1/asset-list/sim-account/sim-config/"

    private func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        state.withLock { state in
            switch (request.method, request.path) {
            case ("POST", "/v1/session/sim-account/sim-config/index.m3u8"):
                let received = InitRequest(query: request.query ?? "", body: String(decoding: request.body, as: UTF8.self))
                state.initBodies.append(received.body)
                state.initRequests.append(received)
                guard state.initBodies.count > state.behavior.initFailures else { return .status(500) }
                let session = "sim-\(state.initBodies.count)"
                if state.behavior.sgai {
                    // MediaTailor's SGAI answer: no trackingUrl, the session id in the manifest URL.
                    state.sgaiSessions[session] = received.queryAsksClientReporting || received.bodyAsksClientReporting
                    return .json(#"{"manifestUrl": "../../../master/sim-account/sim-config/index.m3u8?aws.sessionId=\#(session)"}"#)
                }
                return .json(
                    #"{"manifestUrl": "../../../master/sim-account/sim-config/index.m3u8?aws.sessionId=\#(session)", "trackingUrl": "../../../tracking/sim-account/sim-config/\#(session)"}"#)
            case ("GET", let path) where path.hasPrefix(Self.trackingPath):
                state.trackingQueries.append(request.query ?? "")
                guard !state.behavior.outage else { return .status(503) }
                return .json(page(request.query, state))
            case ("GET", let path) where path.hasPrefix(Self.assetListPath):
                state.assetListRequests.append(request.uri)
                guard !state.behavior.outage else { return .status(503) }
                let session = request.query?.split(separator: "&").first { $0.hasPrefix("aws.sessionId=") }?.dropFirst("aws.sessionId=".count)
                guard let clientReporting = session.flatMap({ state.sgaiSessions[String($0)] }),
                    let avail = state.avails.first(where: { $0.id == path.dropFirst(Self.assetListPath.count) })
                else { return .status(404) }
                return .json(assetList(avail, tracking: clientReporting && state.behavior.assetListTracking, state))
            case ("GET", let path) where path.hasPrefix("/beacon/"):
                guard !state.behavior.outage else { return .status(503) }
                state.beacons.append(.init(path: path, query: request.query ?? "", receivedAt: WallClock.now()))
                return .status(204)
            default:
                return .status(404)
            }
        }
    }

    /// The page a token asks for: `page-N` lists the avails of page N and points at page N+1; a page
    /// past the last lists none and points at itself, as MediaTailor's does when nothing is new.
    private func page(_ query: String?, _ state: State) -> String {
        let token = query?.split(separator: "&").first { $0.hasPrefix("nextToken=") }?.dropFirst("nextToken=".count)
        let number = token.flatMap { Int($0.dropFirst("page-".count)) } ?? 0
        let size = max(1, state.behavior.availsPerPage)
        let listed = Array(state.avails.dropFirst(number * size).prefix(size))
        let next = listed.isEmpty ? number : number + 1
        let document = Wire.Document(
            avails: listed.map { wire($0, programDateTimes: state.behavior.programDateTimes) }, nextToken: "page-\(next)")
        return String(decoding: (try? JSONEncoder().encode(document)) ?? Data(), as: UTF8.self)
    }

    /// An avail's asset list: each ad's stream and duration, and with `tracking` the avail in the
    /// tracking document's schema, on the session's media time as the tracking API writes it.
    private func assetList(_ avail: Avail, tracking: Bool, _ state: State) -> String {
        let assets = (0..<avail.adCount).map { Wire.Asset(uri: server.baseURL + "/ads/\(avail.adID($0))/index.m3u8", duration: Wire.seconds(avail.adDuration)) }
        let list = Wire.AssetList(
            assets: assets, tracking: tracking ? Wire.Document(avails: [wire(avail, programDateTimes: state.behavior.programDateTimes)]) : nil)
        return String(decoding: (try? JSONEncoder().encode(list)) ?? Data(), as: UTF8.self)
    }

    private func wire(_ avail: Avail, programDateTimes: Bool) -> Wire.Avail {
        let base = server.baseURL + "/beacon/"
        func date(_ media: Milliseconds) -> String? { programDateTimes ? UTCTime.format(programDateTimeStart + media) : nil }
        let ads = (0..<avail.adCount).map { index in
            let id = avail.adID(index)
            let ad = StandardAd.make(id: id, start: avail.start + Milliseconds(index) * avail.adDuration, duration: avail.adDuration, userTypes: [.pause, .resume, .mute, .unmute]) { type in
                [base + "\(id)/\(type.rawValue)"]
            }
            return Wire.Ad(
                adID: id, creativeID: "creative-\(id)", startTimeInSeconds: Wire.seconds(ad.startTime), durationInSeconds: Wire.seconds(ad.duration),
                adProgramDateTime: date(ad.startTime),
                trackingEvents: ad.trackingEvents.map { event in
                    Wire.Event(
                        eventID: "\(id)-\(event.event.rawValue)", eventType: event.event.rawValue, beaconURLs: event.signalingURLs,
                        startTimeInSeconds: Wire.seconds(event.startTime), durationInSeconds: Wire.seconds(event.duration), eventProgramDateTime: date(event.startTime))
                })
        }
        return Wire.Avail(
            availID: avail.id, startTimeInSeconds: Wire.seconds(avail.start), durationInSeconds: Wire.seconds(avail.duration),
            availProgramDateTime: date(avail.start),
            adBreakTrackingEvents: [TrackingEventType.breakStart, .breakEnd].map { Wire.BreakEvent(eventType: $0.rawValue, beaconURLs: [base + "\(avail.id)/\($0.rawValue)"]) },
            ads: ads)
    }

    /// The tracking document's shape, as MediaTailor writes it (the fields the daemon reads, and a few it does not).
    private enum Wire {
        static func seconds(_ milliseconds: Milliseconds) -> Double { Double(milliseconds) / 1000 }

        struct Document: Encodable {
            var avails: [Avail]
            var nonLinearAvails: [Avail] = []
            /// None in an asset list's `TRACKING`.
            var nextToken: String?
        }
        /// An HLS interstitial's asset list, with MediaTailor's `TRACKING` section when it has one.
        struct AssetList: Encodable {
            var assets: [Asset]
            var tracking: Document?

            // The wire names, as the HLS specification and MediaTailor spell them.
            enum CodingKeys: String, CodingKey { case assets = "ASSETS", tracking = "TRACKING" }
        }
        struct Asset: Encodable {
            var uri: String
            var duration: Double

            // The wire names, as the HLS specification spells them.
            enum CodingKeys: String, CodingKey { case uri = "URI", duration = "DURATION" }
        }
        struct Avail: Encodable {
            var availID: String
            var startTimeInSeconds: Double
            var durationInSeconds: Double
            var availProgramDateTime: String?
            var adBreakTrackingEvents: [BreakEvent]
            var ads: [Ad]

            // The wire names, as documents and earlier releases spell them.
            enum CodingKeys: String, CodingKey { case availID = "availId", startTimeInSeconds, durationInSeconds, availProgramDateTime, adBreakTrackingEvents, ads }
        }
        struct BreakEvent: Encodable {
            var eventType: String
            var beaconURLs: [String]

            // The wire names, as documents and earlier releases spell them.
            enum CodingKeys: String, CodingKey { case eventType, beaconURLs = "beaconUrls" }
        }
        struct Ad: Encodable {
            var adID: String
            var creativeID: String
            var startTimeInSeconds: Double
            var durationInSeconds: Double
            var adProgramDateTime: String?
            var skipOffset: String? = nil
            var trackingEvents: [Event]

            // The wire names, as documents and earlier releases spell them.
            enum CodingKeys: String, CodingKey { case adID = "adId", creativeID = "creativeId", startTimeInSeconds, durationInSeconds, adProgramDateTime, skipOffset, trackingEvents }
        }
        struct Event: Encodable {
            var eventID: String
            var eventType: String
            var beaconURLs: [String]
            var startTimeInSeconds: Double
            var durationInSeconds: Double
            var eventProgramDateTime: String?

            // The wire names, as documents and earlier releases spell them.
            enum CodingKeys: String, CodingKey { case eventID = "eventId", eventType, beaconURLs = "beaconUrls", startTimeInSeconds, durationInSeconds, eventProgramDateTime }
        }
    }
}
