import BeaconDomain
#if canImport(Glibc)
import Glibc
#endif

/// The system's wall clock in epoch milliseconds: what arrival times and live playheads are compared with.
package enum WallClock {
    @Sendable package static func now() -> Milliseconds {
        milliseconds(of: CLOCK_REALTIME)
    }

    /// What the system clock `clock` reads, in milliseconds.
    static func milliseconds(of clock: clockid_t) -> Milliseconds {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Milliseconds(spec.tv_sec) * 1000 + Milliseconds(spec.tv_nsec) / 1_000_000
    }
}
