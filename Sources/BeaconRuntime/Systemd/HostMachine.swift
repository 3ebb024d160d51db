#if canImport(Glibc)
import Glibc
#endif

/// The box's hardware, as the kernel names it: the telemetry's `host.arch`.
package enum HostMachine {
    /// `uname -m` (`x86_64`, `aarch64`, `armv7l`); empty when the kernel does not say.
    package static func architecture() -> String {
        var names = utsname()
        guard uname(&names) == 0 else { return "" }
        return withUnsafeBytes(of: names.machine) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
