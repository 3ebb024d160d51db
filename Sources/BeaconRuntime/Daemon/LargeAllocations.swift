import BeaconDomain
#if canImport(CMalloc)
import CMalloc
#endif

/// Where the daemon's large, short-lived buffers come from: a metadata body, the session
/// snapshot's JSON, the status document. glibc serves an allocation from 128 KiB up with pages of
/// its own, given back when freed, until one such is freed: then it raises that threshold to the
/// freed size, and every later buffer of that size stays in the heap once freed, in whichever
/// thread's arena it was taken. Playing a 2 MiB document while answering `status` and saving the
/// journal peaked 15 MiB higher that way (75.6 against 60.7 MiB, `scripts/bench/metadata_memory.py`).
package enum LargeAllocations {
    /// The size from which an allocation gets pages of its own: glibc's initial threshold.
    package static let ownPagesFrom = 128 * 1024

    /// Fixes the threshold at ``ownPagesFrom``, which glibc then never raises. Call once, at start.
    package static func keepOnOwnPages() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, Int32(ownPagesFrom))
        #endif
    }
}
