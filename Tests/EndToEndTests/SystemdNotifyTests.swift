import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// `beaconctl run` under a service manager: notifications captured on a test `NOTIFY_SOCKET`.
@Suite(.timeLimit(.minutes(5))) struct SystemdNotifyTests {
    let adBreakStart = Ads.t0 + 2_000

    @Test func saysReadyStatusLivenessAndStopping() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manager = try SimulatedServiceManager(notifySocket: directory.file("notify"))
        try await withAdService { service in
            service.serve(Ads.document([Ads.adBreak(id: "p1", start: adBreakStart, on: service)]))
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
            let environment = ["NOTIFY_SOCKET": manager.notifySocket, "WATCHDOG_USEC": "200000"]
            try await withDaemon(["--media-url", mediaURL, "--stdin"], environment: environment) { daemon in
                try await eventually("READY=1\n\(daemon.stderrText.suffix(2000))") { manager.assignments().contains("READY=1") }
                // Ready means listening: the socket answers at once.
                _ = try await daemon.status()
                #expect(manager.messages().first?.hasPrefix("READY=1\nSTATUS=") == true, "\(manager.messages())")

                var feed = TickFeed(from: Ads.t0)
                feed.play(to: adBreakStart + 3_000)
                daemon.send(feed.lines)
                try await eventually("the ad in STATUS, got \(manager.assignments())") {
                    manager.assignments().contains("STATUS=playing an ad p1-a1")
                }
                try await eventually("the watchdog petted every 100 ms") {
                    manager.assignments().count { $0 == "WATCHDOG=1" } >= 5
                }
                // The same status is not repeated while it holds.
                let statuses = manager.assignments().filter { $0.hasPrefix("STATUS=") }
                #expect(zip(statuses, statuses.dropFirst()).allSatisfy { $0 != $1 }, "\(statuses)")

                daemon.terminate()
                #expect(try await daemon.waitForExit() == 0, "\(daemon.stderrText.suffix(2000))")
                #expect(manager.assignments().contains("STOPPING=1"), "\(manager.assignments())")
                let assignments = manager.assignments()
                #expect(assignments.firstIndex(of: "READY=1")! < assignments.firstIndex(of: "STOPPING=1")!)
            }
        }
    }

    @Test func noWatchdogForAnotherProcess() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manager = try SimulatedServiceManager(notifySocket: directory.file("notify"))
        let environment = ["NOTIFY_SOCKET": manager.notifySocket, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"]
        try await withDaemon([], environment: environment) { daemon in
            try await eventually("READY=1") { manager.assignments().contains("READY=1") }
            // Twenty pets would have been due by now.
            try await Task.sleep(for: .seconds(2))
            #expect(manager.assignments().contains("READY=1"))
            #expect(!manager.assignments().contains("WATCHDOG=1"), "\(manager.assignments())")
        }
    }
}
