import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Synchronization
import Testing

/// Session init at the ad-insertion service, each fallback with the real binary and `--media-url`.
@Suite(.timeLimit(.minutes(5))) struct SessionInitTests {
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
        mediaPath: String = masterPath, arguments: [String] = [],
        route: @escaping AdService.Route,
        _ body: (AdService, DaemonProcess) async throws -> Void
    ) async throws {
        try await withAdService(route: route) { service in
            service.serve(Ads.document([]))
            try await withDaemon(["--media-url", service.baseURL + mediaPath] + arguments) { daemon in
                try await body(service, daemon)
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    /// Reads the session line and checks it names `manifest`, `tracking` and `sessionID`, then that
    /// the metadata is polled at `trackingPath` and status shows the session.
    func expectSession(
        _ daemon: DaemonProcess, _ service: AdService, manifest: String, tracking: String, sessionID: String,
        trackingPath: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let line = try await daemon.sessionLine()
        let announced = try JSONDecoder().decode([String: String].self, from: Data(line.utf8))
        #expect(announced == ["manifestUrl": manifest, "trackingUrl": tracking, "sessionId": sessionID], sourceLocation: sourceLocation)
        try await eventually("a metadata GET on \(trackingPath)") {
            service.metadataRequests.contains { $0.path == trackingPath && ($0.query ?? "").contains("sessid=\(sessionID)") }
        }
        let report = try await daemon.waitForStatus("the first metadata") { $0.dataRange != nil }
        #expect(report.session?.manifestURL == manifest, sourceLocation: sourceLocation)
        #expect(report.session?.trackingURL == tracking, sourceLocation: sourceLocation)
        #expect(report.session?.sessionID == sessionID, sourceLocation: sourceLocation)
        #expect(report.counters.metadataErrors == 0, "\(report.lastError ?? "")", sourceLocation: sourceLocation)
    }

    @Test func postReturnsRelativeURLs() async throws {
        try await withInit(route: { request in
            guard request.path == Self.masterPath, request.method == "POST" else { return nil }
            return .json(#"{"manifestUrl": "/live/sess/p1/master.m3u8?sessid=p1", "trackingUrl": "/live/sess/p1/metadata?sessid=p1"}"#)
        }) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/sess/p1/master.m3u8?sessid=p1",
                tracking: "\(service.baseURL)/live/sess/p1/metadata?sessid=p1", sessionID: "p1", trackingPath: "/live/sess/p1/metadata")
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
                tracking: "\(service.baseURL)/live/sess/g1/metadata?sessid=g1", sessionID: "g1", trackingPath: "/live/sess/g1/metadata")
            #expect(service.received.filter { $0.path == Self.masterPath }.map(\.method) == ["POST", "GET"])
        }
    }

    /// Harmonic's `isInitRequest` false, as a setting: no POST, the GET ways as before.
    @Test func noInitRequestSkipsThePost() async throws {
        try await withInit(arguments: ["--no-is-init-request"], route: { request in
            guard request.path == Self.masterPath, request.method == "GET", request.query == "initSession=true" else { return nil }
            return .json(#"{"manifestUrl": "sess/n1/master.m3u8?sessid=n1", "trackingUrl": "sess/n1/metadata?sessid=n1"}"#)
        }) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/sess/n1/master.m3u8?sessid=n1",
                tracking: "\(service.baseURL)/live/sess/n1/metadata?sessid=n1", sessionID: "n1", trackingPath: "/live/sess/n1/metadata")
            #expect(service.received.filter { $0.path == Self.masterPath }.map(\.method) == ["GET"])
        }
    }

    /// The same for one playback, as its `load` says; the next `load` without it posts again.
    @Test func aLoadSaysForItsPlaybackWhetherToPost() async throws {
        let (first, second) = ("/live/first.m3u8", "/live/second.m3u8")
        try await withAdService(route: { request in
            guard request.path == first || request.path == second else { return nil }
            let id = request.path == first ? "l1" : "l2"
            return .json(#"{"manifestUrl": "sess/\#(id)/master.m3u8?sessid=\#(id)", "trackingUrl": "sess/\#(id)/metadata?sessid=\#(id)"}"#)
        }) { service in
            service.serve(Ads.document([]))
            try await withDaemon([]) { daemon in
                try await daemon.waitUntilListening()
                let player = try await ControlClient.connect(path: daemon.socketPath)[0]
                func methods(_ path: String) -> [String] { service.received.filter { $0.path == path }.map(\.method) }
                try await player.send(line: "load \(service.baseURL)\(first) {\"isInitRequest\": false}")
                #expect(try await player.lines(1, timeout: .seconds(20))[0].contains("\"sessionId\":\"l1\""))
                // The service records a request as it answers it: the reply may reach the player first.
                try await eventually("the GET at the service") { methods(first) == ["GET"] }
                try await player.send(line: "load \(service.baseURL)\(second)")
                #expect(try await player.lines(2, timeout: .seconds(20))[1].contains("\"sessionId\":\"l2\""))
                try await eventually("the POST at the service") { methods(second) == ["POST"] }
                #expect(methods(first) == ["GET"], "no POST for the playback that said no")
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    @Test func plainGetThatRedirects() async throws {
        let route = Self.initRefused(plainGet: .redirect(to: "/live/sess/abc/master.m3u8?sessid=abc")) { request in
            request.path == "/live/sess/abc/master.m3u8" ? Self.playlist(variant: "index_1.m3u8") : nil
        }
        try await withInit(route: route) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/sess/abc/master.m3u8?sessid=abc",
                tracking: "\(service.baseURL)/live/sess/abc/metadata?sessid=abc", sessionID: "abc", trackingPath: "/live/sess/abc/metadata")
        }
    }

    @Test func plainGetOfAMasterPlaylist() async throws {
        try await withInit(route: Self.initRefused(plainGet: Self.playlist(variant: "variant/index.m3u8?sessid=xyz"))) {
            service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/variant/index.m3u8?sessid=xyz",
                tracking: "\(service.baseURL)/live/variant/metadata?sessid=xyz", sessionID: "xyz", trackingPath: "/live/variant/metadata")
        }
    }

    /// A service that answers every way without a session id, attempt after attempt, serves no
    /// ad-insertion stream: as Harmonic's client does, the player gets the stream's own URL
    /// (`"plain": true`) within seconds of the load, nothing is polled, and status says why.
    @Test func noSessidAnywherePlaysTheStreamAsItIs() async throws {
        try await withInit(route: Self.noSessidRoute) { service, daemon in
            let line = try await daemon.sessionLine()
            let announced = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(announced?["manifestUrl"] as? String == service.baseURL + Self.masterPath, "\(line)")
            #expect(announced?["plain"] as? Bool == true && announced?["trackingUrl"] is NSNull && announced?["sessionId"] is NSNull, "\(line)")
            let report = try await daemon.status()
            #expect(report.state == "ready")
            #expect(report.session?.plainReason?.contains("sessid") == true, "\(report.session?.plainReason ?? "nil")")
            #expect(daemon.stderrLines.contains { $0.contains("session init failed, retrying") && $0.contains("sessid") })
            #expect(daemon.stderrLines.contains { $0.contains("playing plain") })
            // Three attempts, each every way, then none.
            #expect(service.received.filter { $0.path == Self.masterPath && $0.method == "POST" }.count == SessionSupervisor.plainAfter)
            #expect(service.metadataRequests.isEmpty)
            let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
            #expect(human.stdout.contains("plain stream") && human.stdout.contains("without a session id"), "\(human.stdout)")
        }
    }

    /// A service that fails (5xx) may heal: it is retried, never taken for a plain stream.
    @Test func aServiceInTroubleIsRetriedNeverPlayedPlain() async throws {
        try await withInit(route: Self.unavailableRoute) { service, daemon in
            let report = try await daemon.waitForStatus("more failed attempts than the plain fallback takes") {
                $0.initFailures > SessionSupervisor.plainAfter
            }
            #expect(report.state == "initializing" && report.session == nil)
            #expect(report.lastError?.contains("HTTP 503") == true, "\(report.lastError ?? "nil")")
            #expect(daemon.stdoutLines.isEmpty)
            #expect(!daemon.stderrLines.contains { $0.contains("playing plain") })
        }
    }

    /// Harmonic's document: the session's URLs combine the original URL's host with the relative
    /// URLs of the answer, also when the POST was redirected to another host.
    @Test func relativeURLsStayOnTheOriginalHostAfterACrossHostRedirect() async throws {
        try await withAdService(route: { request in
            guard request.path == "/init" else { return nil }
            return .json(#"{"manifestUrl": "/live/sess/x1/master.m3u8?sessid=x1", "trackingUrl": "/live/sess/x1/metadata?sessid=x1"}"#)
        }) { other in
            try await withInit(route: { request in
                guard request.path == Self.masterPath, request.method == "POST" else { return nil }
                return .redirect(to: other.baseURL + "/init", status: 307)
            }) { service, daemon in
                try await expectSession(
                    daemon, service, manifest: "\(service.baseURL)/live/sess/x1/master.m3u8?sessid=x1",
                    tracking: "\(service.baseURL)/live/sess/x1/metadata?sessid=x1", sessionID: "x1", trackingPath: "/live/sess/x1/metadata")
                #expect(other.received.map(\.path) == ["/init"], "the redirect was followed to the other host")
                #expect(other.metadataRequests.isEmpty)
            }
        }
    }

    /// A media URL no retry can fix is refused once: the error state, no retry.
    @Test func aLoadOfANonHTTPURLIsAnErrorNotRetried() async throws {
        try await withDaemon([]) { daemon in
            try await daemon.waitUntilListening()
            let reply = try await daemon.request("load ftp://127.0.0.1/live/master.m3u8")
            #expect(reply.contains("refused"), "\(reply)")
            let report = try await daemon.status()
            #expect(report.state == "error")
            #expect(report.initFailures == 0 && report.nextInitAt == nil)
            daemon.terminate()
            #expect(try await daemon.waitForExit() == 0)
        }
    }

    /// The ad service is down when the daemon starts: init is retried with backoff (status says
    /// so) until the service comes up, and the session then starts on its own.
    @Test func initAtBootWaitsForTheServiceToComeUp() async throws {
        let port = try await withAdService { $0.server.port }
        let route: AdService.Route = { request in
            guard request.path == Self.masterPath, request.method == "POST" else { return nil }
            return .json(#"{"manifestUrl": "/live/sess/up/master.m3u8?sessid=up", "trackingUrl": "/live/sess/up/metadata?sessid=up"}"#)
        }
        let mediaURL = "http://127.0.0.1:\(port)\(Self.masterPath)"
        try await withDaemon(["--media-url", mediaURL, "--metadata-interval", "0.2"]) { daemon in
            let retrying = try await daemon.waitForStatus("init retried") { $0.initFailures >= 2 && $0.nextInitAt != nil }
            #expect(retrying.state == "initializing")
            #expect(retrying.lastError?.contains("session init: ") == true, "\(retrying.lastError ?? "nil")")
            #expect(retrying.lastError?.contains("Couldn't connect to server") == true, "\(retrying.lastError ?? "nil")")
            // Between a retry's time and its failure no next try is set: the human view is asked
            // until it catches a wait (the waits grow with each failure).
            let human = try await eventuallyValue("status showing the next try") {
                let human = try await runBeaconctl(["status", "--socket", daemon.socketPath])
                return human.stdout.contains("next try at ") ? human : nil
            }
            #expect(human.stdout.contains("attempts failed in a row, next try at "), "\(human.stdout)")

            try await withAdService(route: route, port: port) { service in
                service.serve(Ads.document([]))
                let line = try await daemon.sessionLine(timeout: .seconds(70))
                #expect(line.contains("sessid=up"), "\(line)")
                let ready = try await daemon.waitForStatus("ready") { $0.state == "ready" }
                #expect(ready.initFailures == 0 && ready.nextInitAt == nil)
                #expect(ready.session?.sessionID == "up")
                try await daemon.waitForStatus("the first metadata") { $0.dataRange != nil }
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    /// A `load` gets its reply at once when its first attempt fails, saying init goes on; the
    /// session is announced on stdout when a later attempt succeeds.
    @Test func aLoadWhoseFirstAttemptFailsRepliesAndTheSessionStartsLater() async throws {
        let up = Atomic(false)
        try await withAdService(route: { request in
            guard request.path == Self.masterPath else { return nil }
            guard up.load(ordering: .relaxed) else { return .status(503) }
            return .json(#"{"manifestUrl": "/live/sess/late/master.m3u8?sessid=late", "trackingUrl": "/live/sess/late/metadata?sessid=late"}"#)
        }) { service in
            service.serve(Ads.document([]))
            try await withDaemon([]) { daemon in
                try await daemon.waitUntilListening()
                let result = try await runBeaconctl(["send", "--socket", daemon.socketPath, "load", service.baseURL + Self.masterPath])
                #expect(result.status != 0)
                #expect(result.stdout.hasPrefix("{\"error\""), "\(result.stdout)")
                #expect(result.stdout.contains("HTTP 503") && result.stdout.contains("keeps retrying"), "\(result.stdout)")
                #expect(try await daemon.status().state == "initializing")

                up.store(true, ordering: .relaxed)
                let line = try await daemon.sessionLine(timeout: .seconds(20))
                #expect(line.contains("sessid=late"), "\(line)")
                try await daemon.waitForStatus("ready") { $0.state == "ready" && $0.initFailures == 0 }
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    @Test func aMediaURLWithSessidNeedsNoInit() async throws {
        try await withInit(mediaPath: "/live/master.m3u8?sessid=given", route: { _ in nil }) { service, daemon in
            try await expectSession(
                daemon, service, manifest: "\(service.baseURL)/live/master.m3u8?sessid=given",
                tracking: "\(service.baseURL)/live/metadata?sessid=given", sessionID: "given", trackingPath: "/live/metadata")
            #expect(!service.received.contains { $0.method == "POST" })
            #expect(!service.received.contains { $0.path == Self.masterPath })
        }
    }

    static let noSessidRoute = initRefused(plainGet: playlist(variant: "variant/index.m3u8"))
    /// Every way to the stream answers 503.
    static let unavailableRoute: AdService.Route = { request in request.path == masterPath ? .status(503) : nil }

    @Test func aFailedLoadRepliesWithItsReason() async throws {
        try await withAdService(route: Self.unavailableRoute) { service in
            try await withDaemon([]) { daemon in
                try await daemon.waitUntilListening()
                let result = try await runBeaconctl(["send", "--socket", daemon.socketPath, "load", service.baseURL + Self.masterPath])
                #expect(result.status != 0)
                #expect(result.stdout.hasPrefix("{\"error\""), "\(result.stdout)")
                #expect(result.stdout.contains("HTTP 503"), "\(result.stdout)")
                #expect(result.stdout.contains("keeps retrying"), "\(result.stdout)")
                let report = try await daemon.status()
                #expect(report.state == "initializing")
                #expect(report.initFailures >= 1)
                #expect(daemon.stdoutLines.isEmpty)
                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0)
            }
        }
    }

    @Test func aFailedInitStillReadsAndDrainsStdin() async throws {
        try await withAdService(route: Self.unavailableRoute) { service in
            try await withDaemon(["--media-url", service.baseURL + Self.masterPath, "--stdin"]) { daemon in
                var feed = TickFeed(from: Ads.t0)
                feed.play(to: Ads.t0 + 5_000)
                feed.line("pause")
                feed.line("play")
                daemon.send(feed.lines)
                try await daemon.waitForStatus("every tick counted") {
                    $0.state == "initializing" && $0.initFailures >= 1 && $0.counters.ticks == feed.tickCount
                }
                try await finish(daemon)
                #expect(service.beacons.isEmpty)
            }
        }
    }
}
