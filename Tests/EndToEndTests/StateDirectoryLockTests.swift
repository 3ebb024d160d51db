import BeaconDomain
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Testing

/// One daemon per state directory: a second `beaconctl run` on it, with its own socket, exits 73
/// at once and sends nothing; the lock dies with its holder, even by kill -9.
@Suite(.timeLimit(.minutes(5))) struct StateDirectoryLockTests {
    let restarts = RestartTests()

    @Test func aSecondDaemonExits73AndTheFirstsInFlightBeaconIsNotSentAgain() async throws {
        let state = try TemporaryDirectory()
        let environment = ["STATE_DIRECTORY": state.path]
        try await restarts.withAHeldMidpoint("l") { sink, _, arguments in
            try await withDaemon(arguments, environment: environment) { first in
                var feed = TickFeed(from: Ads.t0)
                try await restarts.playUntilTheMidpointIsInFlight(first, sink, ad: "l-a1", feed: &feed)

                // Its own socket, the same state directory.
                let second = try DaemonProcess([], environment: environment)
                defer { second.kill() }
                let status = try? await second.waitForExit(timeout: .seconds(10))
                try await Task.sleep(for: .seconds(2))
                print("second daemon on the same state directory: exit \(status.map(String.init) ?? "none, still running"), "
                    + "midpoint requests at the sink \(sink.count(ad: "l-a1", .midpoint))")
                #expect(status == Int32(StateDirectoryLock.exitStatus))
                try await eventually("the second's output to end") { second.child.stderr.isFinished }
                let lines = second.stderrLines
                #expect(lines.count == 1, "\(second.stderrText)")
                #expect(lines.first?.contains("state directory \(state.path) ") == true, "\(second.stderrText)")
                #expect(lines.first?.contains("process \(first.child.processIdentifier)") == true, "\(second.stderrText)")
                #expect(sink.count(ad: "l-a1", .midpoint) == 1, "the first's in-flight request was sent again\n\(sink.summary)")

                first.kill()
                _ = try await first.waitForExit()
            }
            // kill -9 left no stale lock: the next daemon starts and resumes.
            try await withDaemon([], environment: environment) { next in
                let report = try await next.waitForStatus("the in-flight midpoint sent again once") { report in
                    report.counters.beaconsResent == 1 && report.deliveries.allSatisfy(\.state.isFinished)
                }
                #expect(report.counters.beaconsSent == 1)
                #expect(sink.count(ad: "l-a1", .midpoint) == 2)
            }
        }
    }
}
