import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct HostAdmissionTests {
    /// Admits `items` (id = item) to `host`; returns the ones that may start at once.
    private func admitAll(_ items: ClosedRange<Int>, host: String, into admission: inout HostAdmission<Int>) -> [Int] {
        items.compactMap { admission.admit($0, id: UInt64($0), host: host) }
    }

    @Test func aHostRunsAtMostTheLimitAndTheRestWaitInOrder() {
        var admission = HostAdmission<Int>(limit: 2)
        #expect(admitAll(1...5, host: "a", into: &admission) == [1, 2])
        #expect(admission.release(host: "a") == 3)
        #expect(admission.release(host: "a") == 4)
        #expect(admission.release(host: "a") == 5)
        #expect(admission.release(host: "a") == nil)
        #expect(admission.release(host: "a") == nil)
        // Both slots are free again.
        #expect(admitAll(6...8, host: "a", into: &admission) == [6, 7])
    }

    @Test func hostsDoNotWaitForEachOther() {
        var admission = HostAdmission<Int>(limit: 1)
        #expect(admitAll(1...3, host: "a", into: &admission) == [1])
        #expect(admitAll(4...5, host: "b", into: &admission) == [4])
        #expect(admission.release(host: "b") == 5)
        #expect(admission.release(host: "a") == 2)
    }

    @Test func aNewcomerDoesNotOvertakeTheWaitingLine() {
        var admission = HostAdmission<Int>(limit: 1)
        #expect(admitAll(1...2, host: "a", into: &admission) == [1])
        // The freed slot goes to 2, so 3 waits although a slot was free for a moment.
        #expect(admission.release(host: "a") == 2)
        #expect(admission.admit(3, id: 3, host: "a") == nil)
        #expect(admission.release(host: "a") == 3)
    }

    @Test func aLongLineKeepsItsOrderAcrossCompaction() {
        var admission = HostAdmission<Int>(limit: 1)
        #expect(admitAll(0...1000, host: "a", into: &admission) == [0])
        var started: [Int] = []
        while let next = admission.release(host: "a") { started.append(next) }
        #expect(started == Array(1...1000))
    }

    @Test func aCancelledItemLeavesItsLine() {
        var admission = HostAdmission<Int>(limit: 1)
        #expect(admitAll(1...4, host: "a", into: &admission) == [1])
        #expect(admission.removeWaiting(id: 3) == 3)
        #expect(admission.removeWaiting(id: 3) == nil)
        #expect(admission.removeWaiting(id: 1) == nil, "running, not waiting")
        #expect(admission.release(host: "a") == 2)
        #expect(admission.release(host: "a") == 4)
        #expect(admission.release(host: "a") == nil)
    }

    @Test func removingAllWaitingEmptiesEveryLine() {
        var admission = HostAdmission<Int>(limit: 1)
        _ = admitAll(1...3, host: "a", into: &admission)
        _ = admitAll(4...5, host: "b", into: &admission)
        #expect(admission.removeAllWaiting().sorted() == [2, 3, 5])
        #expect(admission.release(host: "a") == nil)
        #expect(admission.release(host: "b") == nil)
    }

    @Test func aLimitBelowOneIsOne() {
        var admission = HostAdmission<Int>(limit: 0)
        #expect(admitAll(1...2, host: "a", into: &admission) == [1])
    }

    @Test(arguments: [
        ("http://127.0.0.1:4647/beacon?n=1", "http://127.0.0.1:4647"),
        ("HTTP://Ads.Example.com/b", "http://ads.example.com"),
        ("https://ads.example.com?x=1", "https://ads.example.com"),
        ("http://user:pw@ads.example.com:8080#f", "http://ads.example.com:8080"),
        ("http://[::1]:80/", "http://[::1]:80"),
        ("no-authority", "no-authority"),
        ("http:///path", "http:///path"),
    ])
    func theHostKeyIsSchemeHostAndPort(url: String, key: String) {
        #expect(URLPolicy.hostKey(of: url) == key)
    }

    @Test func httpAndHttpsOfOneHostAreTwoHosts() {
        #expect(URLPolicy.hostKey(of: "http://a.example/") != URLPolicy.hostKey(of: "https://a.example/"))
    }
}
