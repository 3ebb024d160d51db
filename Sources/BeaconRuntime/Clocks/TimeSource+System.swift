import BeaconDomain

extension TimeSource {
    /// The system's clocks: `CLOCK_BOOTTIME` and `CLOCK_REALTIME`.
    public static let system = TimeSource(bootID: BootClock.bootID, instant: BootClock.now, wall: WallClock.now)

    /// Instants and wall time read from these functions; waits sleep on `ContinuousClock` for the
    /// time left until the instant. The domain only takes a time source: sleeping is the runtime's.
    package init(bootID: String, instant: @escaping @Sendable () -> Milliseconds, wall: @escaping @Sendable () -> Milliseconds) {
        self.init(bootID: bootID, instant: instant, wall: wall) { until in
            try await Task.sleep(for: .milliseconds(max(until - instant(), 0)), clock: ContinuousClock())
        }
    }
}
