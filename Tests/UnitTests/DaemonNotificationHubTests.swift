import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct DaemonNotificationHubTests {
    /// Keeps what it heard, tagged with its name, in one list shared with the other subscribers.
    struct Tagging: DaemonNotificationSubscriber {
        let name: String
        let heard: Recorder<String>

        func receive(_ notification: DaemonNotification) {
            heard.append("\(name) \(notification)")
        }

        func finish() {
            heard.append("\(name) finished")
        }
    }

    @Test func everySubscriberHearsEachNotificationInTurnAndInOrder() {
        let heard = Recorder<String>()
        let hub = DaemonNotificationHub([Tagging(name: "a", heard: heard), Tagging(name: "b", heard: heard)])
        hub.publish(.lineRejected(reason: "one"))
        hub.publish(.drainStarted(inFlight: 2))
        hub.finish()
        #expect(
            heard.all == [
                "a lineRejected(reason: \"one\")", "b lineRejected(reason: \"one\")",
                "a drainStarted(inFlight: 2)", "b drainStarted(inFlight: 2)",
                "a finished", "b finished",
            ])
    }

    @Test func aHubWithoutSubscribersTakesEveryNotification() {
        let hub = DaemonNotificationHub()
        hub.publish(.metadataUnchanged(bytes: 1))
        hub.finish()
    }
}

extension BeaconDaemonTests {
    /// An output given to the hub at composition hears the session and its beacons as every
    /// other output does, in the same order, and the end of the daemon.
    @Test func aSubscriberAddedAtCompositionHearsTheSessionAndItsBeacons() async throws {
        let client = ScriptedHTTPClient([Self.trackingURL: [.body(Self.metadata)], Self.beacon: [.status(204)]])
        let observed = Observed()
        let added = Observed()
        let finished = Recorder<String>()
        struct Finishing: DaemonNotificationSubscriber {
            let finished: Recorder<String>
            func receive(_ notification: DaemonNotification) {}
            func finish() { finished.append("finished") }
        }
        let hub = DaemonNotificationHub([observed, added, Finishing(finished: finished)])
        try await withDaemon(client: client, notifications: hub) { daemon in
            await playTheImpression(daemon)
            try await eventually("the impression to finish") { !added.finished.isEmpty }
        }
        let names = added.notifications.all.map { "\($0)".prefix { $0 != "(" } }
        #expect(names.starts(with: ["sessionStarting", "sessionReady"]))
        #expect(names.contains("metadataApplied"))
        #expect(names.contains("beaconsDue"))
        #expect(names.contains("beaconsDelivered"))
        #expect(names.contains("drainStarted") && names.last == "sessionEnded")
        #expect(observed.notifications.all.map { "\($0)" } == added.notifications.all.map { "\($0)" })
        #expect(finished.all == ["finished"])
    }
}
