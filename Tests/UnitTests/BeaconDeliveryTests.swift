import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct BeaconDeliveryTests {
    func deliveries(_ states: [BeaconDelivery.State]) -> [BeaconDelivery] {
        states.enumerated().map { index, state in
            let key = BeaconDelivery.Key(
                sessionKey: "s", adBreakID: "p", adID: "a", event: .impression, eventStart: 0, url: "http://ads.example/\(index)", occurrence: 0)
            return BeaconDelivery(key: key, reference: EventReference(adBreakID: "p", adIndex: 0, eventIndex: 0), state: state, dueAt: 0)
        }
    }

    @Test func anEventIsConnectingWhileAnyDeliveryIsDueOrInFlight() {
        for unfinished in [BeaconDelivery.State.due, .inFlight] {
            for others in [[], [.delivered], [.failed], [.delivered, .failed], [.due, .inFlight]] as [[BeaconDelivery.State]] {
                #expect(ReportingState(deliveries: deliveries(others + [unfinished])) == .connecting, "\(others) + \(unfinished)")
                #expect(ReportingState(deliveries: deliveries([unfinished] + others)) == .connecting, "\(unfinished) + \(others)")
            }
        }
    }

    @Test func anEventIsDoneWhenEveryDeliveryWasDelivered() {
        #expect(ReportingState(deliveries: deliveries([.delivered])) == .done)
        #expect(ReportingState(deliveries: deliveries([.delivered, .delivered, .delivered])) == .done)
    }

    @Test func anEventFailedWhenAnyFinishedDeliveryFailed() {
        #expect(ReportingState(deliveries: deliveries([.failed])) == .failed)
        #expect(ReportingState(deliveries: deliveries([.delivered, .failed, .delivered])) == .failed)
        #expect(ReportingState(deliveries: deliveries([.failed, .failed])) == .failed)
    }

    @Test func anEventWithoutSignalingURLsHasNothingToWaitFor() {
        #expect(ReportingState(deliveries: [BeaconDelivery]()) == .done)
    }

    @Test func aNewDeliveryIsDueAtOnceAndUpdatedWhenItBecameDue() {
        let delivery = deliveries([.due])[0]
        #expect(delivery.nextAttemptAt == delivery.dueAt)
        #expect(delivery.updatedAt == delivery.dueAt)
        #expect(delivery.attempts == 0 && !delivery.resend && delivery.lastStatus == nil && delivery.lastError == nil)
    }
}
