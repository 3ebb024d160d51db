import Foundation
import Synchronization
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

    /// Keeps what it heard, and whether a call came while another was under way.
    final class Overlapping: DaemonNotificationSubscriber {
        let heard = Recorder<String>()
        private let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)

        func receive(_ notification: DaemonNotification) {
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
            heard.append("\(notification)")
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// The daemon and the reporters publish from tasks of their own: whoever publishes, each
    /// subscriber hears every notification once, one call at a time, in the same order as the others.
    @Test func publishersOnManyThreadsGiveEverySubscriberOneOrder() async {
        let first = Overlapping()
        let second = Overlapping()
        let hub = DaemonNotificationHub([first, second])
        await withTaskGroup(of: Void.self) { group in
            for publisher in 0..<4 {
                group.addTask {
                    await onThreadOfItsOwn {
                        for number in 0..<500 { hub.publish(.lineRejected(reason: "\(publisher)-\(number)")) }
                    }
                }
            }
        }
        #expect(first.heard.count == 2000)
        #expect(Set(first.heard.all).count == 2000)
        let divergence = zip(first.heard.all, second.heard.all).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(divergence == nil, "the subscribers heard different orders from notification \(divergence?.offset ?? 0) on")
        #expect(first.overlaps.load(ordering: .relaxed) == 0 && second.overlaps.load(ordering: .relaxed) == 0)
    }

    /// A reporter that publishes while the daemon's notification is still going round waits for
    /// it to have reached every subscriber.
    @Test func aSecondPublisherWaitsForTheFanOutUnderWay() async {
        final class Publishing: DaemonNotificationSubscriber {
            let heard = Recorder<String>()
            let hub = Mutex<DaemonNotificationHub?>(nil)
            let secondStarted = Atomic<Bool>(false)

            func receive(_ notification: DaemonNotification) {
                heard.append("\(notification)")
                guard case .metadataFailed = notification, let hub = hub.withLock({ $0 }) else { return }
                Thread {
                    self.secondStarted.store(true, ordering: .sequentiallyConsistent)
                    hub.publish(.metadataUnchanged(bytes: 2))
                }.start()
                // Had the hub let the second publisher in, it would be heard now, inside this call.
                while !secondStarted.load(ordering: .sequentiallyConsistent) { usleep(1000) }
                for _ in 0..<200 where heard.count == 1 { usleep(1000) }
                heard.append("first call ends")
            }
        }
        let subscriber = Publishing()
        let hub = DaemonNotificationHub([subscriber])
        subscriber.hub.withLock { $0 = hub }
        await onThreadOfItsOwn { hub.publish(.metadataFailed(reason: "first")) }
        // The hub lets the second publisher in once the first call ended.
        await onThreadOfItsOwn { for _ in 0..<10_000 where subscriber.heard.count < 3 { usleep(1000) } }
        #expect(subscriber.heard.all == ["metadataFailed(reason: \"first\")", "first call ends", "metadataUnchanged(bytes: 2)"])
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
