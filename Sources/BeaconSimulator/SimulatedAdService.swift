import BeaconDomain
import BeaconRuntime
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An ad-insertion service on loopback, for the demo and the tests: it starts sessions, serves live
/// ad-tracking metadata with one ad break a few seconds ahead, and is the beacon sink.
package final class SimulatedAdService: Sendable {
    /// The ad break it announces.
    package let adBreak: AdBreak
    package let server: HTTPServer
    private let beacons: BeaconLog

    /// Where the simulated stream lives: POST it to start a session.
    package var mediaURL: String { server.baseURL + "/live/master.m3u8" }

    /// The beacons received so far, in arrival order.
    package func receivedBeacons() -> [ReceivedBeacon] { beacons.all }

    /// Starts the service with an ad break of `adCount` ads of `adDuration` each, starting `lead` after `now()`.
    package static func start(
        lead: Milliseconds = 6000, adCount: Int = 2, adDuration: Milliseconds = 8000,
        now: @escaping @Sendable () -> Milliseconds = WallClock.now
    ) async throws -> SimulatedAdService {
        let log = BeaconLog()
        let box = PodBox()
        let server = try await HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            await Self.respond(to: request, adBreak: box.adBreak, log: log, now: now)
        }
        let adBreak = Self.makeAdBreak(start: now() + lead, adCount: adCount, adDuration: adDuration, beaconBase: server.baseURL)
        box.adBreak = adBreak
        return SimulatedAdService(adBreak: adBreak, server: server, beacons: log)
    }

    private init(adBreak: AdBreak, server: HTTPServer, beacons: BeaconLog) {
        self.adBreak = adBreak
        self.server = server
        self.beacons = beacons
    }

    package func stop() async {
        await server.stop()
    }

    /// One request that reached the beacon sink.
    package struct ReceivedBeacon: Sendable, Equatable {
        package var path: String
        package var query: String
        package var receivedAt: Milliseconds
    }

    private static func respond(
        to request: HTTPServer.Request, adBreak: AdBreak?, log: BeaconLog, now: @Sendable () -> Milliseconds
    ) async -> HTTPServer.Response {
        switch (request.method, request.path) {
        case ("POST", "/live/master.m3u8"):
            let session = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            return .json(#"{"manifestUrl": "master.m3u8?sessid=\#(session)", "trackingUrl": "metadata?sessid=\#(session)"}"#)
        case ("GET", "/live/metadata"):
            guard let adBreak else { return .status(503) }
            let document = MetadataDocument(dataRange: DataRange(start: now() - 60_000, end: now()), adBreaks: [adBreak])
            return .json(document.encodedJSON())
        case ("GET", let path) where path.hasPrefix("/beacon/"):
            log.append(ReceivedBeacon(path: path, query: request.query ?? "", receivedAt: now()))
            return .status(204)
        default:
            return .status(404)
        }
    }

    private static func makeAdBreak(start: Milliseconds, adCount: Int, adDuration: Milliseconds, beaconBase: String) -> AdBreak {
        let ads = (0..<adCount).map { index in
            let adID = "demo-ad-\(index + 1)"
            return StandardAd.make(
                id: adID, start: start + Milliseconds(index) * adDuration, duration: adDuration,
                userTypes: [.pause, .resume, .mute, .unmute, .clickTracking, .playerExpand]
            ) { type in ["\(beaconBase)/beacon/\(adID)/\(type.rawValue)"] }
        }
        return AdBreak(id: "demo-break-1", startTime: start, duration: Milliseconds(adCount) * adDuration, ads: ads)
    }
}

/// The ad break, set right after the server is up: its beacon URLs need the server's port.
private final class PodBox: Sendable {
    private let storage = Mutex<AdBreak?>(nil)
    var adBreak: AdBreak? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

private final class BeaconLog: Sendable {
    private let storage = Mutex<[SimulatedAdService.ReceivedBeacon]>([])
    func append(_ beacon: SimulatedAdService.ReceivedBeacon) { storage.withLock { $0.append(beacon) } }
    var all: [SimulatedAdService.ReceivedBeacon] { storage.withLock { $0 } }
}
