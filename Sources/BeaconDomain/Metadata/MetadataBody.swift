#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The raw bytes of a metadata response, before any decoding.
public enum MetadataBody {
    /// Whether `body` repeats `last` byte for byte. Most refreshes do, and recognising one must
    /// cost a small fraction of decoding it: `memcmp` runs at memory speed, where comparing the
    /// arrays element by element runs at a byte per cycle or so.
    public static func repeats(_ body: [UInt8], last: [UInt8]?) -> Bool {
        guard let last, last.count == body.count else { return false }
        return body.withUnsafeBytes { new in
            last.withUnsafeBytes { old in
                new.isEmpty || memcmp(new.baseAddress!, old.baseAddress!, new.count) == 0
            }
        }
    }
}
