import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct NotifyPolicyTests {
    func report(_ state: String) -> StatusReport {
        StatusReport(version: "v", state: state, session: nil, playhead: nil, dataRange: nil, adBreaks: [], counters: StatusReport.Counters())
    }

    @Test func firstAnswerSaysReadyWithTheStatus() {
        var policy = NotifyPolicy(petInterval: nil)
        #expect(policy.answered(report("idle"), at: .zero) == "READY=1\nSTATUS=idle")
    }

    @Test func statusIsSentOnlyWhenItChanges() {
        var policy = NotifyPolicy(petInterval: nil)
        _ = policy.answered(report("idle"), at: .zero)
        #expect(policy.answered(report("idle"), at: .seconds(1)) == nil)
        #expect(policy.answered(report("idle"), at: .seconds(2)) == nil)
        #expect(policy.answered(report("initializing"), at: .seconds(3)) == "STATUS=initializing")
        #expect(policy.answered(report("initializing"), at: .seconds(4)) == nil)
        #expect(policy.answered(report("playing"), at: .seconds(5)) == "STATUS=playing")
    }

    @Test func petsTheWatchdogOncePerInterval() {
        var policy = NotifyPolicy(petInterval: .seconds(15))
        #expect(policy.answered(report("idle"), at: .zero) == "READY=1\nSTATUS=idle\nWATCHDOG=1")
        var pets: [Duration] = []
        for second in 1...45 {
            if policy.answered(report("idle"), at: .seconds(second)) == "WATCHDOG=1" { pets.append(.seconds(second)) }
        }
        #expect(pets == [.seconds(15), .seconds(30), .seconds(45)])
    }

    @Test func aLateAnswerPetsAtOnce() {
        var policy = NotifyPolicy(petInterval: .seconds(15))
        _ = policy.answered(report("idle"), at: .zero)
        #expect(policy.answered(report("idle"), at: .milliseconds(14_999)) == nil)
        #expect(policy.answered(report("playing"), at: .seconds(40)) == "STATUS=playing\nWATCHDOG=1")
        #expect(policy.answered(report("playing"), at: .seconds(54)) == nil)
        #expect(policy.answered(report("playing"), at: .seconds(55)) == "WATCHDOG=1")
    }

    @Test func probesOftenEnoughForStatusAndWatchdog() {
        #expect(NotifyPolicy(petInterval: nil).probePeriod == .seconds(1))
        #expect(NotifyPolicy(petInterval: .seconds(15)).probePeriod == .seconds(1))
        #expect(NotifyPolicy(petInterval: .milliseconds(100)).probePeriod == .milliseconds(100))
    }

    @Test func drainSaysStoppingAndFreezesTheStatus() {
        var policy = NotifyPolicy(petInterval: .seconds(1))
        _ = policy.answered(report("playing"), at: .zero)
        #expect(policy.drainStarted(inFlight: 3) == "STOPPING=1\nSTATUS=stopping, 3 tracking events in flight")
        // The session ended with the drain: its idle report must not read as a status change.
        #expect(policy.answered(report("idle"), at: .milliseconds(500)) == nil)
        #expect(policy.answered(report("idle"), at: .seconds(1)) == "WATCHDOG=1")
    }
}
