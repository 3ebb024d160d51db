import BeaconDomain
#if canImport(Glibc)
import Glibc
#endif

/// The system's monotonic clock: milliseconds since boot, counting through standby
/// (`CLOCK_BOOTTIME`, the clock `ContinuousClock` sleeps on), and the id of the boot it counts from.
///
/// No wall-clock step moves it, so every duration the daemon schedules is measured on it. Its
/// instants mean something within one boot only: `bootID` tells two boots apart.
package enum BootClock {
    @Sendable package static func now() -> Milliseconds {
        WallClock.milliseconds(of: CLOCK_BOOTTIME)
    }

    /// The kernel's random id of this boot. When it cannot be read, an id of this process alone:
    /// then every instant stored before counts as from another boot, which is the safe reading.
    package static let bootID: String = readBootID() ?? "process-\(getpid())-\(now())"

    private static func readBootID() -> String? {
        let descriptor = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let id = String(decoding: bytes[..<count], as: UTF8.self).filter { !$0.isWhitespace }
        return id.isEmpty ? nil : id
    }
}
