import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// `apply(_:)`: the settings a reload changes hold from their next use on, with nothing restarted.
extension BeaconDaemonTests {
    static func runtime(quiet: Bool = false, beaconMaxAge: Duration = .seconds(900)) -> RuntimeSettings {
        RuntimeSettings(debugTracking: false, quiet: quiet, metadataInterval: .seconds(3600), retention: .seconds(7200), beaconMaxAge: beaconMaxAge)
    }

    @Test func quietAppliedWhileRunningSendsNoBeaconFromThenOn() async throws {
        let client = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)], Self.beacon: [.status(200)]])
        let observed = Observed()
        try await withDaemon(client: client, observed: observed) { daemon in
            await daemon.waitUntilSettled()
            await daemon.apply(Self.runtime(quiet: true))
            await playTheImpression(daemon)
            try await observed.waitForFinished()
            #expect(observed.finished.first?.results.map(\.outcome) == [.notSent(.quiet)])
            #expect(observed.finished.map(\.state) == [.done])
            #expect(client.requestCount(Self.beacon) == 0)
            #expect(await daemon.statusReport().session?.sessionID == "s1")
        }
    }
}
