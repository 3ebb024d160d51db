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
public final class SimulatedAdService: Sendable {
    /// The ad break it announces.
    public let pod: Pod
    public let server: HTTPServer
    private let beacons: BeaconLog

    /// Where the simulated stream lives: POST it to start a session.
    public var mediaURL: String { server.baseURL + "/live/master.m3u8" }

    /// The beacons received so far, in arrival order.
    public func receivedBeacons() -> [ReceivedBeacon] { beacons.all }

    /// Starts the service with an ad break of `adCount` ads of `adDuration` each, starting `lead` after `now()`.
    public static func start(
        lead: Milliseconds = 6000, adCount: Int = 2, adDuration: Milliseconds = 8000,
        now: @escaping @Sendable () -> Milliseconds = WallClock.now
    ) async throws -> SimulatedAdService {
        let log = BeaconLog()
        let box = PodBox()
        let server = try await HTTPServer.start(host: "127.0.0.1", port: 0) { request in
            await Self.respond(to: request, pod: box.pod, log: log, now: now)
        }
        let pod = Self.makePod(start: now() + lead, adCount: adCount, adDuration: adDuration, beaconBase: server.baseURL)
        box.pod = pod
        return SimulatedAdService(pod: pod, server: server, beacons: log)
    }

    private init(pod: Pod, server: HTTPServer, beacons: BeaconLog) {
        self.pod = pod
        self.server = server
        self.beacons = beacons
    }

    public func stop() async {
        await server.stop()
    }

    /// One request that reached the beacon sink.
    public struct ReceivedBeacon: Sendable, Equatable {
        public var path: String
        public var query: String
        public var receivedAt: Milliseconds
    }

    private static func respond(
        to request: HTTPServer.Request, pod: Pod?, log: BeaconLog, now: @Sendable () -> Milliseconds
    ) async -> HTTPServer.Response {
        switch (request.method, request.path) {
        case ("POST", "/live/master.m3u8"):
            let session = String(UInt64.random(in: 1...UInt64.max), radix: 16)
            return .json(#"{"manifestUrl": "master.m3u8?sessid=\#(session)", "trackingUrl": "metadata?sessid=\#(session)"}"#)
        case ("GET", "/live/metadata"):
            guard let pod else { return .status(503) }
            let document = MetadataDocument(dataRange: DataRange(start: now() - 60_000, end: now()), pods: [pod])
            return .json(document.encodedJSON())
        case ("GET", let path) where path.hasPrefix("/beacon/"):
            log.append(ReceivedBeacon(path: path, query: request.query ?? "", receivedAt: now()))
            return .status(204)
        default:
            return .status(404)
        }
    }

    private static func makePod(start: Milliseconds, adCount: Int, adDuration: Milliseconds, beaconBase: String) -> Pod {
        let ads = (0..<adCount).map { index in
            let adID = "demo-ad-\(index + 1)"
            return StandardAd.make(
                id: adID, start: start + Milliseconds(index) * adDuration, duration: adDuration,
                userTypes: [.pause, .resume, .mute, .unmute, .clickTracking, .playerExpand]
            ) { type in ["\(beaconBase)/beacon/\(adID)/\(type.rawValue)"] }
        }
        return Pod(id: "demo-break-1", startTime: start, duration: Milliseconds(adCount) * adDuration, ads: ads)
    }
}

/// The pod, set right after the server is up: its beacon URLs need the server's port.
private final class PodBox: Sendable {
    private let storage = Mutex<Pod?>(nil)
    var pod: Pod? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

private final class BeaconLog: Sendable {
    private let storage = Mutex<[SimulatedAdService.ReceivedBeacon]>([])
    func append(_ beacon: SimulatedAdService.ReceivedBeacon) { storage.withLock { $0.append(beacon) } }
    var all: [SimulatedAdService.ReceivedBeacon] { storage.withLock { $0 } }
}
