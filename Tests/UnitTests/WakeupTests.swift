import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// Every wait is bounded: a wait that should return has 10 s to do so, one that should not is
/// given a short while to prove it does not, then cancelled.
@Suite(.timeLimit(.minutes(2))) struct WakeupTests {
    static let returns = Duration.seconds(10)
    static let stays = Duration.milliseconds(100)

    @Test func aSignalSentBeforeTheWaitIsKept() async {
        let wakeup = Wakeup()
        wakeup.signal()
        #expect(await finishes(within: Self.returns) { await wakeup.wait() })
    }

    @Test func signalsSentWhileNobodyWaitsCountOnce() async {
        let wakeup = Wakeup()
        wakeup.signal()
        wakeup.signal()
        #expect(await finishes(within: Self.returns) { await wakeup.wait() })
        #expect(await !finishes(within: Self.stays) { await wakeup.wait() })
    }

    @Test func withoutASignalTheWaitGoesOn() async {
        let wakeup = Wakeup()
        #expect(await !finishes(within: Self.stays) { await wakeup.wait() })
    }

    @Test func aWaitReturnsOnASignal() async {
        let wakeup = Wakeup()
        let returned = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await finishes(within: Self.returns) { await wakeup.wait() } }
            // Most likely the waiter is suspended by now; if not, the kept signal wakes it alike.
            try? await Task.sleep(for: .milliseconds(20))
            wakeup.signal()
            return await group.next() ?? false
        }
        #expect(returned)
        // The signal was used up by the wait it woke.
        #expect(await !finishes(within: Self.stays) { await wakeup.wait() })
    }

    @Test func aWaitReturnsOnCancellation() async {
        let wakeup = Wakeup()
        let waiter = Task { await wakeup.wait() }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        #expect(await finishes(within: Self.returns) { await waiter.value })
    }

    @Test func aWaitInAnAlreadyCancelledTaskReturnsAtOnce() async {
        let wakeup = Wakeup()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await wakeup.wait()
        }
        #expect(await finishes(within: Self.returns) { await waiter.value })
    }

    @Test func aTimedWaitReturnsWhenTheTimeReachesItsInstantWithoutASignal() async throws {
        let wakeup = Wakeup()
        let time = ManualTime()
        let until = time.now + 50
        let returned = Recorder<Bool>()
        let waiter = Task {
            await wakeup.wait(until: until, on: time.source)
            returned.append(true)
        }
        defer { waiter.cancel() }
        try await eventually("the wait's sleep") { time.sleepers == [until] }
        time.advance(to: until - 1)
        try await Task.sleep(for: Self.stays)
        #expect(returned.count == 0)
        time.advance(to: until)
        try await eventually("the wait's return") { returned.count == 1 }
        // Timing out leaves no signal behind.
        #expect(await !finishes(within: Self.stays) { await wakeup.wait() })
    }

    @Test func aTimedWaitOnTheSystemsTimeReturnsAfterItsInstant() async {
        let wakeup = Wakeup()
        let start = TimeSource.system.now()
        #expect(await finishes(within: Self.returns) { await wakeup.wait(until: start + 50, on: .system) })
        #expect(TimeSource.system.now() - start >= 50)
    }

    @Test func aTimedWaitReturnsEarlyOnASignal() async {
        let wakeup = Wakeup()
        wakeup.signal()
        #expect(await finishes(within: Self.returns) { await wakeup.wait(until: TimeSource.system.now() + 3_600_000, on: .system) })
    }

    @Test func aTimedWaitWithoutAnInstantWaitsForTheSignal() async {
        let wakeup = Wakeup()
        #expect(await !finishes(within: Self.stays) { await wakeup.wait(until: nil, on: .system) })
        wakeup.signal()
        #expect(await finishes(within: Self.returns) { await wakeup.wait(until: nil, on: .system) })
    }

    @Test func aTimedWaitReturnsOnCancellation() async {
        let wakeup = Wakeup()
        let waiter = Task { await wakeup.wait(until: TimeSource.system.now() + 3_600_000, on: .system) }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        #expect(await finishes(within: Self.returns) { await waiter.value })
    }

    /// Two tasks hand a turn back and forth: a signal lost between "signal" and "wait" would hang them.
    @Test func aLongPingPongLosesNoSignal() async {
        let ping = Wakeup()
        let pong = Wakeup()
        let rounds = 5000
        // A lost signal hangs for good: the bound only tells that from a slow, loaded machine.
        let finished = await finishes(within: .seconds(120)) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for _ in 0..<rounds {
                        ping.signal()
                        await pong.wait()
                    }
                }
                group.addTask {
                    for _ in 0..<rounds {
                        await ping.wait()
                        pong.signal()
                    }
                }
            }
        }
        #expect(finished)
    }
}
