import BeaconCore
import BeaconSimulator
import Foundation
import Testing

/// Session init at the ad-insertion service, each fallback with the real binary and `--media-url`.
@Suite struct SessionInitTests {
    typealias Response = HTTPServer.Response

    static let masterPath = "/live/master.m3u8"

    static func playlist(variant: String) -> Response {
        .text("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=1280000,RESOLUTION=640x360\n\(variant)\n#EXT-X-STREAM-INF:BANDWIDTH=2560000\nother/index.m3u8\n")
    }

    /// Refuses the POST and the `initSession=true` GET; answers the plain GET of the master playlist
    /// with `plainGet`, and anything else with `other`.
    static func initRefused(
        plainGet: Response, other: @escaping @Sendable (AdService.Request) -> Response? = { _ in nil }
    ) -> AdService.Route {
        { request in
            switch (request.method, request.path, request.query) {
            case ("POST", masterPath, _): return .status(405)
            case ("GET", masterPath, "initSession=true"?): return .status(404)
            case ("GET", masterPath, nil): return plainGet
            default: return other(request)
            }
        }
    }

    /// Starts a service answering with `route` and a daemon for `mediaPath` on it; `body` gets the service and daemon.
    func withInit(
        mediaPath: String = masterPath,
        route: @escaping AdService.Route,
        _ body: (AdService, DaemonProcess) async throws -> Void
    ) async throws {
        try await withAdService(route: route) { service in
            service.serve(Ads.document([]))
            try await withDaemon(["--media-url", service.baseURL + mediaPath]) { daemon in
                try await body(service, daemon)
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    /// Reads the session line and checks it names `manifest`, `tracking` and `sessionId`, then that
    /// the metadata is polled at `trackingPath` and status shows the session.
    func expectSession(
        _ daemon: DaemonProcess, _ service: AdService, manifest: String, tracking: String, sessionId: String,
        trackingPath: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let line = try await daemon.sessionLine()
        let announced = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        #expect(announced == ["manifestUrl": manifest, "trackingUrl": tracking, "sessionId": sessionId], sourceLocation: sourceLocation)
        try await eventually("a metadata GET on \(trackingPath)") {
            service.metadataRequests.contains { $0.path == trackingPath && ($0.query ?? "").contains("sessid=\(sessionId)") }
        }
        let report = try await daemon.waitForStatus("the first metadata") { $0.dataRange != nil }
        #expect(report.session?.manifestUrl == manifest, sourceLocation: sourceLocation)
        #expect(report.session?.trackingUrl == tracking, sourceLocation: sourceLocation)
        #expect(report.session?.sessionId == sessionId, sourceLocation: sourceLocation)
        #expect(report.counters.metadataErrors == 0, "\(report.lastError ?? "")", sourceLocation: sourceLocation)
    }

    @Test func postReturnsRelativeURLs() async throws {
        try await withInit(route: { request in
            guard request.path == Self.masterPath, request.method == "POST" else { return nil }
            return .json(#"{"manifestUrl": "/live/sess/p1/master.m3u8?sessid=p1", "trackingUrl": "/live/sess/p1/metadata?sessid=p1"}"#)
        }) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/sess/p1/master.m3u8?sessid=p1",
                tracking: "\(service.baseURL)/live/sess/p1/metadata?sessid=p1", sessionId: "p1", trackingPath: "/live/sess/p1/metadata")
            #expect(service.received.filter { $0.path == Self.masterPath }.map(\.method) == ["POST"])
        }
    }

    @Test func getWithInitSessionAfterPostIsRefused() async throws {
        try await withInit(route: { request in
            guard request.path == Self.masterPath else { return nil }
            if request.method == "POST" { return .status(405) }
            guard request.query == "initSession=true" else { return .status(404) }
            return .json(#"{"manifestUrl": "sess/g1/master.m3u8?sessid=g1", "trackingUrl": "sess/g1/metadata?sessid=g1"}"#)
        }) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/sess/g1/master.m3u8?sessid=g1",
                tracking: "\(service.baseURL)/live/sess/g1/metadata?sessid=g1", sessionId: "g1", trackingPath: "/live/sess/g1/metadata")
            #expect(service.received.filter { $0.path == Self.masterPath }.map(\.method) == ["POST", "GET"])
        }
    }

    @Test func plainGetThatRedirects() async throws {
        let route = Self.initRefused(plainGet: .redirect(to: "/live/sess/abc/master.m3u8?sessid=abc")) { request in
            request.path == "/live/sess/abc/master.m3u8" ? Self.playlist(variant: "index_1.m3u8") : nil
        }
        try await withInit(route: route) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/sess/abc/master.m3u8?sessid=abc",
                tracking: "\(service.baseURL)/live/sess/abc/metadata?sessid=abc", sessionId: "abc", trackingPath: "/live/sess/abc/metadata")
        }
    }

    @Test func plainGetOfAMasterPlaylist() async throws {
        try await withInit(route: Self.initRefused(plainGet: Self.playlist(variant: "variant/index.m3u8?sessid=xyz"))) {
            service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/variant/index.m3u8?sessid=xyz",
                tracking: "\(service.baseURL)/live/variant/metadata?sessid=xyz", sessionId: "xyz", trackingPath: "/live/variant/metadata")
        }
    }

    @Test func noSessidAnywhereIsAnError() async throws {
        try await withInit(route: Self.noSessidRoute) { service, daemon in
            let report = try await daemon.waitForStatus("the error state") { $0.state == "error" }
            #expect(report.session == nil)
            #expect(report.lastError?.contains("sessid") == true, "\(report.lastError ?? "nil")")
            #expect(daemon.stdoutLines.isEmpty)
            #expect(daemon.stderrLines.contains { $0.contains("session init failed") && $0.contains("sessid") })
            #expect(service.metadataRequests.isEmpty)
            // Still alive and answering.
            #expect(try await daemon.status().state == "error")
            #expect(daemon.child.exitStatus == nil)
        }
    }

    @Test func aMediaURLWithSessidNeedsNoInit() async throws {
        try await withInit(mediaPath: "/live/master.m3u8?sessid=given", route: { _ in nil }) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/master.m3u8?sessid=given",
                tracking: "\(service.baseURL)/live/metadata?sessid=given", sessionId: "given", trackingPath: "/live/metadata")
            #expect(!service.received.contains { $0.method == "POST" })
            #expect(!service.received.contains { $0.path == Self.masterPath })
        }
    }

    static let noSessidRoute = initRefused(plainGet: playlist(variant: "variant/index.m3u8"))

    @Test func aFailedLoadRepliesWithItsReason() async throws {
        try await withAdService(route: Self.noSessidRoute) { service in
            try await withDaemon([]) { daemon in
                try await daemon.waitUntilListening()
                let result = try await runBeaconctl(["send", "--socket", daemon.socketPath, "load", service.baseURL + Self.masterPath])
                #expect(result.status != 0)
                #expect(result.stdout.hasPrefix("{\"error\""), "\(result.stdout)")
                #expect(result.stdout.contains("sessid"), "\(result.stdout)")
                let report = try await daemon.status()
                #expect(report.state == "error")
                #expect(daemon.stdoutLines.isEmpty)
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    @Test func aFailedInitStillReadsAndDrainsStdin() async throws {
        try await withAdService(route: Self.noSessidRoute) { service in
            try await withDaemon(["--media-url", service.baseURL + Self.masterPath, "--stdin"]) { daemon in
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 5_000)
                feed.line("pause")
                feed.line("play")
                daemon.send(feed.lines)
                try await daemon.waitForStatus("every tick counted") { $0.state == "error" && $0.counters.ticks == feed.tickCount }
                try await finish(daemon)
                #expect(service.beacons.isEmpty)
            }
        }
    }
}
