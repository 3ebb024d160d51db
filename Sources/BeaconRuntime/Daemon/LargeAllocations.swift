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
///
/// Fixing that threshold also fixes the one for giving back the free top of a heap at 128 KiB,
/// so a burst of deliveries, whose tables and journal commit grow and shrink a heap by more than
/// that, gave pages back and faulted them in again at every step: about a tenth of the daemon's
/// CPU in a burst of 1 000 beacons to 20 hosts (`scripts/bench/burst.py`). A heap keeps up to
/// ``heapTopKept`` free instead, which left the peak above unchanged (within 1.5 MiB, run to run).
package enum LargeAllocations {
    /// The size from which an allocation gets pages of its own: glibc's initial threshold.
    package static let ownPagesFrom = 128 * 1024
    /// Free memory at the top of a heap that stays in it rather than going back at once.
    package static let heapTopKept = 1024 * 1024

    /// Fixes the threshold at ``ownPagesFrom``, which glibc then never raises, and the free top a
    /// heap keeps at ``heapTopKept``. Call once, at start.
    package static func keepOnOwnPages() {
        #if canImport(CMalloc)
        _ = mallopt(M_MMAP_THRESHOLD, Int32(ownPagesFrom))
        _ = mallopt(M_TRIM_THRESHOLD, Int32(heapTopKept))
        #endif
    }
}
