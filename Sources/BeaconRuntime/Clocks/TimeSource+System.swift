import BeaconDomain

extension TimeSource {
    /// The system's clocks: `CLOCK_BOOTTIME` and `CLOCK_REALTIME`.
    public static let system = TimeSource(bootID: BootClock.bootID, instant: BootClock.now, wall: WallClock.now)
}
